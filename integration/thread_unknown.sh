#!/usr/bin/env bash
# integration/thread_unknown.sh: an unknown thread id prints "No messages in thread <id>" and exits 3
. "$(dirname "$0")/common.sh"
workspace
expect_exit 3 mailroom thread nope > "$t/out"
expect_golden "$t/out"
