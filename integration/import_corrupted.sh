#!/usr/bin/env bash
# integration/import_corrupted.sh: a malformed line is exit 2 naming the line, a conflict exit 4,
# and either way nothing from the file is stored
. "$(dirname "$0")/common.sh"
workspace alice bob
for i in 1 2 3; do mailroom --as alice send bob -s "note $i" -m "body $i" > /dev/null; done
mailroom export > "$t/good.jsonl"

other="$t/other.db"
mkdir -p "$t/other" && (cd "$t/other" && MAILROOM_DB="$other" "$MAILROOM" init > /dev/null)
store() { MAILROOM_DB="$other" mailroom "$@"; }
empty=$(store export | tail -n +2)

# Line 6 cut in half (the third record after the mailboxes is a message or a delivery).
awk 'NR == 6 { print substr($0, 1, 40); next } { print }' "$t/good.jsonl" > "$t/cut.jsonl"
expect_exit 2 store import "$t/cut.jsonl" 2> "$t/err"
grep -q "^mailroom import: $t/cut.jsonl:6: not JSON" "$t/err"
[ "$(store export | tail -n +2)" = "$empty" ]

# A field of the wrong type, as JSON errors.
jq -c 'if .kind == "message" then .priority = "high" else . end' "$t/good.jsonl" > "$t/typed.jsonl"
expect_exit 2 store --json import "$t/typed.jsonl" 2> "$t/err"
jq -e '.error.code == "usage" and (.error.message | test(":4: message record: \"priority\" is not an integer"))' "$t/err" > /dev/null
# Not an export at all.
printf 'hello\n' > "$t/text.txt"
expect_exit 2 store import "$t/text.txt" 2> "$t/err"
grep -q ':1: not JSON' "$t/err"
tail -n +2 "$t/good.jsonl" > "$t/headless.jsonl"
expect_exit 2 store import "$t/headless.jsonl" 2> "$t/err"
grep -q ':1: expected the header line' "$t/err"
expect_exit 2 store import "$t/missing.jsonl"
[ "$(store export | tail -n +2)" = "$empty" ]

# A conflict: the same message id with another subject, after a good new message.
store import "$t/good.jsonl" > /dev/null
before=$(store export | tail -n +2)
sed -e '0,/"subject":"note 2"/s//"subject":"note two"/' "$t/good.jsonl" > "$t/conflict.jsonl"
mailroom --as alice send bob -s "note 4" -m "new" > /dev/null
mailroom export | grep '"subject":"note 4"' >> "$t/conflict.jsonl"
expect_exit 4 store import "$t/conflict.jsonl" 2> "$t/err"
grep -q 'differs from the one in the store (subject)' "$t/err"
[ "$(store export | tail -n +2)" = "$before" ]
