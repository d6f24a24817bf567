#!/usr/bin/env bash
# integration/health_exec_unsupported.sh: the exec provider cannot track acks: ack, peers, team, sweep
# and send --ack answer unsupported (exit 5), never a silent success
. "$(dirname "$0")/common.sh"
: "${MAILROOM_TESTDATA:?set MAILROOM_TESTDATA to the testdata directory}"
command -v flock > /dev/null || skip "flock (util-linux) not installed"
export MAILROOM_PROVIDER="exec:$MAILROOM_TESTDATA/exec/stateful.sh"
export MAILROOM_EXEC_STATE="$t/state"
mkdir -p "$MAILROOM_EXEC_STATE"
id=$(mailroom --as alice --json send bob "hello" | jq -r .id)
expect_exit 5 mailroom --as bob ack "$id" 2> "$t/err"
grep -q 'does not support "ack"' "$t/err"
expect_exit 5 mailroom --as alice peers
expect_exit 5 mailroom sweep
expect_exit 5 mailroom team 2> "$t/err"
grep -q 'team is not supported by this provider' "$t/err"
expect_exit 5 mailroom sweep --dry-run
expect_exit 5 mailroom --as alice send bob "x" --ack
mailroom --as alice --json peers 2> "$t/err" || true
jq -e '.error.code == "unsupported" and .error.exit_code == 5' "$t/err" > /dev/null
