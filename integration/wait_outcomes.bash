#!/usr/bin/env bash
# integration/wait_outcomes.bash: sourced (after common.sh, with a store in place and lead, worker
# and other registered) by wait_outcomes.sh and postgres_wait_outcomes.sh. Waiting ends when the
# answer is known, on the store in use:
#   outcome_checks

outcome_checks() {
  local limit=60 request started took
  # A worker whose handler always fails: watch sets the request aside after one attempt and
  # escalates to the sender. send --wait-reply then ends at once with set_aside, far from its
  # timeout.
  "$MAILROOM" --as worker watch --type task_request --max-attempts 1 --exec false > "$t/watch.out" 2>&1 &
  local watcher=$!
  started=$SECONDS
  expect_exit 1 mailroom --json --as lead send worker --type task_request --wait-reply --timeout "${limit}s" \
    -s "build it" -m "make" > "$t/reply.json"
  took=$((SECONDS - started))
  interrupt TERM "$watcher"
  wait "$watcher" || true
  jq -e '.outcome == "set_aside" and .timed_out == false and .reply == null' "$t/reply.json" > /dev/null
  jq -e '.notice.type == "escalation" and .notice.from == "mailroom"' "$t/reply.json" > /dev/null
  [ "$took" -lt "$limit" ]
  request=$(jq -r .id "$t/reply.json")
  # Text: one stderr line saying why, and wait --reply-to says the same at once.
  expect_exit 1 mailroom --as lead wait --reply-to "$request" --timeout "${limit}s" 2> "$t/err"
  grep -q "no reply will come to $request: it was set aside" "$t/err"

  # Expired: ends at once too.
  request=$(mailroom --json --as lead send other --type task_request --ttl 1s -s "soon" -m "x" | jq -r .id)
  sleep 1.1
  expect_exit 1 mailroom --json --as lead wait --reply-to "$request" --timeout "${limit}s" > "$t/expired.json"
  jq -e '.outcome == "expired" and .notice == null and .message == null' "$t/expired.json" > /dev/null

  # A reply: replied, the reply as notice.
  request=$(mailroom --json --as lead send other --type task_request -s "q" -m "?" | jq -r .id)
  mailroom --as other reply "$request" "answer" > /dev/null
  mailroom --json --as lead wait --reply-to "$request" --timeout 5s > "$t/replied.json"
  jq -e '.outcome == "replied" and .notice.id == .message.id' "$t/replied.json" > /dev/null

  # --after: a cursor. A loop passing the last id on sees each new message once, in arrival order.
  local first second third got
  first=$(mailroom --json --as lead send other -s one -m 1 | jq -r .id)
  second=$(mailroom --json --as lead send other -s two -m 2 | jq -r .id)
  third=$(mailroom --json --as lead send other --urgent -s three -m 3 | jq -r .id)
  got=$(mailroom --json --as other wait --after "$first" --timeout 5s | jq -r .message.id)
  [ "$got" = "$second" ]
  got=$(mailroom --json --as other wait --after "$got" --timeout 5s | jq -r .message.id)
  [ "$got" = "$third" ]
  expect_exit 1 mailroom --json --as other wait --after "$got" --timeout 1s > "$t/none.json"
  jq -e '.outcome == "timed_out" and .timed_out == true' "$t/none.json" > /dev/null
  # --since: only what is newer (the filters' syntax).
  expect_exit 1 mailroom --as other wait --since "$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)" --timeout 1s
  mailroom --json --as other wait --since 1h --timeout 1s | jq -e '.outcome == "found"' > /dev/null
}
