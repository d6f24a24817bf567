#!/bin/sh
# mailroom testdata: archive and delete say the message was already archived; the rest exit 2.
case ${1:-} in
  archive | delete)
    echo "error: already archived" >&2
    exit 1
    ;;
esac
exit 2
