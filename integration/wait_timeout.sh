#!/usr/bin/env bash
# integration/wait_timeout.sh: wait returns at once for what is there, wakes on a send from
# another process, times out within its timeout (exit 1, the contract's JSON), and SIGINT/SIGTERM
# end it with 130/143.
. "$(dirname "$0")/common.sh"
mailroom agents add alice bob > /dev/null
ms() { date +%s%3N; }

start=$(ms)
expect_exit 1 mailroom --as bob wait --timeout 500ms > "$t/none.out"
elapsed=$(($(ms) - start))
[ ! -s "$t/none.out" ]
[ "$elapsed" -ge 450 ] && [ "$elapsed" -lt 3000 ]
expect_exit 1 mailroom --as bob --json wait --timeout 100ms > "$t/none.json"
[ "$(cat "$t/none.json")" = '{"message":null,"notice":null,"outcome":"timed_out","schema_version":1,"timed_out":true}' ]

# Woken by another process's send, well within the timeout.
"$MAILROOM" --as bob --json wait --timeout 20s > "$t/woken.json" &
waiter=$!
sleep 0.3
sent_at=$(ms)
id=$(send_id --as alice bob "wake up")
wait "$waiter"
woke=$(($(ms) - sent_at))
jq -e --arg id "$id" '.message.id == $id and .timed_out == false and .message.read == false' "$t/woken.json" > /dev/null
[ "$woke" -lt 2000 ]
echo "woke ${woke}ms after the send started" >&2

# Already there: at once, again and again, until --read takes it.
mailroom --as bob wait --timeout 0 > /dev/null
mailroom --as bob wait --timeout 0 --read > /dev/null
expect_exit 1 mailroom --as bob wait --timeout 0

# Interrupted.
for sig in INT TERM; do
  "$MAILROOM" --as bob wait > /dev/null &
  waiter=$!
  sleep 0.3
  interrupt "$sig" "$waiter"
  status=0
  wait "$waiter" || status=$?
  if [ "$sig" = INT ]; then [ "$status" = 130 ]; else [ "$status" = 143 ]; fi
done
