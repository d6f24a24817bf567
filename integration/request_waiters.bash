#!/usr/bin/env bash
# integration/request_waiters.bash: sourced (after common.sh, with a store in place and lead and
# worker registered) by request_waiters.sh and postgres_request_waiters.sh. Two waiters on one
# request — `send --wait-reply` (the sender's own) and `wait --reply-to` beside it — end at once,
# far from their timeout, with the outcome of the answer that is not a reply:
#   waiter_checks

# start_request NAME: lead sends a task_request to worker and waits for its reply in the
# background (JSON in $t/NAME.send, its pid in $t/NAME.pids), and a second process waits for a
# reply to the same request (JSON in $t/NAME.wait). Sets $id to the request's id. (Not run in a
# $(…): the waiters must be this shell's children.)
start_request() {
  local name=$1
  id=""
  "$MAILROOM" --json --as lead send worker --type task_request --wait-reply --timeout 60s \
    -s "$name" -m "please" > "$t/$name.send" 2> /dev/null &
  echo $! > "$t/$name.pids"
  for _ in $(seq 1 200); do
    id=$(mailroom --json --as worker inbox | jq -r --arg s "$name" '.messages[] | select(.subject == $s) | .id')
    [ -n "$id" ] && break
    sleep 0.05
  done
  [ -n "$id" ]
  "$MAILROOM" --json --as lead wait --reply-to "$id" --timeout 60s > "$t/$name.wait" 2> /dev/null &
  echo $! >> "$t/$name.pids"
  sleep 0.3 # both are waiting now (a wait that starts later finds the answer at once anyway)
}

# end_within NAME OUTCOME TYPE: both waiters of NAME ended, exit 1, within 5 s, with OUTCOME and a
# notice of TYPE.
end_within() {
  local name=$1 outcome=$2 type=$3 started=$SECONDS pid status
  for pid in $(cat "$t/$name.pids"); do
    status=0
    wait "$pid" || status=$?
    [ "$status" = 1 ] || { echo "$name: a waiter exited $status" >&2; return 1; }
  done
  [ $((SECONDS - started)) -lt 5 ]
  for f in "$t/$name.send" "$t/$name.wait"; do
    jq -e --arg o "$outcome" --arg ty "$type" \
      '.outcome == $o and .timed_out == false and .notice.type == $ty' "$f" > /dev/null \
      || { echo "$name: $(cat "$f")" >&2; return 1; }
  done
  jq -e '.reply == null' "$t/$name.send" > /dev/null
  jq -e '.message == null' "$t/$name.wait" > /dev/null
}

waiter_checks() {
  local id
  start_request declined
  mailroom --as worker decline "$id" --reason "not my area" > /dev/null
  end_within declined rejected declined
  jq -e '.notice.body == "not my area"' "$t/declined.wait" > /dev/null

  start_request failing
  mailroom --as worker fail "$id" --reason "disk full" > /dev/null
  end_within failing failed failed

  start_request question
  mailroom --as worker ask "$id" "which branch?" > /dev/null
  end_within question input_required input_required
  # As text, the question and the reply that answers it.
  local question
  question=$(jq -r .notice.id "$t/question.wait")
  expect_exit 1 mailroom --as lead wait --reply-to "$id" --timeout 5s > "$t/question.out" 2> "$t/question.err"
  grep -q 'which branch?' "$t/question.out"
  grep -q "hint: answer the question with: mailroom reply $question <answer>" "$t/question.err"
  # Answered: the wait goes on, and the real reply ends it as replied.
  mailroom --as lead reply "$question" "main" > /dev/null
  mailroom --json --as lead status "$id" | jq -e '.recipients[0].request_state == "working"' > /dev/null
  mailroom --as worker reply "$id" "built from main" > /dev/null
  mailroom --json --as lead wait --reply-to "$id" --timeout 5s | jq -e '.outcome == "replied"' > /dev/null

  start_request withdrawn
  mailroom --as lead cancel "$id" > /dev/null
  end_within withdrawn canceled canceled
}
