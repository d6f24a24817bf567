#!/usr/bin/env bash
# integration/health_sweep_every.sh: `sweep --every DUR` repeats until SIGTERM (143) or SIGINT
# (130), one JSON object per event with --json; with redelivery off it says so once and runs on
. "$(dirname "$0")/common.sh"
workspace alice bob
sed -i 's/^enabled = false/enabled = true/; s/^first_after = .*/first_after = "1ms"/; s/^max_attempts = .*/max_attempts = 0/' mailroom.toml
mailroom --as alice send bob "job" --ack > /dev/null
# Run the binary itself in the background (not through the mailroom function's subshell, which
# ignores SIGINT as every background job of a non-interactive shell does).
"$MAILROOM" --json sweep --every 50ms > "$t/events" &
pid=$!
for _ in $(seq 1 400); do
  [ "$(grep -c '"event":"pass"' "$t/events" || true)" -ge 2 ] && break
  sleep 0.05
done
kill -TERM "$pid"
expect_exit 143 wait "$pid"
jq -e -s 'all(.[]; .schema_version == 1 and (.event | type) == "string")
  and ([.[] | select(.event == "escalated")] | length) == 1
  and ([.[] | select(.event == "pass")] | length) >= 2
  and ([.[] | select(.event == "pass") | .escalated_count] | add) == 1
  and all(.[] | select(.event == "pass"); .escalated_count == .escalated and .redelivered_count == .redelivered)' "$t/events" > /dev/null

"$MAILROOM" sweep --every 1h > "$t/text" &
pid=$!
sleep 0.3
interrupt INT "$pid"
expect_exit 130 wait "$pid"
[ ! -s "$t/text" ]

# Off: it says so once and runs on, firing the schedules' due slots (contract "Firers").
sed -i 's/^enabled = true/enabled = false/' mailroom.toml
"$MAILROOM" sweep --every 100ms > "$t/off" &
pid=$!
for _ in $(seq 1 200); do
  [ -s "$t/off" ] && break
  sleep 0.05
done
sleep 0.5 # several more passes, which say nothing
kill -TERM "$pid"
expect_exit 143 wait "$pid"
[ "$(cat "$t/off")" = "redelivery is off (set [delivery.redelivery] enabled = true)" ]
