#!/bin/sh
# mailroom testdata: the reference script (stateful.sh) behind a log: every call's argv goes to
# $MAILROOM_EXEC_STATE/calls first, so a test can count runs. With MAILROOM_TEST_NO_DELETE=1,
# `delete` exits 2, as a script without it does.
printf '%s\n' "$*" >> "${MAILROOM_EXEC_STATE:?}/calls"
if [ "$1" = delete ] && [ "${MAILROOM_TEST_NO_DELETE:-}" = 1 ]; then
  exit 2
fi
exec "$(dirname "$0")/stateful.sh" "$@"
