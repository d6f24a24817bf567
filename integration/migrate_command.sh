#!/usr/bin/env bash
# integration/migrate_command.sh: a store written by an earlier release (testdata/stores/v1.db),
# whose upgrade rewrites every message, is refused by every command but `migrate` and `init` (exit
# 5, "run 'mailroom migrate'", the file unchanged), the hook stays silent with exit 0, and after
# `mailroom migrate` everything works and a second migrate changes nothing.
. "$(dirname "$0")/common.sh"
cp "$MAILROOM_TESTDATA/stores/v1.db" "$MAILROOM_DB"
before=$(sha256sum < "$MAILROOM_DB")
for command in "--as mayor inbox" "--as mayor count" "--as mayor send polecat hi" "agents"; do
  # shellcheck disable=SC2086
  expect_exit 5 mailroom $command 2> "$t/err"
  grep -q "has schema version 1; this mailroom needs" "$t/err" || { cat "$t/err" >&2; exit 1; }
  grep -qx "hint: run 'mailroom migrate'" "$t/err"
done
mailroom --json --as mayor count 2> "$t/json" > /dev/null || true
[ "$(jq -r .error.reason "$t/json")" = needs_migrate ]
# The hook: nothing on stdout, exit 0, in both spellings it is installed with.
out=$(mailroom --as mayor check --inject 2> /dev/null)
[ -z "$out" ]
out=$(echo '{}' | mailroom --as mayor check --hook-format claude 2> /dev/null)
[ -z "$out" ]
[ "$(sha256sum < "$MAILROOM_DB")" = "$before" ]

mailroom migrate > "$t/out"
grep -q "is at this mailroom's schema" "$t/out"
mailroom --as mayor count | grep -q 'unread for mayor'
mailroom --as polecat inbox --all > /dev/null
mailroom --json migrate | jq -e '.ok == true' > /dev/null
mailroom --as polecat check --inject | grep -q '^You have'
