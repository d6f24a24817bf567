#!/usr/bin/env bash
# integration/wake_failure.sh: a wake command that fails (exit 3) or hangs (sleep 60) never fails
# or holds up the send: the send returns at once with its `Sent message` line, and the failure is
# in `team --json` (wake_failed, the outcome and its reason); the hanging one is killed at 10 s
. "$(dirname "$0")/common.sh"
workspace alice bob carol
until_true() { # CMD: every 0.2 s until it succeeds, at most 20 s
  for _ in $(seq 1 100); do
    if "$@"; then return 0; fi
    sleep 0.2
  done
  echo "until_true: $* never held" >&2
  return 1
}
wake_of() { mailroom --json team | jq -c --arg m "$1" '.mailboxes[] | select(.mailbox == $m) | [.wake.outcome, .wake_failed, .wake.reason]'; }

mailroom agents set bob --wake sh -c 'exit 3' > /dev/null
mailroom --as alice send bob --urgent "disk full" > "$t/sent"
grep -q '^Sent message ' "$t/sent"
bob_failed() { [ "$(wake_of bob)" = '["failed",true,"exit status 3"]' ]; }
until_true bob_failed
mailroom team | grep -q '^wake: bob -> sh -c exit 3, last failed .* (exit status 3)$'

# A command that hangs: the send is back long before the wake's 10 s limit ends it.
mailroom agents set carol --wake sleep 60 > /dev/null
start=$(date +%s)
mailroom --as alice send carol --type task_request "review PR 7" > "$t/sent"
[ $(($(date +%s) - start)) -lt 5 ]
grep -q '^Sent message ' "$t/sent"
carol_failed() { [ "$(wake_of carol | jq -r '.[0]')" = failed ]; }
until_true carol_failed
wake_of carol | jq -e '.[1] == true and (.[2] | test("timed out"))' > /dev/null
