#!/usr/bin/env bash
# Request/response figures (docs/request-response.md): prints markdown rows.
#   R1 wake latency: from the end of a `send` (its commit) to the waiting `wait` (plain: it leaves
#      the message unread, so no write of its own is timed) exiting, p50/p95
#      over BENCH_WAKE_RUNS runs (goal: p50 <= 5 ms, p95 <= 20 ms). Times are taken with bash's
#      $EPOCHREALTIME (no process spawned to read the clock); the same measurement around a child
#      that has already exited is the baseline subtracted.
#   R2 round trip: `send --type task_request --wait-reply` against a `watch --exec cat` peer, p50,
#      with a plain `send` of the same message in the same run as the ratio's baseline.
#   R3 watch throughput: a no-op handler (`true`) over BENCH_WATCH_MESSAGES queued messages, one
#      and two watchers, messages per second; baseline: spawning `true` that many times.
#   R5 a request set aside: `send --type task_request --wait-reply --timeout 30s` against a `watch
#      --max-attempts 1 --exec false` peer ends when the watcher sets it aside (exit 1, outcome
#      set_aside), p50/p95, with a plain `send` as the ratio's baseline (goal: p95 <= 1 s, where
#      the wait used to run out its 30 s timeout).
#   R4 CPU of an idle `wait` over 10 s (user + system, process start included; goal < 2% of a core).
#   R6 CPU of an idle `watch --exec` and an idle `wait` side by side on one store over 10 s (both
#      processes' user + system, starts included; goal < 1% of a core): nothing a waiter does to the
#      store may wake itself or the other.
# Usage: testdata/bench/reqresp.sh <mailroom binary>
# Env: BENCH_WAKE_RUNS (200), BENCH_RUNS (100), BENCH_WATCH_MESSAGES (500), BENCH_IDLE_SECONDS (10).
set -euo pipefail

mailroom=$(realpath "$1")
wake_runs=${BENCH_WAKE_RUNS:-200}
runs=${BENCH_RUNS:-100}
messages=${BENCH_WATCH_MESSAGES:-500}
idle=${BENCH_IDLE_SECONDS:-10}
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-bench-reqresp.XXXXXX")
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2> /dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
for tool in hyperfine jq awk; do
  command -v "$tool" > /dev/null || { echo "bench: $tool is required" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is required" >&2; exit 2; }

export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share"
unset MAILROOM_IDENTITY MAILROOM_CONFIG GC_ALIAS GC_AGENT GC_SESSION_ID TRACEPARENT
mkdir -p "$HOME" "$work/ws"
cd "$work/ws"
"$mailroom" init > /dev/null
"$mailroom" agents add alice bob worker > /dev/null

# usec: $EPOCHREALTIME (seconds.micros) as integer microseconds.
usec() { local t=${EPOCHREALTIME/[.,]/}; echo "$((10#$t))"; }
# percentile FILE P: the P-th percentile (0..1) of the numbers in FILE, one per line.
percentile() { sort -n "$1" | awk -v p="$2" '{ v[NR] = $1 } END { i = int(NR * p); if (i < 1) i = 1; printf "%.2f", v[i] }'; }
stats() {
  jq -r --argjson i "$2" '.results[$i].times | sort | map(. * 1000) as $t | ($t | length) as $n
    | [$t[($n * 0.50 | floor)], $t[($n * 0.95 | floor)]] | map(. * 100 | round / 100) | @tsv' "$1"
}
row() { printf '| %s | %s | %s | %s |\n' "$@"; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
verdict() { if le "$1" "$2"; then echo met; else echo missed; fi; }

echo "| id | figure | value | goal / verdict |"
echo "|---|---|---|---|"

# --- R1: wake latency ---------------------------------------------------------------------------
: > "$work/base.txt"
for _ in $(seq 1 20); do
  true & pid=$!
  sleep 0.01
  t0=$(usec); wait "$pid"; t1=$(usec)
  echo "$(((t1 - t0)))" >> "$work/base.txt"
done
base=$(percentile "$work/base.txt" 0.5)
: > "$work/wake.txt"
for _ in $(seq 1 "$wake_runs"); do
  # Plain `wait` (it shows the message and leaves it unread): `--read` would add a durable write
  # of its own to the figure, which is not waking. The message is marked read outside the timing.
  "$mailroom" --as bob wait --timeout 10s > /dev/null &
  pid=$!
  sleep 0.05 # let it start and arm its signal
  "$mailroom" --as alice send bob "ping" > /dev/null
  t0=$(usec)
  wait "$pid"
  t1=$(usec)
  awk -v d="$((t1 - t0))" -v b="$base" 'BEGIN { v = (d - b) / 1000; printf "%.3f\n", (v < 0 ? 0 : v) }' >> "$work/wake.txt"
  "$mailroom" --as bob mark-read --all > /dev/null
done
p50=$(percentile "$work/wake.txt" 0.5)
p95=$(percentile "$work/wake.txt" 0.95)
row R1 "wake latency, send commit to wait exit, p50 ($wake_runs runs)" "$p50 ms" "<= 5 ms: $(verdict "$p50" 5)"
row R1 "wake latency, p95" "$p95 ms" "<= 20 ms: $(verdict "$p95" 20)"

# --- R2: request/response round trip -----------------------------------------------------------
"$mailroom" --as worker watch --type task_request --exec cat > /dev/null 2>&1 &
pids+=($!)
sleep 0.2
hyperfine -N --warmup 5 --runs "$runs" --export-json "$work/r2.json" \
  "$mailroom --as alice send worker --type notification ping" \
  "$mailroom --as alice send worker --type task_request --wait-reply --timeout 10s ping" > /dev/null 2>&1
read -r send_p50 _ < <(stats "$work/r2.json" 0)
read -r rt_p50 rt_p95 < <(stats "$work/r2.json" 1)
row R2 "round trip send --wait-reply vs watch --exec cat, p50 / p95" "$rt_p50 ms / $rt_p95 ms" \
  "$(awk -v a="$rt_p50" -v b="$send_p50" 'BEGIN { printf "%.1fx a plain send (%s ms)", a / b, b }')"
kill -TERM "${pids[@]}"; wait "${pids[@]}" 2> /dev/null || true; pids=()
"$mailroom" --as alice mark-read --all > /dev/null
"$mailroom" --as worker mark-read --all > /dev/null

# --- R5: a request set aside ends the wait ------------------------------------------------------
"$mailroom" --as worker watch --type task_request --max-attempts 1 --exec false > /dev/null 2>&1 &
pids+=($!)
sleep 0.2
hyperfine -N -i --warmup 2 --runs "$runs" --export-json "$work/r5.json" \
  "$mailroom --as alice send worker --type notification ping" \
  "$mailroom --as alice send worker --type task_request --wait-reply --timeout 30s ping" > /dev/null 2>&1
read -r send_p50 _ < <(stats "$work/r5.json" 0)
read -r aside_p50 aside_p95 < <(stats "$work/r5.json" 1)
row R5 "send --wait-reply ended by a set-aside (watch --max-attempts 1 --exec false), p50 / p95" \
  "$aside_p50 ms / $aside_p95 ms" \
  "$(awk -v a="$aside_p50" -v b="$send_p50" 'BEGIN { printf "%.1fx a plain send (%s ms); p95 <= 1000 ms of a 30 s timeout: ", a / b, b }')$(verdict "$aside_p95" 1000)"
kill -TERM "${pids[@]}"; wait "${pids[@]}" 2> /dev/null || true; pids=()
"$mailroom" --as alice mark-read --all > /dev/null
"$mailroom" --as worker mark-read --all > /dev/null

# --- R3: watch throughput -----------------------------------------------------------------------
queue() {
  for i in $(seq 1 "$messages"); do echo "job $i"; done | while read -r body; do
    "$mailroom" --as alice send worker "$body" > /dev/null
  done
}
t0=$(usec)
for _ in $(seq 1 "$messages"); do /bin/true; done
t1=$(usec)
spawn_rate=$(awk -v n="$messages" -v d="$((t1 - t0))" 'BEGIN { printf "%.0f", n / (d / 1e6) }')
for watchers in 1 2; do
  queue
  t0=$(usec)
  for _ in $(seq 1 "$watchers"); do
    "$mailroom" --as worker watch --once --exec true > /dev/null &
    pids+=($!)
  done
  wait "${pids[@]}"
  pids=()
  t1=$(usec)
  left=$("$mailroom" --as worker --json count | jq .unread)
  rate=$(awk -v n="$messages" -v d="$((t1 - t0))" 'BEGIN { printf "%.0f", n / (d / 1e6) }')
  row R3 "watch throughput, no-op handler, $watchers watcher(s), $messages messages" "$rate msg/s" \
    "spawning true alone: $spawn_rate/s; left unread: $left"
done

# --- R4: idle wait CPU --------------------------------------------------------------------------
/usr/bin/time -f '%e %U %S' -o "$work/idle.time" "$mailroom" --as bob wait --timeout "${idle}s" > /dev/null || true
read -r elapsed user sys < <(tail -n 1 "$work/idle.time") # the last line: a failing command adds one before it
pct=$(awk -v u="$user" -v s="$sys" -v e="$elapsed" 'BEGIN { printf "%.2f", 100 * (u + s) / e }')
row R4 "idle wait CPU over ${idle}s (user ${user}s + sys ${sys}s)" "$pct% of a core" "< 2%: $(verdict "$pct" 2)"

# --- R6: an idle watch and an idle wait side by side ---------------------------------------------
/usr/bin/time -f '%e %U %S' -o "$work/pair.watch.time" timeout -s TERM "${idle}s" \
  "$mailroom" --as worker watch --exec true > /dev/null 2>&1 &
watch_pid=$!
/usr/bin/time -f '%e %U %S' -o "$work/pair.wait.time" "$mailroom" --as bob wait --timeout "${idle}s" > /dev/null || true
wait "$watch_pid" || true
read -r w_elapsed w_user w_sys < <(tail -n 1 "$work/pair.watch.time")
read -r elapsed user sys < <(tail -n 1 "$work/pair.wait.time")
pct=$(awk -v a="$w_user" -v b="$w_sys" -v c="$user" -v d="$sys" -v e="$elapsed" -v f="$w_elapsed" \
  'BEGIN { if (f > e) e = f; printf "%.2f", 100 * (a + b + c + d) / e }')
row R6 "idle watch --exec + wait over ${idle}s (watch ${w_user}s + ${w_sys}s, wait ${user}s + ${sys}s)" \
  "$pct% of a core" "< 1%: $(verdict "$pct" 1)"
