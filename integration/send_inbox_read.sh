#!/usr/bin/env bash
# integration/send_inbox_read.sh: send, inbox lists it, read shows it and marks it read, peek still works
. "$(dirname "$0")/common.sh"
workspace mayor
{
  mailroom send mayor "Fix the auth bug"
  mailroom --as mayor inbox
  id=$(mailroom --json --as mayor inbox | jq -r '.messages[0].id')
  mailroom --as mayor read "$id"
  mailroom --as mayor inbox
  mailroom --as mayor peek "$id"
  mailroom --as mayor read "$id" > /dev/null
  mailroom --as mayor count
} > "$t/out"
expect_golden "$t/out"
