#!/bin/sh
# mailroom testdata: like gc's MCP bridge, `get` prints a message without a `read` key, and
# mark-read, mark-unread and archive succeed silently. The read state is unknown to mailroom, so
# every change must reach the script. Every call is recorded in $MAILROOM_EXEC_STATE/calls.
printf '%s\n' "$*" >> "${MAILROOM_EXEC_STATE:-.}/calls"
case ${1:-} in
  get)
    printf '{"id":"%s","from":"alice","to":"bob","subject":"Greetings","body":"hello","created_at":"2025-06-15T10:30:00Z","thread_id":"thread-0123456789ab"}\n' "${2:-}"
    ;;
  mark-read | mark-unread | archive | delete) ;;
  *) exit 2 ;;
esac
