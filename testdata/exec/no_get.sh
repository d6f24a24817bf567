#!/bin/sh
# mailroom testdata: a gc script without `get` (exit 2); `read` and `reply` answer with a message
# from alice to bob. Every call is recorded in $MAILROOM_EXEC_STATE/calls.
printf '%s\n' "$*" >> "${MAILROOM_EXEC_STATE:-.}/calls"
case ${1:-} in
  read | reply)
    cat > /dev/null
    printf '{"id":"gc-1","from":"alice","to":"bob","subject":"s","body":"b","created_at":"2025-06-15T10:30:00Z"}\n'
    ;;
  *) exit 2 ;;
esac
