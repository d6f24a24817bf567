#!/usr/bin/env bash
# integration/bare_mailroom.sh: no command prints the command list on stderr and exits 2
. "$(dirname "$0")/common.sh"
expect_exit 2 mailroom > "$t/out" 2> "$t/err"
[ ! -s "$t/out" ]
expect_golden "$t/err" err
