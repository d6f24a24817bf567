#!/usr/bin/env bash
# integration/health_sweep_concurrent.sh: two sweeps at once never act twice on one delivery:
# racing passes redeliver each due delivery exactly once, and escalate a dark peer exactly once
. "$(dirname "$0")/common.sh"
workspace alice bob carol dave
# 40 deliveries per case; 10 under the sanitizers, where each command starts slowly.
n=40
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && n=10
sed -i 's/^enabled = false/enabled = true/; s/^first_after = .*/first_after = "1s"/; s/^backoff = .*/backoff = 100.0/; s/^max_attempts = .*/max_attempts = 1/' mailroom.toml
for i in $(seq 1 "$n"); do
  mailroom --as alice send bob "task $i" --ack > /dev/null
done
sleep 1.1
mailroom --json sweep > "$t/a.json" & a=$!
mailroom --json sweep > "$t/b.json" & b=$!
wait "$a"
wait "$b"
[ "$(jq -s '[.[].redelivered[]] | length' "$t/a.json" "$t/b.json")" = "$n" ]
[ "$(jq -s '[.[].redelivered[].id] | unique | length' "$t/a.json" "$t/b.json")" = "$n" ]
for id in $(mailroom --as bob --json inbox --no-limit | jq -r '.messages[].id'); do
  mailroom --as alice --json status "$id" | jq -e '.recipients[0].attempts == 1' > /dev/null
done

# A dark peer: dave's messages to carol give up at once; two racing passes send ONE escalation.
sed -i 's/^first_after = .*/first_after = "1ms"/; s/^max_attempts = .*/max_attempts = 0/' mailroom.toml
for i in $(seq 1 "$n"); do
  mailroom --as dave send carol "job $i" --ack > /dev/null
done
sleep 0.01
mailroom --json sweep > "$t/c.json" & c=$!
mailroom --json sweep > "$t/d.json" & d=$!
wait "$c"
wait "$d"
[ "$(jq -s '[.[].escalated[]] | length' "$t/c.json" "$t/d.json")" = 1 ]
[ "$(jq -s '[.[].escalated[].ids[]] | length' "$t/c.json" "$t/d.json")" = "$n" ]
[ "$(jq -s '[.[].redelivered[]] | length' "$t/c.json" "$t/d.json")" = 0 ]
mailroom --as dave --json inbox > "$t/inbox"
jq -e '[.messages[] | select(.type == "escalation" and .from == "mailroom")] | length == 1' "$t/inbox" > /dev/null
[ "$(mailroom --as dave --json peers carol | jq '.peers[0].escalated_count')" = "$n" ]
[ "$(mailroom --json sweep | jq '.escalated | length')" = 0 ]
