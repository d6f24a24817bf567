#!/usr/bin/env bash
# integration/presence_heartbeat.sh: an idle `wait` and an idle `watch` stay seen (contract
# "Presence is what the agent did"): each records presence when it starts and again at least
# every presence_after / 3 while nothing arrives, with its source. presence_after = 3s here, so a
# beat each second; a wait that never beats would keep its start time.
. "$(dirname "$0")/common.sh"
workspace waiter watcher lead
sed -i -e 's/^presence_after = .*/presence_after = "3s"/' mailroom.toml
grep -q '^presence_after = "3s"' mailroom.toml

seen_at() { mailroom --json team | jq --arg m "$1" '.mailboxes[] | select(.mailbox == $m) | .last_seen_at'; }
via() { mailroom --json team | jq -r --arg m "$1" '.mailboxes[] | select(.mailbox == $m) | .seen_via'; }

"$MAILROOM" --as waiter wait --type never --timeout 30s > /dev/null 2>&1 &
waiter=$!
"$MAILROOM" --as watcher watch --type never --exec true > /dev/null 2>&1 &
watcher=$!
# Both recorded their start.
for _ in $(seq 1 100); do
  [ "$(seen_at waiter)" != null ] && [ "$(seen_at watcher)" != null ] && break
  sleep 0.1
done
first_waiter=$(seen_at waiter)
first_watcher=$(seen_at watcher)
[ "$first_waiter" != null ] && [ "$first_watcher" != null ]
# Idle for a while: each beat moves last_seen_at on, and both stay active.
for _ in $(seq 1 100); do
  [ "$(seen_at waiter)" != "$first_waiter" ] && [ "$(seen_at watcher)" != "$first_watcher" ] && break
  sleep 0.1
done
[ "$(seen_at waiter)" != "$first_waiter" ]
[ "$(seen_at watcher)" != "$first_watcher" ]
[ "$(via waiter)" = wait ]
[ "$(via watcher)" = watch ]
sleep 3.5 # longer than presence_after: only the beats keep them seen
mailroom --json team | jq -e '[.mailboxes[] | select(.mailbox == "waiter" or .mailbox == "watcher") | .state]
  == ["active", "active"]' > /dev/null
interrupt TERM "$waiter"
interrupt TERM "$watcher"
wait "$waiter" "$watcher" || true
