#!/usr/bin/env bash
# integration/help_no_store.sh: --help and --version never read the config nor create a store
. "$(dirname "$0")/common.sh"
printf 'not = toml = at all\n' > mailroom.toml
expect_exit 0 mailroom --help > /dev/null
expect_exit 0 mailroom send --help > "$t/out"
grep -q '^Examples:' "$t/out"
expect_exit 0 mailroom --version
for cmd in send inbox read peek reply archive unarchive delete mark-read mark-unread thread count check status init config agents; do
  mailroom "$cmd" --help | grep -q 'mailroom' || { echo "no help for $cmd" >&2; exit 1; }
done
[ ! -e .mailroom ] && [ ! -e "$XDG_DATA_HOME/mailroom" ]
