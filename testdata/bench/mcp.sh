#!/usr/bin/env bash
# The MCP server (docs/mcp.md), in run.sh's conventions: ratios to a baseline measured in the same
# run, markdown rows on stdout (and $BENCH_OUT/mcp.md).
#   M1  a `count` tool call over an open session   vs `mailroom count` as a process   <= 0.2x
#   M2  spawn to the `initialize` answer (and exit) vs `mailroom --version`           <= 2x
#   M3  resident memory after 10,000 calls          vs after 1,000                     <= 1.05x
# M1 and M3 drive one `mailroom mcp` from bash (a coprocess: a line out, a line back), so the
# session's figure includes bash's own reading and writing.
# Usage: testdata/bench/mcp.sh <mailroom binary>
# Env: BENCH_RUNS (default 100), BENCH_OUT, BENCH_MCP_CALLS (default 10000).
set -euo pipefail

mailroom=$(realpath "$1")
runs=${BENCH_RUNS:-100}
calls=${BENCH_MCP_CALLS:-10000}
out=${BENCH_OUT:-$(dirname "$mailroom")/bench}
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-bench-mcp.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
results="$out/mcp.tsv"
: > "$results"

export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share"
unset MAILROOM_CONFIG GC_ALIAS GC_AGENT GC_SESSION_ID TRACEPARENT
mkdir -p "$HOME"
cd "$work"
for tool in hyperfine jq; do
  command -v "$tool" > /dev/null || { echo "bench: $tool is required (make deps)" >&2; exit 2; }
done

record() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >> "$results"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }
verdict() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }' && echo met || echo missed; }
now_ns() { date +%s%N; }

export MAILROOM_DB="$work/mail.db" MAILROOM_IDENTITY=alice
(mkdir -p setup && cd setup && "$mailroom" init > /dev/null)
"$mailroom" agents add alice bob > /dev/null
for i in $(seq 1 20); do "$mailroom" --as bob send alice "message $i" > /dev/null; done

count_call='{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"count","arguments":{}}}'
# n calls over the open session in $1 (a coproc's fds), each answered before the next is sent.
session_calls() {
  local n=$1 i line
  for ((i = 1; i <= n; i++)); do
    printf '%s\n' "${count_call/ID/$i}" >&"${MCP[1]}"
    IFS= read -r line <&"${MCP[0]}"
  done
  [[ $line == *'"unread":20'* ]] || { echo "bench: unexpected answer: $line" >&2; exit 1; }
}
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

coproc MCP { exec "$mailroom" mcp 2> /dev/null; }
mcp_pid=$MCP_PID
printf '%s\n' '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}' >&"${MCP[1]}"
IFS= read -r _ <&"${MCP[0]}"

# M1: per-call time over the session vs the process, both measured now.
session_calls 50 # warm-up
t0=$(now_ns)
session_calls "$runs"
t1=$(now_ns)
call_ms=$(awk -v a="$t0" -v b="$t1" -v n="$runs" 'BEGIN { printf "%.3f", (b - a) / n / 1e6 }')
hyperfine -N --warmup 5 --runs "$runs" --export-json "$out/mcp-count.json" "$mailroom count" > "$out/mcp-count.log" 2>&1
proc_ms=$(jq -r '.results[0].median * 1000 | . * 1000 | round / 1000' "$out/mcp-count.json")
r=$(ratio "$call_ms" "$proc_ms")
record M1 "count tool call over an open session vs \`mailroom count\` as a process ($call_ms vs $proc_ms ms)" "${r}x" "<= 0.2x" "$(verdict "$r" 0.2)"

# M3: resident memory after 1,000 and after $calls calls on the same session.
session_calls 1000
rss_1k=$(rss_kib "$mcp_pid")
session_calls $((calls - 1000))
rss_all=$(rss_kib "$mcp_pid")
r=$(ratio "$rss_all" "$rss_1k")
record M3 "resident memory after $calls count calls vs after 1,000 ($rss_all vs $rss_1k KiB)" "${r}x" "<= 1.05x" "$(verdict "$r" 1.05)"
exec {MCP[1]}>&-
wait "$mcp_pid" || true

# M2: spawn, answer initialize, exit at end of input; vs --version (hyperfine subtracts its shell).
printf '%s\n' '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}' > init.json
hyperfine --warmup 5 --runs "$runs" --export-json "$out/mcp-init.json" \
  "$mailroom --version > /dev/null" "$mailroom mcp < init.json > /dev/null" > "$out/mcp-init.log" 2>&1
v_ms=$(jq -r '.results[0].median * 1000 | . * 1000 | round / 1000' "$out/mcp-init.json")
i_ms=$(jq -r '.results[1].median * 1000 | . * 1000 | round / 1000' "$out/mcp-init.json")
r=$(ratio "$i_ms" "$v_ms")
record M2 "spawn to the initialize answer and exit vs \`mailroom --version\` ($i_ms vs $v_ms ms)" "${r}x" "<= 2x" "$(verdict "$r" 2)"

{
  echo "| id | measure | result | target | verdict |"
  echo "|---|---|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$results"
} | tee "$out/mcp.md"
