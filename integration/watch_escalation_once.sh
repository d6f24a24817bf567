#!/usr/bin/env bash
# integration/watch_escalation_once.sh: one failing handler reaches the operator once, not once
# per message (contract "Dark means dark"). The first delivery set aside is escalated at once; the
# next ones are held while that escalation is unread, and the moment it is read one escalation
# names them all, with --for hints. A waiter on a held request still ends set_aside.
. "$(dirname "$0")/common.sh"
mailroom agents add lead worker > /dev/null

ids=()
for i in 1 2 3 4 5; do
  ids+=("$(send_id --as lead worker --type task_request -s "job $i" -m "do $i")")
done
"$MAILROOM" --as worker --json watch --type task_request --max-attempts 1 --exec sh -c 'echo "no tools" >&2; exit 3' \
  > "$t/watch.jsonl" 2> "$t/watch.err" &
watcher=$!

# set_aside_count N: waits (at most 20 s) until N of worker's deliveries are set aside.
set_aside_count() {
  for _ in $(seq 1 200); do
    [ "$(mailroom --json team | jq '.mailboxes[] | select(.mailbox == "worker") | .set_aside_count')" = "$1" ] && return 0
    sleep 0.1
  done
  echo "set_aside_count: not $1 within 20 s" >&2
  return 1
}
set_aside_count 5
escalations() { mailroom --as lead --json inbox --all --type escalation; }
escalations > "$t/first.json"
jq -e --arg id "${ids[0]}" '.total == 1
  and (.messages[0].subject == "watch gave up on " + $id + " for worker after 1 attempt")
  and .messages[0].from == "mailroom" and .messages[0].priority == 0' "$t/first.json" > /dev/null
first=$(jq -r '.messages[0].id' "$t/first.json")
# The other four are held behind it, each saying by which.
[ "$(jq -s --arg e "$first" '[.[] | select(.event == "set_aside" and .escalation_held_by == $e)] | length' \
  "$t/watch.jsonl")" = 4 ]

# Read: the watcher wakes on the change and sends one escalation naming the four held ones.
mailroom --as lead read "$first" > "$t/first.txt"
grep -q "mailroom mark-unread --for worker ID" "$t/first.txt"
for _ in $(seq 1 200); do
  [ "$(escalations | jq .total)" = 2 ] && break
  sleep 0.1
done
escalations > "$t/both.json"
jq -e '.total == 2' "$t/both.json" > /dev/null
second=$(jq -c '[.messages[] | select(.subject | startswith("watch gave up on 4 messages for worker: "))][0]' "$t/both.json")
[ "$second" != null ]
body=$(mailroom --as lead --json read "$(jq -r .id <<< "$second")" | jq -r .message.body)
for id in "${ids[@]:1}"; do
  grep -q -- "- $id from lead (type task_request), 1 attempt, subject: job" <<< "$body"
done
[ "$(grep -c "Last failure: .*no tools" <<< "$body")" = 4 ]
jq -e -s --argjson n 4 'map(select(.event == "escalated")) | length == 1 and (.[0].ids | length) == $n' \
  "$t/watch.jsonl" > /dev/null
interrupt TERM "$watcher"
wait "$watcher" || true

# A request held behind an unread escalation still ends its sender's wait: set_aside, no notice.
"$MAILROOM" --as worker watch --type task_request --max-attempts 1 --exec false > /dev/null 2>&1 &
watcher=$!
mailroom --as lead send worker --type task_request -s first -m x > /dev/null
set_aside_count 6
expect_exit 1 mailroom --json --as lead send worker --type task_request --wait-reply --timeout 60s -s held -m y \
  > "$t/held.json"
interrupt TERM "$watcher"
wait "$watcher" || true
jq -e '.outcome == "set_aside" and .timed_out == false and .notice == null' "$t/held.json" > /dev/null
