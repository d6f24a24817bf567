#!/bin/sh
# mailroom testdata: a script whose ensure-running starts a "service" (a background sleep in its
# own process group, as a shell script naturally does) and records its pid in
# $MAILROOM_EXEC_STATE/service.pid, then takes $ENSURE_SECONDS (default 0) to finish starting,
# and writes $MAILROOM_EXEC_STATE/started when done. check and count answer one unread message.
state=${MAILROOM_EXEC_STATE:-.}
case ${1:-} in
  ensure-running)
    if [ ! -f "$state/service.pid" ]; then
      sleep 60 < /dev/null > /dev/null 2>&1 &
      printf '%s' "$!" > "$state/service.pid"
    fi
    sleep "${ENSURE_SECONDS:-0}"
    : > "$state/started"
    ;;
  check | inbox)
    printf '[{"id":"gc-1","from":"lead","to":"%s","subject":"svc","body":"service mail","created_at":"2026-11-26T10:00:00Z","read":false,"thread_id":"thread-1"}]\n' "${2:-}"
    ;;
  count) printf '{"total":1,"unread":1}\n' ;;
  *) exit 2 ;;
esac
