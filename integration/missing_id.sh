#!/usr/bin/env bash
# integration/missing_id.sh: id commands without an id say gc's "missing message ID", exit 2
. "$(dirname "$0")/common.sh"
workspace
for cmd in read peek archive unarchive delete mark-read mark-unread status reply; do
  mailroom "$cmd" 2>> "$t/err" || echo "exit $?" >> "$t/err"
done
mailroom thread 2>> "$t/err" || echo "exit $?" >> "$t/err"
expect_golden "$t/err" err
