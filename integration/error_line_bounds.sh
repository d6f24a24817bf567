#!/usr/bin/env bash
# integration/error_line_bounds.sh: every error line is one capped line through the output gate,
# however long or hostile the value it echoes (issue #12 item 4)
. "$(dirname "$0")/common.sh"
workspace mayor

# A 100 kB identity (an argument may not be longer than 128 kB): exit 2, error lines of at most
# 512 bytes, cut with "…".
huge=$(head -c 100000 /dev/zero | tr '\0' a)
expect_exit 2 mailroom --as "$huge" inbox 2> "$t/err"
[ "$(wc -l < "$t/err")" -le 2 ]
while IFS= read -r line; do
  [ "${#line}" -le 512 ] || { echo "error line of ${#line} characters" >&2; exit 1; }
done < "$t/err"
grep -q '…' "$t/err"

# A 100 kB unknown recipient: the same bound.
expect_exit 2 mailroom --as mayor send "$huge" "hello" 2> "$t/err"
while IFS= read -r line; do
  [ "$(printf '%s' "$line" | wc -c)" -le 512 ] || { echo "error line of ${#line} bytes" >&2; exit 1; }
done < "$t/err"

# A name close to a registered one, with escapes: the suggestion and the echo carry no raw ESC.
mailroom agents add $'ma\e[31myor' 2> /dev/null || true
expect_exit 2 mailroom --as mayor send $'mayo\e]0;T\a' "hello" 2> "$t/err"
not grep -q $'\e' "$t/err"
not grep -q $'\a' "$t/err"

# A 2 MB key in the config: the same bound.
printf '\n[%s]\nx = 1\n' "$(head -c 2000000 /dev/zero | tr '\0' k)" >> mailroom.toml
expect_exit 2 mailroom --as mayor inbox 2> "$t/err"
[ "$(wc -c < "$t/err")" -le 1100 ]
