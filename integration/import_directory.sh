#!/usr/bin/env bash
# integration/import_directory.sh: `import DIR` is a usage error (exit 2) naming the directory and
# why, like a file that does not exist; nothing is stored.
. "$(dirname "$0")/common.sh"
mkdir -p "$t/dir"
expect_exit 2 mailroom import "$t/dir" 2> "$t/err"
grep -q "^mailroom import: cannot read \"$t/dir\": it is a directory, not an export file$" "$t/err" || { cat "$t/err" >&2; exit 1; }
grep -q '^hint: ' "$t/err"
expect_exit 2 mailroom --json import "$t/dir" 2> "$t/err"
jq -e '.error.code == "usage"' "$t/err" > /dev/null
expect_exit 2 mailroom import "$t/missing.jsonl" 2> "$t/err"
grep -q "cannot read \"$t/missing.jsonl\": No such file or directory" "$t/err"
[ "$(mailroom --json count | jq .total)" -eq 0 ]
# A file still imports.
mailroom export > "$t/empty.jsonl"
mailroom import "$t/empty.jsonl" > /dev/null
