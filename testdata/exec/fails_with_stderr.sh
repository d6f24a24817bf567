#!/bin/sh
# mailroom testdata: every real op fails with exit 1 and a message on stderr.
case ${1:-} in
  ensure-running | capabilities) exit 2 ;;
esac
echo "something went wrong" >&2
exit 1
