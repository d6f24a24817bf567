#!/usr/bin/env bash
# integration/malformed_config.sh: bad keys, values and syntax fail with file:line:column, exit 2
. "$(dirname "$0")/common.sh"
printf '[mail]\nprovder = "beads"\n' > mailroom.toml
expect_exit 2 mailroom inbox 2> "$t/err"
printf '[store]\nbusy_timeout_ms = "soon"\n' > mailroom.toml
expect_exit 2 mailroom count 2>> "$t/err"
printf '[mail\n' > mailroom.toml
expect_exit 2 mailroom check 2>> "$t/err"
# A misspelt table gets a did-you-mean too.
printf '[stor]\npath = "x.db"\n' > mailroom.toml
expect_exit 2 mailroom count 2> "$t/stor"
grep -qx 'hint: did you mean "\[store\]"?' "$t/stor"
expect_golden "$t/err" err
