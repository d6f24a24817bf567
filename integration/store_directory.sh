#!/usr/bin/env bash
# integration/store_directory.sh: a directory at the store path is exit 5 with its own error.
. "$(dirname "$0")/common.sh"
mkdir -p "$t/dir.db"
expect_exit 5 mailroom --db "$t/dir.db" count 2> "$t/err"
grep -qx "mailroom count: store \"$t/dir.db\" is a directory, not a store file" "$t/err" || { cat "$t/err" >&2; exit 1; }
expect_exit 5 mailroom --db "$t/dir.db" send bob hi 2> /dev/null
mailroom --json --db "$t/dir.db" count 2> "$t/json" > /dev/null || true
[ "$(jq -r .error.reason "$t/json")" = not_a_file ]
