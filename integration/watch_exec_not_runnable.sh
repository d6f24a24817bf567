#!/usr/bin/env bash
# integration/watch_exec_not_runnable.sh: a handler that cannot be executed is exit 2 before
# anything is claimed; watch on the exec provider is unsupported (exit 5).
. "$(dirname "$0")/common.sh"
mailroom agents add boss worker > /dev/null
id=$(send_id --as boss worker "job")
expect_exit 2 mailroom --as worker watch --once --exec "$t/missing-handler" 2> "$t/err"
grep -q "cannot run \"$t/missing-handler\": not found or not executable" "$t/err"
touch "$t/not-executable"
expect_exit 2 mailroom --as worker watch --once --exec "$t/not-executable"
expect_exit 2 mailroom --as worker watch --once
# Never claimed: the next watcher takes it at once, as its first attempt.
mailroom --as worker --json watch --once --exec true | jq -s -e --arg id "$id" \
  '.[0].id == $id and .[0].attempt == 1' > /dev/null

# The exec provider: the script protocol has no claims, so watch is unsupported; wait works (it
# polls the script).
: "${MAILROOM_TESTDATA:?set MAILROOM_TESTDATA to the testdata directory}"
command -v flock > /dev/null || exit 0
export MAILROOM_PROVIDER="exec:$MAILROOM_TESTDATA/exec/stateful.sh"
export MAILROOM_EXEC_STATE="$t/state"
mkdir -p "$MAILROOM_EXEC_STATE"
expect_exit 5 mailroom --as worker watch --once --exec true 2> "$t/exec.err"
grep -q "watch needs claims" "$t/exec.err"
mailroom --as boss send worker "over the script" > /dev/null
mailroom --as worker wait --timeout 5s > "$t/exec-wait.out"
grep -q '^Body:     over the script$' "$t/exec-wait.out"
