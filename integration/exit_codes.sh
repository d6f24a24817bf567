#!/usr/bin/env bash
# integration/exit_codes.sh: every exit code of the contract, 0 to 5
. "$(dirname "$0")/common.sh"
workspace alice bob
id=$(send_id --as alice bob "hi")
expect_exit 0 mailroom --as bob count
expect_exit 1 mailroom --as alice check
expect_exit 2 mailroom send
expect_exit 2 mailroom --bogus count
expect_exit 2 mailroom send nobody "hi"
expect_exit 3 mailroom --as bob read mr-000000
expect_exit 3 mailroom thread thread-000000000000
mailroom agents add carol > /dev/null
expect_exit 4 mailroom --as carol read "$id"
printf 'garbage that is not SQLite %.0s' {1..100} > "$t/corrupt.db"
expect_exit 5 mailroom --db "$t/corrupt.db" count
expect_exit 0 mailroom --db "$t/corrupt.db" check --inject 2> /dev/null
