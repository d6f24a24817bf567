#!/usr/bin/env bash
# integration/watch_poison.sh: a poison message whose handler kills its watcher (kill -9 $PPID)
# ends set aside and escalated: attempts are counted when a message is claimed, so once the
# watchers that died used --max-attempts of them, the next watcher sets the delivery aside
# instead of running the handler again, however the earlier attempts ended.
. "$(dirname "$0")/common.sh"
mailroom agents add lead worker > /dev/null
id=$(send_id --as lead worker --type task_request -s poison -m q)
cat > "$t/poison.sh" <<'SH'
#!/bin/sh
echo "ran $MAILROOM_ID" >> "$T/log"
kill -9 "$PPID"
exit 1
SH
chmod +x "$t/poison.sh"
export T="$t"
for attempt in 1 2 3; do
  status=0
  mailroom --as worker --json watch --once --lease 1s --exec "$t/poison.sh" > "$t/run$attempt.out" || status=$?
  [ "$status" = 137 ] # the handler killed its watcher
  jq -e --argjson n "$attempt" '.event == "claimed" and .attempt == $n and .max_attempts == 3' \
    "$t/run$attempt.out" > /dev/null
  sleep 1.1 # the dead watcher's lease runs out
done
[ "$(grep -c "^ran $id$" "$t/log")" = 3 ]
# The fourth watcher does not run it: it sets it aside and escalates to the sender.
mailroom --as worker --json watch --once --lease 1s --exec "$t/poison.sh" > "$t/run4.out"
[ "$(grep -c "^ran $id$" "$t/log")" = 3 ]
jq -s -e --arg id "$id" 'length == 1 and .[0].event == "set_aside" and .[0].id == $id and .[0].attempts == 3
  and (.[0].escalation_id | type) == "string" and .[0].escalated_to == ["lead"]' "$t/run4.out" > /dev/null
escalation=$(jq -r .escalation_id "$t/run4.out")
mailroom --as lead --json read "$escalation" > "$t/escalation.json"
jq -e --arg id "$id" '.message.type == "escalation" and .message.from == "mailroom"
  and (.message.subject | contains("watch gave up on " + $id + " for worker after 3 attempts"))
  and (.message.body | contains("without a result"))' "$t/escalation.json" > /dev/null
# Set aside stays unread and is never claimed again, until mark-unread gives it its attempts back.
mailroom --as worker --json peek "$id" | jq -e '.message.read == false' > /dev/null
mailroom --as worker watch --once --exec "$t/poison.sh" > "$t/run5.out"
[ ! -s "$t/run5.out" ]
[ "$(grep -c "^ran $id$" "$t/log")" = 3 ]
mailroom --as worker mark-unread "$id" > /dev/null
mailroom --as worker --json watch --once --exec sh -c 'cat > /dev/null; echo fixed' > "$t/run6.out"
jq -s -e '.[0].event == "claimed" and .[0].attempt == 1 and (map(.event) | index("done")) != null' \
  "$t/run6.out" > /dev/null
