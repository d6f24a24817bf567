#!/usr/bin/env bash
# integration/unknown_flag.sh: unknown flags, commands and extra arguments are exit 2 with one line
. "$(dirname "$0")/common.sh"
workspace
{
  mailroom inbox --bogus || echo "exit $?"
  mailroom inbx || echo "exit $?"
  mailroom count a b || echo "exit $?"
} > "$t/out" 2>&1
expect_golden "$t/out"
