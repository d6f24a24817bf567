#!/usr/bin/env bash
# integration/store_empty_file.sh: a zero-length file at the store path is a truncated store, not
# a new one: every command (init too) refuses it with exit 5, and nothing is written to it.
. "$(dirname "$0")/common.sh"
mkdir -p "$t/s"
: > "$t/s/mail.db"
for command in count "check" "send bob hi" "agents add bob"; do
  # shellcheck disable=SC2086
  expect_exit 5 mailroom --db "$t/s/mail.db" $command 2> "$t/err"
  grep -q "store \"$t/s/mail.db\" is an empty file (0 bytes), not a mailroom store; it may have been truncated$" "$t/err" ||
    { cat "$t/err" >&2; exit 1; }
done
(cd "$t/setup" && expect_exit 5 mailroom --db "$t/s/mail.db" init > /dev/null 2> "$t/err")
grep -q 'is an empty file (0 bytes)' "$t/err"
[ "$(stat -c %s "$t/s/mail.db")" -eq 0 ]
mailroom --json --db "$t/s/mail.db" count 2> "$t/json" > /dev/null || true
[ "$(jq -r .error.reason "$t/json")" = empty_store ]
# A store that was never written has no data to lose: a missing file stays "no store".
expect_exit 5 mailroom --db "$t/s/none.db" count 2> "$t/err"
grep -q "no store at" "$t/err"
