#!/usr/bin/env bash
# integration/export_import.sh: export -> import into another store -> export is byte-identical
# apart from the header; importing again changes nothing; imported mail is searchable and counted
. "$(dirname "$0")/common.sh"
workspace alice bob carol
task=$(send_id --as alice --to bob --cc carol -s "kestrel plan" -m "ship friday" --type task_request --idempotency-key job-1)
mailroom --as carol reply "$task" "done" > /dev/null
mailroom --as bob archive "$task" > /dev/null
printf 'raw \xff\xfe bytes\n' | mailroom --as bob send alice -s bytes --stdin > /dev/null
mailroom --as alice send bob -s later -m "urgent and later" --urgent > /dev/null

mailroom export > "$t/a.jsonl"
head -1 "$t/a.jsonl" | jq -e '.kind == "header" and .schema_version == 1 and (.exported_at | test("Z$"))' > /dev/null
head -1 "$t/a.jsonl" | grep -q '^{"kind":"header","schema_version":1,"exported_at":'
[ "$(grep -c '"kind":"message"' "$t/a.jsonl")" = 4 ]
grep -q '"body_b64":"cmF3IP/+IGJ5dGVzCg=="' "$t/a.jsonl"

other="$t/other.db"
mkdir -p "$t/other" && (cd "$t/other" && MAILROOM_DB="$other" "$MAILROOM" init > /dev/null)
MAILROOM_DB="$other" mailroom import "$t/a.jsonl" > "$t/out"
MAILROOM_DB="$other" mailroom export > "$t/b.jsonl"
diff <(tail -n +2 "$t/a.jsonl") <(tail -n +2 "$t/b.jsonl")
# Again, from standard input: nothing new.
MAILROOM_DB="$other" mailroom import - < "$t/a.jsonl" >> "$t/out"
MAILROOM_DB="$other" mailroom export | tail -n +2 | diff - <(tail -n +2 "$t/a.jsonl")
expect_golden "$t/out"
# A fresh store: added_count (the consistent name) beside added, the same number.
mkdir -p "$t/third" && (cd "$t/third" && MAILROOM_DB="$t/third.db" "$MAILROOM" init > /dev/null)
MAILROOM_DB="$t/third.db" mailroom --json import "$t/a.jsonl" | jq -e '.added > 0 and .added_count == .added' > /dev/null
MAILROOM_DB="$other" mailroom --json import "$t/a.jsonl" | jq -e '.ok and .added == 0 and .added_count == 0 and .messages == 0 and .skipped > 0' > /dev/null

# The copy answers as the original.
[ "$(MAILROOM_DB="$other" mailroom --as carol --json search friday | jq -r '.messages[].id')" = "$task" ]
[ "$(MAILROOM_DB="$other" mailroom --as bob --json count | jq -c '[.total, .unread]')" = "$(mailroom --as bob --json count | jq -c '[.total, .unread]')" ]
# The key came along.
MAILROOM_DB="$other" mailroom --as alice send --to bob --cc carol -s "kestrel plan" -m "ship friday" --type task_request --idempotency-key job-1 2>&1 | grep -q "^Already sent message $task"
# --since keeps only later messages.
[ "$(mailroom export --since 1h | grep -c '"kind":"message"')" = 4 ]
[ "$(mailroom export --since 2999-01-01 | grep -c '"kind":"message"' || true)" = 0 ]
