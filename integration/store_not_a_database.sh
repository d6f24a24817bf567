#!/usr/bin/env bash
# integration/store_not_a_database.sh: a file that is not a SQLite database, and a SQLite database
# that is not a mailroom store, are each exit 5 with their own error; neither is changed.
. "$(dirname "$0")/common.sh"
mkdir -p "$t/s"
head -c 8192 /dev/urandom > "$t/s/junk.db"
sum=$(sha256sum < "$t/s/junk.db")
expect_exit 5 mailroom --db "$t/s/junk.db" count 2> "$t/err"
grep -qx "mailroom count: \"$t/s/junk.db\" is not a mailroom store (not a SQLite database)" "$t/err" || { cat "$t/err" >&2; exit 1; }
expect_exit 5 mailroom --db "$t/s/junk.db" send bob hi 2> /dev/null
mailroom --json --db "$t/s/junk.db" count 2> "$t/json" > /dev/null || true
[ "$(jq -r .error.reason "$t/json")" = not_a_database ]
[ "$(sha256sum < "$t/s/junk.db")" = "$sum" ]

command -v sqlite3 > /dev/null || exit 0
sqlite3 "$t/s/other.db" 'CREATE TABLE notes (x); INSERT INTO notes VALUES (1);'
for command in count "send bob hi"; do
  # shellcheck disable=SC2086
  expect_exit 5 mailroom --db "$t/s/other.db" $command 2> "$t/err"
  grep -q "\"$t/s/other.db\" is a SQLite database but not a mailroom store$" "$t/err" || { cat "$t/err" >&2; exit 1; }
done
(cd "$t/setup" && expect_exit 5 mailroom --db "$t/s/other.db" init > /dev/null 2>&1)
[ "$(sqlite3 "$t/s/other.db" 'SELECT count(*) FROM sqlite_schema')" = 1 ]
