#!/usr/bin/env bash
# integration/watch_kill9.sh: a watcher killed with SIGKILL mid-handler loses nothing: while its
# lease holds nobody else takes the message; after the lease another watcher processes it.
. "$(dirname "$0")/common.sh"
mailroom agents add boss worker > /dev/null
id=$(send_id --as boss worker --type task_request "long job")
cat > "$t/slow.sh" <<'SH'
#!/bin/sh
echo "$$" > "$T/handler.pid"
echo "first $MAILROOM_ID" >> "$T/log"
exec sleep 60
SH
chmod +x "$t/slow.sh"
export T="$t"
"$MAILROOM" --as worker watch --lease 2s --exec "$t/slow.sh" > /dev/null 2>&1 &
watcher=$!
for _ in $(seq 1 200); do [ -s "$t/handler.pid" ] && break; sleep 0.05; done
[ -s "$t/handler.pid" ]
kill -9 "$watcher"
wait "$watcher" || true
# The handler runs in its own process group and outlives the watcher; stop it too.
kill -9 -- "-$(cat "$t/handler.pid")" 2> /dev/null || true

# While the lease holds, another watcher finds nothing to claim.
mailroom --as worker watch --once --exec sh -c 'echo "early $MAILROOM_ID" >> "$T/log"' > "$t/early.out"
[ ! -s "$t/early.out" ]
# After the lease, the message is processed again, its earlier attempt counted.
sleep 2.2
mailroom --as worker --json watch --once --exec sh -c 'echo "second $MAILROOM_ID" >> "$T/log"; echo ok' \
  > "$t/second.out"
jq -s -e '.[0].event == "claimed" and .[0].attempt == 2 and (map(.event) | index("done")) != null' \
  "$t/second.out" > /dev/null
grep -q "^second $id$" "$t/log"
! grep -q "^early" "$t/log"
mailroom --as worker --json peek "$id" | jq -e '.message.read and .message.ack_state == "acked"' > /dev/null
mailroom --as boss --json wait --reply-to "$id" --timeout 5s | jq -e '.message.body == "ok"' > /dev/null
