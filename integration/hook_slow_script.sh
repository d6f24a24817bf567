#!/usr/bin/env bash
# integration/hook_slow_script.sh: the hook through a slow exec script (contract "Gas City, round
# 4"; docs/exec-protocol.md "The hook through a slow script"). The script's `check` takes 3 s and
# the hook's budget is 1 s: the first hook ever is silent (exit 0, the budget's line on stderr)
# and starts a detached refresh; once that refresh has kept the answer, a hook answers within its
# budget from it, marked `(as of N s ago)`; at most one refresh runs at a time; the answer is a
# 0600 file under $XDG_CACHE_HOME/mailroom/hook/; a script that answers in time gets a fresh,
# unmarked reminder.
. "$(dirname "$0")/common.sh"
: "${MAILROOM_TESTDATA:?set MAILROOM_TESTDATA to the testdata directory}"
command -v jq > /dev/null || skip "jq not installed"
command -v flock > /dev/null || skip "flock (util-linux) not installed"
unset MAILROOM_DB
export MAILROOM_EXEC_STATE="$t/state" RUNS_LOG="$t/runs"
mkdir -p "$MAILROOM_EXEC_STATE"
slow=3
[ "${MAILROOM_SANITIZED:-0}" != 1 ] || slow=6
# A shim that makes `check` slow (the seconds in $t/check-seconds) and logs when each starts and ends.
cat > "$t/slow-script" << SHIM
#!/bin/sh
if [ "\$1" = check ]; then
  echo "start \$(date +%s.%N)" >> "\$RUNS_LOG"
  sleep "\$(cat '$t/check-seconds')"
  "$MAILROOM_TESTDATA/exec/stateful.sh" "\$@"
  status=\$?
  echo "end \$(date +%s.%N)" >> "\$RUNS_LOG"
  exit \$status
fi
exec "$MAILROOM_TESTDATA/exec/stateful.sh" "\$@"
SHIM
chmod +x "$t/slow-script"
echo "$slow" > "$t/check-seconds"
printf '[mail]\nprovider = "exec:%s/slow-script"\n' "$t" > mailroom.toml
mailroom --as alice send bob -s "Deploy" -m "Can you deploy after lunch?" > "$t/sent"
id=$(sed -nE 's/^Sent message ([^ ]+) to bob$/\1/p' "$t/sent")

# hook: one `check --inject` as bob; its wall time (ms) in $t/ms, stdout in $t/out, stderr in $t/err.
hook() {
  local start end
  start=$(date +%s%N)
  "$MAILROOM" --as bob check --inject --budget 1s > "$t/out" 2> "$t/err" < /dev/null
  end=$(date +%s%N)
  echo $(((end - start) / 1000000)) > "$t/ms"
}
within_budget() {
  local limit=1500
  [ "${MAILROOM_SANITIZED:-0}" != 1 ] || limit=4000
  [ "$(cat "$t/ms")" -le "$limit" ] || { echo "the hook took $(cat "$t/ms") ms" >&2; return 1; }
}

# The first hook ever: nothing kept yet, so silent, within its budget.
hook
within_budget
[ ! -s "$t/out" ]
grep -q "time budget of 1s" "$t/err"
# The refresh it started keeps the answer once the script has answered.
cache="$XDG_CACHE_HOME/mailroom/hook"
for _ in $(seq 1 $((slow * 20 + 100))); do
  [ -n "$(ls "$cache"/*.json 2> /dev/null)" ] && break
  sleep 0.1
done
answer=$(ls "$cache"/*.json)
[ "$(stat -c %a "$answer")" = 600 ]
[ "$(stat -c %a "$cache")" = 700 ]
grep -q "^end " "$RUNS_LOG"

# Now the hook answers within its budget from what was kept, marked with its age.
sleep 1
hook
within_budget
grep -qx '<system-reminder>' "$t/out"
grep -qE '^\(as of [0-9]+ s ago\)$' "$t/out"
grep -qx -- "- $id from alice \[Deploy\]: Can you deploy after lunch?" "$t/out"
[ ! -s "$t/err" ]

# Hooks in a row start at most one refresh at a time: no `check` starts while another runs.
hook
hook
for _ in $(seq 1 $((slow * 20 + 100))); do
  [ "$(grep -c '^start' "$RUNS_LOG")" = "$(grep -c '^end' "$RUNS_LOG")" ] && break
  sleep 0.1
done
awk '$1 == "start" { if (running) { bad = 1 } running = 1 } $1 == "end" { running = 0 } END { exit bad }' "$RUNS_LOG"
[ "$(grep -c '^start' "$RUNS_LOG")" -le 3 ]

# A script that answers in time: the fresh answer, no age.
echo 0 > "$t/check-seconds"
mailroom --as alice send bob -s "Second" -m "and another" > /dev/null
hook
grep -q "You have 2 unread message(s)" "$t/out"
not grep -q 'as of' "$t/out"
grep -q 'from alice \[Second\]: and another' "$t/out"
