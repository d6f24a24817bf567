#!/usr/bin/env bash
# integration/wait_idle_cpu.sh: a wait that has nothing to wait for costs (almost) nothing: over
# 5 s it uses under 2% of one core (user + system time from /usr/bin/time, process start included).
. "$(dirname "$0")/common.sh"
[ -x /usr/bin/time ] || skip "/usr/bin/time is not installed"
if [ "${MAILROOM_SANITIZED:-0}" = 1 ]; then skip "sanitizers inflate CPU time"; fi
mailroom agents add alice bob > /dev/null
status=0
/usr/bin/time -f '%e %U %S' -o "$t/time" "$MAILROOM" --as bob wait --timeout 5s || status=$?
[ "$status" = 1 ]
read -r elapsed user sys < <(tail -n 1 "$t/time") # the last line: time adds "Command exited with non-zero status 1" before it
echo "idle wait: ${elapsed}s elapsed, ${user}s user, ${sys}s system" >&2
awk -v u="$user" -v s="$sys" 'BEGIN { exit !((u + s) < 0.1) }'
