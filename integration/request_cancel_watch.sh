#!/usr/bin/env bash
# integration/request_cancel_watch.sh: a sender's cancel reaches a watcher running the request's
# handler at once (the store's change signal): the handler's process group gets SIGTERM, then
# SIGKILL after --cancel-grace, the claim is released, the event is `canceled`, and no reply is
# ever sent, even by a handler that prints an answer and exits 0 when told to stop.
. "$(dirname "$0")/common.sh"
mailroom agents add lead worker > /dev/null
export T="$t"

# The handler would work for 30 s; on SIGTERM it prints an answer and exits 0 (which, for a request
# still open, would have been sent as the reply).
cat > "$t/obliging.sh" <<'SH'
#!/bin/sh
trap 'echo "half done"; exit 0' TERM
echo started >> "$T/obliging.log"
sleep 30 &
wait
SH
# This one ignores SIGTERM, as do its children: only the SIGKILL after the grace stops it.
cat > "$t/stubborn.sh" <<'SH'
#!/bin/sh
trap '' TERM
echo started >> "$T/stubborn.log"
sleep 30
SH
chmod +x "$t/obliging.sh" "$t/stubborn.sh"

# wait_for FILE: until FILE exists (at most 10 s).
wait_for() {
  for _ in $(seq 1 200); do [ -s "$1" ] && return 0; sleep 0.05; done
  echo "wait_for: no $1" >&2
  return 1
}

# run_case HANDLER GRACE LIMIT: a request, its handler started, canceled; the watcher reports
# `canceled` within LIMIT seconds of the cancel.
run_case() {
  local handler=$1 grace=$2 limit=$3 id started took
  id=$(send_id --as lead worker --type task_request -s "long job" -m "take your time")
  "$MAILROOM" --as worker --json watch --type task_request --cancel-grace "$grace" --exec "$t/$handler.sh" > "$t/$handler.events" &
  local watcher=$!
  wait_for "$t/$handler.log"
  started=$(date +%s%N)
  mailroom --as lead cancel "$id" --reason "not needed" > "$t/$handler.cancel"
  for _ in $(seq 1 400); do
    grep -q '"event":"canceled"' "$t/$handler.events" && break
    sleep 0.025
  done
  took=$((($(date +%s%N) - started) / 1000000))
  interrupt TERM "$watcher"
  wait "$watcher" || true
  jq -s -e --arg id "$id" 'map(select(.event == "canceled")) | length == 1 and .[0].id == $id' "$t/$handler.events" > /dev/null
  jq -s -e --arg id "$id" 'map(select(.id == $id)) | all(.event != "replied" and .event != "done" and .event != "failed")' "$t/$handler.events" > /dev/null
  [ "$took" -lt "$limit" ] || { echo "$handler stopped after $took ms (limit $limit ms)" >&2; return 1; }
  # No reply was sent: lead has the request's notices only (none: lead canceled it), and the
  # request's state is canceled for worker.
  mailroom --json --as lead status "$id" | jq -e '.recipients[0].request_state == "canceled"' > /dev/null
  mailroom --json --as lead thread "$id" | jq -e '[.messages[] | select(.from == "worker")] | length == 0' > /dev/null
  # The claim is gone, and the attempt was given back.
  mailroom --json --as lead status "$id" | jq -e '.recipients[0].claim == null and .recipients[0].handler_attempts == 0' > /dev/null
  echo "$took" > "$t/$handler.took"
}

run_case obliging 10s 3000
grep -q '^Canceled mr-.* for worker; sent notice mr-' "$t/obliging.cancel"
# SIGKILL comes after the grace (1 s here), not before, and not long after.
run_case stubborn 1s 4000
[ "$(cat "$t/stubborn.took")" -ge 900 ]
