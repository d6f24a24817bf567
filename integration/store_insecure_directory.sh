#!/usr/bin/env bash
# integration/store_insecure_directory.sh: a store in a directory that other users may write is
# refused (exit 5, naming the directory and its mode), for init and for every other command;
# init's own .mailroom/ is private (0700).
. "$(dirname "$0")/common.sh"
mkdir -p "$t/open" "$t/group"
chmod 0777 "$t/open"
chmod 0770 "$t/group"
(cd "$t/setup" && expect_exit 5 mailroom --db "$t/open/mail.db" init > /dev/null 2> "$t/err")
grep -q "store directory \"$t/open\" is writable by everyone (mode 0777); a store there could be replaced by another user$" "$t/err" ||
  { cat "$t/err" >&2; exit 1; }
grep -qx "hint: chmod go-w \"$t/open\", or keep the store in a directory only you can write" "$t/err"
[ ! -e "$t/open/mail.db" ]

# A store made safely and then exposed is refused too.
(cd "$t/setup" && mailroom --db "$t/group/mail.db" init > /dev/null 2>&1) || true
chmod 0700 "$t/group"
(cd "$t/setup" && mailroom --db "$t/group/mail.db" init > /dev/null)
chmod 0770 "$t/group"
expect_exit 5 mailroom --db "$t/group/mail.db" count 2> "$t/err"
grep -q "store directory \"$t/group\" is writable by its group (mode 0770)" "$t/err"
mailroom --json --db "$t/group/mail.db" count 2> "$t/json" > /dev/null || true
[ "$(jq -r .error.reason "$t/json")" = insecure_directory ]
chmod 0700 "$t/group"
expect_exit 0 mailroom --db "$t/group/mail.db" count > /dev/null

workspace
[ "$(stat -c %a .mailroom)" = 700 ]
