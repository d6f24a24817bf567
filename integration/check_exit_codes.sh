#!/usr/bin/env bash
# integration/check_exit_codes.sh: check is 1 with no mail (silent), 0 with mail, 5 when the store fails
. "$(dirname "$0")/common.sh"
workspace mayor
expect_exit 1 mailroom --as mayor check
[ -z "$(mailroom --as mayor check || true)" ]
send_id mayor "Fix the auth bug" > /dev/null
send_id mayor "PR #17 ready" > /dev/null
expect_exit 0 mailroom --as mayor check
mailroom --as mayor check | grep -qx "2 unread message(s) for mayor"
printf 'this is not a database, just garbage bytes %.0s' {1..200} > "$t/bad.db"
expect_exit 5 mailroom --db "$t/bad.db" --as mayor check
