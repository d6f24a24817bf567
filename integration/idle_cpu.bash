#!/usr/bin/env bash
# integration/idle_cpu.bash: sourced (after common.sh) by waiters_idle_cpu.sh and
# postgres_waiters_idle_cpu.sh, with mailboxes alice, bob and worker on the store under test.
#
#   idle_waiters_check   an idle `watch --exec`, `wait` and `send --wait-reply` side by side use
#                        (almost) no CPU: together under 10% of a core over 2 s, from
#                        /proc/PID/stat (a waiter that wakes itself or another spins a core)

# cpu_ticks PID: user + system clock ticks the process used so far.
cpu_ticks() {
  # Fields after the command name (which may hold spaces): utime and stime are 14 and 15.
  local stat
  stat=$(cat "/proc/$1/stat")
  stat=${stat##*) }
  awk '{ print $12 + $13 }' <<< "$stat"
}

idle_waiters_check() {
  [ -r /proc/self/stat ] || skip "no /proc"
  if [ "${MAILROOM_SANITIZED:-0}" = 1 ]; then skip "sanitizers inflate CPU time"; fi
  "$MAILROOM" --as worker watch --exec true > /dev/null 2> "$t/idle.watch.err" &
  local watch=$!
  "$MAILROOM" --as bob wait --type cron_task > /dev/null 2> "$t/idle.wait.err" &
  local wait_pid=$!
  "$MAILROOM" --as alice send worker --type notification -s "idle" -m x > /dev/null
  "$MAILROOM" --as alice send bob --type task_request -s "never answered" -m q --wait-reply \
    > /dev/null 2> "$t/idle.ask.err" &
  local ask=$!
  sleep 1 # started, handled the notification, and idle
  local pids=("$watch" "$wait_pid" "$ask") before=() after=() i
  for i in "${!pids[@]}"; do before[$i]=$(cpu_ticks "${pids[$i]}"); done
  sleep 2
  for i in "${!pids[@]}"; do after[$i]=$(cpu_ticks "${pids[$i]}"); done
  kill "${pids[@]}"
  wait "${pids[@]}" 2> /dev/null || true
  local used=0 names=(watch wait send-wait-reply)
  for i in "${!pids[@]}"; do
    echo "idle ${names[$i]}: $((after[i] - before[i])) ticks in 2 s" >&2
    used=$((used + after[i] - before[i]))
  done
  local hz
  hz=$(getconf CLK_TCK)
  # 10% of a core over 2 s.
  [ "$used" -lt "$((hz / 5))" ]
}

#   idle_subscribed_mcp_check   an idle `mcp` (alice) with a legacy subscription and a 2026-07-28
#                        listen on its inbox, after one notification, stays under 1% of a core
#                        over 4 s: its one watcher sleeps on the store's change signal
idle_subscribed_mcp_check() {
  [ -r /proc/self/stat ] || skip "no /proc"
  if [ "${MAILROOM_SANITIZED:-0}" = 1 ]; then skip "sanitizers inflate CPU time"; fi
  coproc MCP { exec "$MAILROOM" --as alice mcp 2> "$t/idle.mcp.err"; }
  local pid=$MCP_PID line
  printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"mailroom://inbox"}}' >&"${MCP[1]}"
  IFS= read -r -t 20 line <&"${MCP[0]}"
  [[ $line == *'"id":1'* && $line == *'"result":{}'* ]] || { echo "subscribe answered: $line" >&2; return 1; }
  printf '%s\n' '{"jsonrpc":"2.0","id":"l","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"notifications":{"resourceSubscriptions":["mailroom://inbox"]}}}' >&"${MCP[1]}"
  IFS= read -r -t 20 line <&"${MCP[0]}"
  [[ $line == *'subscriptions/acknowledged'* ]] || { echo "listen answered: $line" >&2; return 1; }
  "$MAILROOM" --as bob send alice -s "to the subscribed" -m x > /dev/null
  IFS= read -r -t 20 line <&"${MCP[0]}"
  [[ $line == *'resources/updated'* ]] || { echo "expected a notification: $line" >&2; return 1; }
  IFS= read -r -t 20 line <&"${MCP[0]}"
  [[ $line == *'resources/updated'* ]] || { echo "expected a notification: $line" >&2; return 1; }
  sleep 1
  local before after hz
  before=$(cpu_ticks "$pid")
  sleep 4
  after=$(cpu_ticks "$pid")
  exec {MCP[1]}>&-
  wait "$pid" 2> /dev/null || true
  hz=$(getconf CLK_TCK)
  echo "idle subscribed mcp: $((after - before)) ticks in 4 s" >&2
  # Under 1% of a core over 4 s.
  [ "$((after - before))" -lt "$((hz * 4 / 100))" ]
}
