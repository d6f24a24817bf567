#!/bin/sh
# mailroom testdata: records each call for assertions and answers with fixed messages.
# In $MAILROOM_EXEC_STATE: `calls` gets one line per call (its arguments), `stdin.<op>` the bytes
# read from stdin, `identity` the MAILROOM_IDENTITY it saw. ensure-running and capabilities exit 2.
dir=${MAILROOM_EXEC_STATE:-.}
op=${1:-}
printf '%s\n' "$*" >> "$dir/calls"
cat > "$dir/stdin.$op"
printf '%s' "${MAILROOM_IDENTITY:-}" > "$dir/identity"
case $op in
  ensure-running | capabilities) exit 2 ;;
  send | reply | get | read)
    to=bob
    [ "$op" = send ] && to=${2:-}
    printf '{"id":"gc-1","from":"alice","to":"%s","subject":"Greetings","body":"hello world","created_at":"2025-06-15T10:30:00Z","read":false,"thread_id":"thread-0123456789ab","extra":{"ignored":[1,2]}}\n' "$to"
    ;;
  inbox | check | all | thread)
    printf '[{"id":"gc-3","from":"c","to":["bob"],"subject":"late","created_at":"2025-06-15T12:30:00.250+02:00"},'
    printf '{"id":"gc-2","from":"b","to":"bob","subject":"urgent","created_at":"2025-06-15T11:00:00Z","priority":0},'
    printf '{"id":"gc-1","from":"a","to":"bob","subject":"early","created_at":"2025-06-15T10:30:00Z","cc":["carol"]}]\n'
    ;;
  count) printf '{"total":3,"unread":1}\n' ;;
  *) ;;
esac
