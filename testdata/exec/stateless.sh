#!/bin/sh
# mailroom testdata: stateless stub that only lists (docs/exec-protocol.md, "Operations a script may leave out").
case "${1:-}" in
  inbox | check | all | thread) exit 0 ;; # nothing to list
  count) printf '{"total":0,"unread":0}' ;;
  *) exit 2 ;;                             # unknown or unsupported op
esac
