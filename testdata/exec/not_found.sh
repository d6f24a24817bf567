#!/bin/sh
# mailroom testdata: every real op reports the gc not-found marker for its argument.
case ${1:-} in
  ensure-running | capabilities) exit 2 ;;
esac
printf 'gc-mail-error:not-found: message "%s" not found\n' "${2:-}" >&2
exit 1
