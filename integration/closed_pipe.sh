#!/usr/bin/env bash
# integration/closed_pipe.sh: a reader that goes away ends a command that changed nothing with
# exit 0 and no message; a command that stored something still says so (exit 5)
. "$(dirname "$0")/common.sh"
workspace alice bob
for i in $(seq 1 60); do mailroom --as alice send bob "message $i" > /dev/null; done
# The contract's example.
mailroom --as bob inbox --no-limit | head -1 > "$t/first"
[ "${PIPESTATUS[0]}" = 0 ]
grep -q '^ID ' "$t/first"
# The reader is gone before mailroom writes: EPIPE for certain.
status=0
{ sleep 0.3; mailroom --as bob inbox --no-limit 2> "$t/err" || status=$?; echo "$status" > "$t/status"; } | true
sleep 0.1
[ "$(cat "$t/status")" = 0 ]
[ ! -s "$t/err" ]
{ sleep 0.3; mailroom --as bob --json inbox 2> "$t/err" || status=$?; echo "$status" > "$t/status"; } | true
[ "$(cat "$t/status")" = 0 ]
[ ! -s "$t/err" ]
# A send that stored its message keeps exit 5 and names the id.
{ sleep 0.3; mailroom --as alice send bob "late" 2> "$t/err" || status=$?; echo "$status" > "$t/status"; } | true
[ "$(cat "$t/status")" = 5 ]
grep -q '^mailroom send: stored mr-[0-9a-f]* but cannot write to standard output' "$t/err"
[ "$(mailroom --json --as bob count | jq .total)" = 61 ]
