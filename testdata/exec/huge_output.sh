#!/bin/sh
# mailroom testdata: every real op prints without end (past any output cap).
case ${1:-} in
  ensure-running | capabilities) exit 2 ;;
esac
exec yes '{"id":"x","from":"a","to":"b","subject":"s","body":"b"}'
