#!/bin/sh
# mailroom testdata: declares only inbox and count through `capabilities`; records every call in
# $MAILROOM_EXEC_STATE/calls so a test can see that undeclared ops were never spawned.
printf '%s\n' "$*" >> "${MAILROOM_EXEC_STATE:-.}/calls"
case ${1:-} in
  capabilities) printf '{"protocol":1,"ops":["inbox","count"]}\n' ;;
  count) printf '{"total":0,"unread":0}' ;;
esac
exit 0
