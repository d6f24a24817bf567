#!/usr/bin/env bash
# integration/thread_unknown.sh: an unknown thread id prints "No messages in thread <id>" and exits 3
# (exit 0 under [compat] gc)
. "$(dirname "$0")/common.sh"
workspace
expect_exit 3 mailroom thread nope > "$t/out"
expect_golden "$t/out"
# Under [compat] gc an empty thread is gc's answer: the same words, exit 0.
if grep -q '^gc = false' mailroom.toml; then
  sed -i 's/^gc = false/gc = true/' mailroom.toml
else
  printf '\n[compat]\ngc = true\n' >> mailroom.toml
fi
[ "$(mailroom thread nope)" = "No messages in thread nope" ]
[ "$(mailroom --json thread nope | jq '.messages | length')" = 0 ]
