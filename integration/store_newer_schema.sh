#!/usr/bin/env bash
# integration/store_newer_schema.sh: a store written by a newer mailroom is refused (exit 5) by
# reads and writes alike, naming both schema versions, and is left as it was.
. "$(dirname "$0")/common.sh"
command -v sqlite3 > /dev/null || skip "sqlite3 shell not installed"
mailroom agents add bob > /dev/null
sqlite3 "$MAILROOM_DB" 'PRAGMA user_version = 99'
for command in "--as bob count" "send bob hi"; do
  # shellcheck disable=SC2086
  expect_exit 5 mailroom $command 2> "$t/err"
  grep -Eq "store \"$MAILROOM_DB\" has schema version 99, newer than this mailroom understands \([0-9]+\)$" "$t/err" ||
    { cat "$t/err" >&2; exit 1; }
  grep -qx 'hint: upgrade mailroom' "$t/err"
done
mailroom --json --as bob count 2> "$t/json" > /dev/null || true
[ "$(jq -r .error.reason "$t/json")" = newer_schema ]
[ "$(sqlite3 "$MAILROOM_DB" 'PRAGMA user_version')" = 99 ]
