#!/bin/sh
# mailroom testdata: `all` lists two open messages without `read` keys; `inbox` lists one of them,
# so the other is the read one. Every call is recorded in $MAILROOM_EXEC_STATE/calls.
printf '%s\n' "$*" >> "${MAILROOM_EXEC_STATE:-.}/calls"
case ${1:-} in
  all)
    printf '[{"id":"gc-1","from":"alice","to":"bob","subject":"","body":"seen","created_at":"2025-06-15T10:30:00Z"},'
    printf '{"id":"gc-2","from":"alice","to":"bob","subject":"","body":"new","created_at":"2025-06-15T10:31:00Z"}]\n'
    ;;
  inbox)
    printf '[{"id":"gc-2","from":"alice","to":"bob","subject":"","body":"new","created_at":"2025-06-15T10:31:00Z"}]\n'
    ;;
  *) exit 2 ;;
esac
