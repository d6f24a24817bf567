#!/usr/bin/env bash
# integration/purge.sh: purge deletes mail every recipient archived long ago (and long-expired
# mail), --dry-run only counts, idempotency keys stay
. "$(dirname "$0")/common.sh"
workspace alice bob carol
old=$(send_id --as alice bob -s "heron old" -m "archived long ago" --idempotency-key job-7)
half=$(send_id --as alice --to bob --to carol -s "heron half" -m "carol keeps it")
fresh=$(send_id --as alice bob -s "heron fresh" -m "archived today")
for id in "$old" "$half" "$fresh"; do mailroom --as bob archive "$id" > /dev/null; done
# Move two archive times into 2020 through an export and an import into a new store.
mailroom export | jq -c --arg old "$old" --arg half "$half" '
  if .kind == "delivery" and (.message == $old or .message == $half) and .archived_at != null
  then .archived_at = "2020-01-01T00:00:00.000Z" else . end' > "$t/aged.jsonl"
export MAILROOM_DB="$t/aged.db"
mkdir -p "$t/aged" && (cd "$t/aged" && "$MAILROOM" init > /dev/null)
mailroom import "$t/aged.jsonl" > /dev/null

mailroom purge --archived --older-than 30d --dry-run > "$t/out"
[ "$(mailroom --as alice --json search heron | jq .total)" = 3 ]
mailroom purge --archived --older-than 30d >> "$t/out"
mailroom purge --archived --older-than 30d >> "$t/out"
expect_golden "$t/out"
[ "$(mailroom --as alice --json search heron | jq -r '.messages[].id' | sort | tr '\n' ' ')" = "$(printf '%s\n' "$half" "$fresh" | sort | tr '\n' ' ')" ]
expect_exit 3 mailroom --as alice peek "$old"
mailroom --json purge --archived --older-than 1d --dry-run | jq -e '.ok and .dry_run and .messages == 0' > /dev/null
# The key outlives its message: sending it again is refused, not duplicated.
expect_exit 4 mailroom --as alice send bob -s "heron old" -m "archived long ago" --idempotency-key job-7 2> "$t/err"
grep -q 'was already used for a message that has since been purged' "$t/err"
mailroom export | jq -e 'select(.kind == "idempotency_key") | .message == null' > /dev/null
expect_exit 2 mailroom purge --older-than 30d
expect_exit 2 mailroom purge --archived
expect_exit 2 mailroom purge --archived --older-than soon
