#!/usr/bin/env bash
# Schedules (docs/schedules.md), in run.sh's conventions: ratios to baselines measured in the same
# run, markdown rows on stdout.
#   SC1 `check` on a store holding 10,000 schedules vs the same store without them   <= 1.02x
#       (the hook never reads schedules; alternating rounds, p50 of each)
#   SC2 `schedule run-due` firing 1,000 due slots vs 1,000 sends from one process    <= 2x
#       (the sends: `send` tool calls over one `mailroom mcp` session; each the median of 3)
#   SC3 an idle `schedule run-due --loop 1s` over 10 s: user + system / elapsed        < 1% of a core
# Usage: testdata/bench/schedules.sh <mailroom binary> [<seed binary>]
# Env: BENCH_RUNS (default 300), BENCH_OUT, BENCH_SCHEDULES (10000), BENCH_FIRINGS (1000),
#      BENCH_IDLE_SECONDS (10).
set -euo pipefail

mailroom=$(realpath "$1")
seed=$(realpath "${2:-$(dirname "$1")/mailroom-bench-seed}")
here=$(cd "$(dirname "$0")" && pwd)
runs=${BENCH_RUNS:-300}
schedules=${BENCH_SCHEDULES:-10000}
firings=${BENCH_FIRINGS:-1000}
idle=${BENCH_IDLE_SECONDS:-10}
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-bench-schedules.XXXXXX")
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
unset MAILROOM_IDENTITY MAILROOM_CONFIG MAILROOM_DB GC_ALIAS GC_AGENT GC_SESSION_ID TRACEPARENT
mkdir -p "$HOME"

row() { printf '| %s | %s | %s | %s |\n' "$@"; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
verdict() { if le "$1" "$2"; then echo met; else echo missed; fi; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }
p50_of() { jq -r --argjson i "$2" '.results[$i].times | sort | .[(length * 0.5 | floor)] * 1000' "$1"; }
median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] }'; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# schedules_export N OWNER TO NEXT_AT PREFIX: an export of N hourly schedules (next slot NEXT_AT).
schedules_export() {
  jq -nc --argjson n "$1" --arg from "$2" --arg to "$3" --arg next "$4" --arg p "$5" '
    {kind: "header", schema_version: 1, exported_at: "2026-01-01T00:00:00.000Z", store: "bench"},
    (range($n) as $i | {kind: "schedule", id: "sch-\($p)\($i)", from: $from, name: "\($p)\($i)",
      created_at: "2026-01-01T00:00:00.000Z", created_by: $from, rule_kind: "every", at: null,
      every_ms: 3600000, anchor: $next, cron: null, tz: "UTC", start: null, until: null,
      catch_up: "latest", overlap: "send", to: [$to], cc: [], subject: "s\($i)", body: "due",
      priority: 2, type: "cron_task", ack: false, ttl_ms: null, notify: false, idempotency_key: null,
      next_at: $next, paused_at: null, ended_at: null, end_reason: null, last_run_now: null,
      escalated: false, last_slot: null, last_kind: null})'
}

echo "| id | figure | value | goal / verdict |"
echo "|---|---|---|---|"

# --- SC1: check with 10,000 schedules vs none -----------------------------------------------------
"$seed" --db "$work/plain.db" --messages 10000 --mailboxes 100 --unread 0.1 --body-bytes 400 > /dev/null
cp "$work/plain.db" "$work/scheduled.db"
schedules_export "$schedules" agent-001 agent-007 "2099-01-01T00:00:00.000Z" b > "$work/sc1.jsonl"
"$mailroom" --db "$work/scheduled.db" import "$work/sc1.jsonl" > /dev/null
plain="$mailroom --db $work/plain.db --as agent-007 check"
scheduled="$mailroom --db $work/scheduled.db --as agent-007 check"
: > "$work/sc1.plain"
: > "$work/sc1.scheduled"
for round in 1 2 3 4 5; do
  hyperfine -N -i --warmup 10 --runs $((runs / 5)) --export-json "$work/sc1.$round.json" "$plain" "$scheduled" > /dev/null 2>&1
  jq -r '.results[0].times[] * 1000' "$work/sc1.$round.json" >> "$work/sc1.plain"
  jq -r '.results[1].times[] * 1000' "$work/sc1.$round.json" >> "$work/sc1.scheduled"
done
a=$(median < "$work/sc1.scheduled")
b=$(median < "$work/sc1.plain")
r=$(ratio "$a" "$b")
row SC1 "check p50 with $schedules stored schedules vs none ($a vs $b ms)" "${r}x" "<= 1.02x: $(verdict "$r" 1.02)"

# --- SC2: run-due firing 1,000 due slots vs 1,000 sends over one MCP session ----------------------
fresh() {
  rm -rf "$work/ws"
  mkdir -p "$work/ws"
  (cd "$work/ws" && "$mailroom" init > /dev/null && "$mailroom" agents add alice bob > /dev/null)
}
send_call='{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"send","arguments":{"to":"bob","subject":"sID","body":"due"}}}'
: > "$work/sc2.fire"
: > "$work/sc2.send"
past=$(date -u -d @$(($(date +%s) - 1)) +%Y-%m-%dT%H:%M:%S.000Z)
for _ in 1 2 3; do
  fresh
  schedules_export "$firings" alice bob "$past" f > "$work/sc2.jsonl"
  (cd "$work/ws" && "$mailroom" import "$work/sc2.jsonl" > /dev/null)
  t0=$(now_ms)
  (cd "$work/ws" && "$mailroom" schedule run-due > /dev/null)
  t1=$(now_ms)
  echo $((t1 - t0)) >> "$work/sc2.fire"
  [ "$(cd "$work/ws" && "$mailroom" --as bob --json count | jq .unread)" = "$firings" ] ||
    { echo "bench: run-due did not fire $firings slots" >&2; exit 1; }

  fresh
  cd "$work/ws"
  coproc MCP { MAILROOM_IDENTITY=alice exec "$mailroom" mcp 2> /dev/null; }
  printf '%s\n' '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}' >&"${MCP[1]}"
  IFS= read -r _ <&"${MCP[0]}"
  t0=$(now_ms)
  for ((i = 1; i <= firings; i++)); do
    printf '%s\n' "${send_call//ID/$i}" >&"${MCP[1]}"
    IFS= read -r line <&"${MCP[0]}"
  done
  t1=$(now_ms)
  [[ $line == *'"ok":true'* ]] || { echo "bench: unexpected answer: $line" >&2; exit 1; }
  exec {MCP[1]}>&-
  wait "$MCP_PID" 2> /dev/null || true
  cd "$work"
  echo $((t1 - t0)) >> "$work/sc2.send"
done
fire=$(median < "$work/sc2.fire")
send=$(median < "$work/sc2.send")
r=$(ratio "$fire" "$send")
row SC2 "run-due firing $firings due slots vs $firings sends over one MCP session ($fire vs $send ms)" "${r}x" \
  "<= 2x: $(verdict "$r" 2)"

# --- SC3: an idle firer's loop ------------------------------------------------------------------
fresh
schedules_export 100 alice bob "2099-01-01T00:00:00.000Z" i > "$work/sc3.jsonl"
(cd "$work/ws" && "$mailroom" import "$work/sc3.jsonl" > /dev/null)
(cd "$work/ws" && /usr/bin/time -f '%e %U %S' -o "$work/idle.time" timeout -s TERM "${idle}s" \
  "$mailroom" schedule run-due --loop 1s > /dev/null) || true
read -r elapsed user sys < <(tail -n 1 "$work/idle.time")
pct=$(awk -v u="$user" -v s="$sys" -v e="$elapsed" 'BEGIN { printf "%.2f", 100 * (u + s) / e }')
row SC3 "idle schedule run-due --loop 1s over ${idle}s, 100 schedules not due (user ${user}s + sys ${sys}s)" \
  "$pct% of a core" "< 1%: $(verdict "$pct" 1)"
