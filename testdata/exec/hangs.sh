#!/bin/sh
# mailroom testdata: every real op hangs. It starts a grandchild first and records its pid in
# $MAILROOM_EXEC_STATE/grandchild.pid, so a test can prove the whole process group was killed.
case ${1:-} in
  ensure-running | capabilities) exit 2 ;;
esac
sleep 60 &
printf '%s' "$!" > "${MAILROOM_EXEC_STATE:-.}/grandchild.pid"
sleep 60
