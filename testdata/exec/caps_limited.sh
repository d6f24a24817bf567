#!/bin/sh
# mailroom testdata: declares only inbox and count through `capabilities`, and answers exit 2 to
# everything else (check included). Records every call in $MAILROOM_EXEC_STATE/calls so a test can
# see when ops it left out are no longer spawned once its answer is known.
printf '%s\n' "$*" >> "${MAILROOM_EXEC_STATE:-.}/calls"
case ${1:-} in
  capabilities) printf '{"protocol":1,"ops":["inbox","count"]}\n' ;;
  count) printf '{"total":0,"unread":0}' ;;
  inbox) ;;
  *) exit 2 ;;
esac
