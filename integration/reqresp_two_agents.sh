#!/usr/bin/env bash
# integration/reqresp_two_agents.sh: a requester asks with send --wait-reply, a worker answers
# through watch --exec; the reply is typed, threaded, traced and acks the request; a request
# nobody answers times out (exit 1) and stays sent, and wait --reply-to picks up a late reply.
. "$(dirname "$0")/common.sh"
mailroom agents add requester worker > /dev/null

"$MAILROOM" --as worker watch --type task_request --exec tr a-z A-Z > "$t/watch.out" 2> "$t/watch.err" &
watcher=$!
stop_watcher() { kill -TERM "$watcher" 2> /dev/null || true; }
trap 'stop_watcher' EXIT

mailroom --as requester send worker --type task_request --wait-reply --timeout 30s \
  -s "shout" -m "shout this" > "$t/reply.out" 2> "$t/reply.err"
grep -q '^Body:     SHOUT THIS$' "$t/reply.out"
grep -q '^Type:     task_response$' "$t/reply.out"
grep -q '^Subject:  Re: shout$' "$t/reply.out"
request=$(sed -n 's/^In-Reply-To: *//p' "$t/reply.out")
grep -q "^Sent message $request to worker; waiting for a reply$" "$t/reply.err"
# The reply was read by send --wait-reply; the request is read and acked by the worker.
[ "$(mailroom --as requester --json count | jq .unread)" = 0 ]
mailroom --as worker --json peek "$request" | jq -e '.message.read == true and .message.ack_state == "acked"' > /dev/null

# JSON: the send object plus the reply.
mailroom --as requester --json send worker --type task_request --wait-reply --timeout 30s "json please" > "$t/reply.json"
jq -e '.ok and (.id | startswith("mr-")) and .recipients == ["worker"] and .timed_out == false
       and .reply.body == "JSON PLEASE" and .reply.type == "task_response" and .reply.reply_to == .id' \
  "$t/reply.json" > /dev/null

# The trace: the reply is a child of the request.
mailroom --as requester --json trace "$request" > "$t/trace.json"
jq -e '(.messages | length) == 2 and .messages[1].parent_span_id == .messages[0].span_id' "$t/trace.json" > /dev/null
mailroom --as requester trace "$request" > "$t/trace.out"
grep -q "requester → worker  task_request  shout" "$t/trace.out"
grep -q "└─ .*worker → requester  task_response  Re: shout  +" "$t/trace.out"

# A plain message expects no reply: watch (task_request only) never takes it; the wait times out.
expect_exit 1 mailroom --as requester send worker --wait-reply --timeout 300ms "anyone?" 2> "$t/timeout.err"
late=$(sed -n 's/^Sent message \(mr-[0-9a-f]*\) to worker.*/\1/p' "$t/timeout.err")
grep -q "timed out waiting for a reply to $late; the message stays sent" "$t/timeout.err"
grep -q "mailroom wait --reply-to $late" "$t/timeout.err"
mailroom --as worker reply "$late" "sorry, late" > /dev/null
mailroom --as requester wait --reply-to "$late" --timeout 10s > "$t/late.out"
grep -q '^Body:     sorry, late$' "$t/late.out"

# SIGTERM ends the watcher with 143.
trap - EXIT
kill -TERM "$watcher"
status=0
wait "$watcher" || status=$?
[ "$status" = 143 ]
[ "$(grep -c '^Done ' "$t/watch.out")" = 2 ]
