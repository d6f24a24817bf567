#!/usr/bin/env bash
# integration/hook_ensure_running.sh: an exec script's `ensure-running` starts a service that
# later commands use; it is left running when the script exits, and when a hook's time budget ends
# the hook while `ensure-running` is still starting it, it finishes detached instead of being
# killed (issue #29 item 3). The hook itself still ends at its budget, exit 0, nothing on stdout.
. "$(dirname "$0")/common.sh"
testdata=${MAILROOM_TESTDATA:-$integration_dir/../testdata}
script="$testdata/exec/ensure_starts_service.sh"
export MAILROOM_EXEC_STATE="$t/state"
mkdir -p "$MAILROOM_EXEC_STATE"
printf '[mail]\nprovider = "exec:%s"\n[exec]\ntimeout_ms = 60000\n' "$script" > "$t/exec.toml"
service_alive() { [ -f "$t/state/service.pid" ] && kill -0 "$(cat "$t/state/service.pid")" 2> /dev/null; }

# ensure-running takes 5 s to start the service; the hook's budget is 300 ms. `timeout 4` turns a
# hook that waited for the script into exit 124.
status=0
ENSURE_SECONDS=5 timeout 4 "$MAILROOM" --config "$t/exec.toml" --as bob check --inject --budget 300ms \
  > "$t/out" 2> "$t/err" < /dev/null || status=$?
[ "$status" -eq 0 ]
[ ! -s "$t/out" ]
[ "$(wc -l < "$t/err")" -eq 1 ]
grep -q "time budget of 300ms" "$t/err"
# The interrupted ensure-running finishes its work, detached.
for _ in $(seq 200); do
  [ -f "$t/state/started" ] && break
  sleep 0.1
done
[ -f "$t/state/started" ]
service_alive

# A command whose ensure-running exits normally leaves the service it started running too.
kill "$(cat "$t/state/service.pid")"
rm -f "$t/state/service.pid" "$t/state/started"
out=$(mailroom --config "$t/exec.toml" --as bob check --inject)
grep -q "service mail" <<< "$out"
[ -f "$t/state/started" ]
service_alive
kill "$(cat "$t/state/service.pid")"
