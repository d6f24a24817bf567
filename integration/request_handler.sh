#!/usr/bin/env bash
# integration/request_handler.sh: a watch handler answers requests itself with MAILROOM_ID (decline,
# ask, fail): watch then sends no reply, does not retry, releases the claim and reports declined,
# asked or failed; an asked request is taken again once its sender answers the question; a handler
# that keeps failing leaves the request failed (set aside). And the verbs' refusals on the command
# line: exit 4 not_sender / not_recipient, exit 2 for a message that expects no reply.
. "$(dirname "$0")/common.sh"
mailroom agents add lead worker other > /dev/null
export MAILROOM

# The handler: declines "refuse", fails "broken", asks about "unclear" until the thread has an
# answer (then replies with it), and exits 0 after each (watch must not send its output).
cat > "$t/handler.sh" <<'SH'
#!/bin/sh
case "$MAILROOM_SUBJECT" in
  refuse) "$MAILROOM" decline "$MAILROOM_ID" --reason "not my area" > /dev/null ;;
  broken) "$MAILROOM" fail "$MAILROOM_ID" --reason "disk full" > /dev/null ;;
  unclear)
    answer=$("$MAILROOM" --json thread "$MAILROOM_ID" | jq -r '[.messages[] | select(.from == "lead" and .reply_to != null)] | last | .body // empty')
    if [ -z "$answer" ]; then
      "$MAILROOM" ask "$MAILROOM_ID" "which branch?" > /dev/null
    else
      echo "built $answer"
    fi ;;
esac
echo "output watch must not send"
SH
chmod +x "$t/handler.sh"
refuse=$(send_id --as lead worker --type task_request -s refuse -m x)
broken=$(send_id --as lead worker --type task_request -s broken -m x)
unclear=$(send_id --as lead worker --type task_request -s unclear -m x)
mailroom --as worker --json watch --once --exec "$t/handler.sh" > "$t/first.events"
jq -s -e --arg r "$refuse" --arg b "$broken" --arg u "$unclear" '
  (map(select(.event == "declined")) | map(.id)) == [$r]
  and (map(select(.event == "failed")) | map(.id)) == [$b]
  and (map(select(.event == "asked")) | map(.id)) == [$u]
  and all(.event != "replied" and .event != "done" and .event != "set_aside")' "$t/first.events" > /dev/null
state() { mailroom --json --as lead status "$1" | jq -r '.recipients[0].request_state'; }
[ "$(state "$refuse")" = rejected ]
[ "$(state "$broken")" = failed ]
[ "$(state "$unclear")" = input_required ]
# lead got the three notices and no reply.
mailroom --json --as lead inbox | jq -e '[.messages[].type] | sort == ["declined", "failed", "input_required"]' > /dev/null
# Not retried: nothing is claimable until lead answers the question.
mailroom --as worker --json watch --once --exec "$t/handler.sh" > "$t/idle.events"
[ ! -s "$t/idle.events" ]
question=$(mailroom --json --as lead inbox --type input_required | jq -r '.messages[0].id')
mailroom --as lead reply "$question" "main" > /dev/null
[ "$(state "$unclear")" = working ]
mailroom --as worker --json watch --once --exec "$t/handler.sh" > "$t/second.events"
jq -s -e --arg u "$unclear" 'map(select(.event == "replied")) | length == 1 and .[0].id == $u' "$t/second.events" > /dev/null
[ "$(state "$unclear")" = completed ]
mailroom --json --as lead wait --reply-to "$unclear" --timeout 5s | jq -e '.outcome == "replied" and .message.body == "built main\noutput watch must not send"' > /dev/null

# A handler that fails its last attempt leaves the request failed (set aside).
failing=$(send_id --as lead worker --type task_request -s crash -m x)
mailroom --as worker --json watch --once --max-attempts 1 --exec false > "$t/crash.events"
jq -s -e 'map(select(.event == "set_aside")) | length == 1' "$t/crash.events" > /dev/null
[ "$(state "$failing")" = failed ]
mailroom --as worker mark-unread "$failing" > /dev/null
[ "$(state "$failing")" = submitted ]

# Refusals: not the sender, not a recipient, no reply expected; nothing is sent.
plain=$(send_id --as lead worker -s fyi -m x)
open=$(send_id --as lead worker --type task_request -s open -m x)
expect_exit 4 mailroom --json --as other cancel "$open" 2> "$t/err"
jq -e '.error.code == "not_sender" and .error.exit_code == 4' "$t/err" > /dev/null
expect_exit 4 mailroom --json --as other decline "$open" 2> "$t/err"
jq -e '.error.code == "not_recipient"' "$t/err" > /dev/null
expect_exit 2 mailroom --as worker decline "$plain" 2> "$t/err"
grep -q "expects no reply" "$t/err"
expect_exit 2 mailroom --as lead cancel "$plain"
expect_exit 2 mailroom --as worker ask "$open"
expect_exit 4 mailroom --as worker fail "$refuse" 2> "$t/err" # already rejected
grep -q "already rejected" "$t/err"
[ "$(state "$open")" = submitted ]
# An operator acts as the sender with --for, and --to withdraws one delivery.
mailroom --as other cancel "$open" --for lead --to worker 2> "$t/acting" > "$t/canceled"
grep -q "acting for lead" "$t/acting"
grep -q "^Canceled $open for worker; sent notice mr-" "$t/canceled"
[ "$(state "$open")" = canceled ]
