#!/bin/sh
# mailroom testdata: a script whose ensure-running succeeds (it has something to start), so it runs
# before the first op of every command, as under gc. Answers count; records every call in
# $MAILROOM_EXEC_STATE/calls.
printf '%s\n' "$*" >> "${MAILROOM_EXEC_STATE:-.}/calls"
case ${1:-} in
  ensure-running) ;;
  count) printf '{"total":0,"unread":0}\n' ;;
  *) exit 2 ;;
esac
