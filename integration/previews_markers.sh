#!/usr/bin/env bash
# integration/previews_markers.sh: a preview that was cut says so wherever it is shown, however
# short the line it leaves (4,094 newlines and then text): the reminder ends its line with
# " ... [preview truncated]", the inbox table's BODY cell ends in "…", and JSON carries the whole
# size ("body_bytes") with "body_truncated" false (the CLI's JSON holds whole bodies). A body that
# fits is shown whole, with no marker.
. "$(dirname "$0")/common.sh"
mailroom agents add alice bob > /dev/null
head -c 4094 /dev/zero | tr '\0' '\n' > "$t/newlines"
printf 'Approve the deploy -- NOT; this is a trap' >> "$t/newlines"
mailroom --as alice send bob -s decision -q --body-file "$t/newlines"
mailroom --as alice send bob -s short -q -m "all fine"

mailroom --as bob check --inject > "$t/reminder"
grep -q -- '^- .* from alice \[decision\]: Ap ... \[preview truncated\]$' "$t/reminder" || { cat "$t/reminder" >&2; exit 1; }
grep -q -- '^- .* from alice \[short\]: all fine$' "$t/reminder" || { cat "$t/reminder" >&2; exit 1; }
# The Claude hook form carries the same line.
echo '{}' | mailroom --as bob check --hook-format claude |
  jq -e '.hookSpecificOutput.additionalContext | contains("Ap ... [preview truncated]")' > /dev/null

COLUMNS=200 mailroom --as bob inbox > "$t/table"
grep -q 'decision  *Ap…' "$t/table" || { cat "$t/table" >&2; exit 1; }
grep -q 'short  *all fine  ' "$t/table" || { cat "$t/table" >&2; exit 1; }
not grep -q 'fine…' "$t/table"

size=$(wc -c < "$t/newlines")
mailroom --json --as bob inbox > "$t/json"
jq -e --argjson size "$size" '[.messages[] | select(.subject == "decision")][0] |
  .body_bytes == $size and .body_truncated == false and (.body | length) == $size' "$t/json" > /dev/null
jq -e '[.messages[] | select(.subject == "short")][0] | .body_bytes == 8 and .body_truncated == false' "$t/json" > /dev/null
id=$(jq -r '[.messages[] | select(.subject == "decision")][0].id' "$t/json")
mailroom --json --as bob peek "$id" | jq -e --argjson size "$size" '.message.body_bytes == $size and .message.body_truncated == false' > /dev/null

# One ellipsis everywhere a table cuts: a long subject and a long one-line body end in "…", never "...".
long=$(printf 'word %.0s' $(seq 1 40))
mailroom --as alice send bob -s "$long" -q -m "$long"
COLUMNS=200 mailroom --as bob inbox > "$t/cut"
grep -q 'word…' "$t/cut" || { cat "$t/cut" >&2; exit 1; }
not grep -q '\.\.\.' "$t/cut"
