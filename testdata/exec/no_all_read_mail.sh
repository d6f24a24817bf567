#!/bin/sh
# mailroom testdata: a gc script without `all` (exit 2) whose mailbox holds a read message besides
# the unread one `inbox` lists, so inbox --all cannot be composed: it must be unsupported, never
# the unread list passed off as all. Every call is recorded in $MAILROOM_EXEC_STATE/calls.
printf '%s\n' "$*" >> "${MAILROOM_EXEC_STATE:-.}/calls"
case ${1:-} in
  count) printf '{"total":2,"unread":1}\n' ;;
  inbox | check)
    printf '[{"id":"gc-2","from":"alice","to":"bob","subject":"","body":"unread one","created_at":"2025-06-15T10:30:00Z"}]\n'
    ;;
  *) exit 2 ;;
esac
