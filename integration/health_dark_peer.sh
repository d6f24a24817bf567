#!/usr/bin/env bash
# integration/health_dark_peer.sh: a user's day — the mayor hands tasks to three agents; two
# answer, one goes dark. The mayor sees it in `peers`, the sweep (run as cron would) re-surfaces
# the task to the dark agent, and then the mayor gets exactly one escalation, however often the
# sweep runs.
. "$(dirname "$0")/common.sh"
workspace mayor ann ben cal
sed -i 's/^stale_after = .*/stale_after = "1s"/; s/^enabled = false/enabled = true/; s/^first_after = .*/first_after = "1s"/; s/^backoff = .*/backoff = 1.0/; s/^max_attempts = .*/max_attempts = 1/' mailroom.toml
for agent in ann ben cal; do
  mailroom --as mayor send "$agent" -s "build step for $agent" -m "please run it" --type task_request > /dev/null
done
for agent in ann ben; do
  id=$(mailroom --as "$agent" --json inbox | jq -r '.messages[0].id')
  mailroom --as "$agent" reply "$id" "done" > /dev/null
done
sleep 1.1
mailroom --as mayor peers > "$t/peers"
sed -n 2p "$t/peers" | grep -Eq '^cal +[a-z_]+ +1 .* stale$'
[ "$(mailroom --as mayor --json peers | jq '.stale_count')" = 1 ]

# The first pass re-surfaces the task cal never answered.
first=$(mailroom sweep)
[[ "$first" =~ ^Redelivered\ (mr-[0-9a-f]+)\ to\ cal\ \(attempt\ 1\ of\ 1\)$ ]]
task=${BASH_REMATCH[1]}
mailroom --as cal check --inject | grep -q "(redelivered, attempt 1, first sent"
sleep 1.1
# Cron runs the sweep several times; the mayor hears about cal once.
for _ in 1 2 3; do
  mailroom sweep >> "$t/sweeps"
done
[ "$(grep -c '^Told mayor that cal has not acknowledged 1 message(s): ' "$t/sweeps")" = 1 ]
[ "$(wc -l < "$t/sweeps")" = 1 ]
mailroom --as mayor --json inbox > "$t/inbox"
# cal's hook ran a moment ago, so cal is seen: not dark, only not acknowledging (dark means dark).
[ "$(jq '[.messages[] | select(.subject | test("^cal has not acknowledged 1 message\\(s\\) \\(seen [0-9]+s ago\\)$"))] | length' "$t/inbox")" = 1 ]
mailroom --as mayor --json peers cal | jq -e '.peers[0].escalated_count == 1 and .peers[0].stale' > /dev/null
# cal comes back and answers: no longer stale.
mailroom --as cal reply "$task" "sorry, done now" > /dev/null
mailroom --as mayor --json peers | jq -e '.stale_count == 0' > /dev/null
