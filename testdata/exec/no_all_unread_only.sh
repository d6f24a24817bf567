#!/bin/sh
# mailroom testdata: a gc script without `all` (exit 2) whose open messages are all unread, so
# inbox --all is exactly `inbox` (checked against `count`). Every call is recorded in
# $MAILROOM_EXEC_STATE/calls.
printf '%s\n' "$*" >> "${MAILROOM_EXEC_STATE:-.}/calls"
case ${1:-} in
  count) printf '{"total":1,"unread":1}\n' ;;
  inbox | check)
    printf '[{"id":"gc-2","from":"alice","to":"bob","subject":"","body":"unread one","created_at":"2025-06-15T10:30:00Z"}]\n'
    ;;
  *) exit 2 ;;
esac
