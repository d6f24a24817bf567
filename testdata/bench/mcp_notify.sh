#!/usr/bin/env bash
# Resource notifications of the MCP server (docs/mcp.md, "Resources"), in run.sh's conventions:
# markdown rows on stdout (and $BENCH_OUT/mcp_notify.md).
#   N1  legacy resources/subscribe of mailroom://inbox: from a CLI `send` process's commit until
#       the server's notifications/resources/updated is read, p50                          <= 100 ms
#   N2  the same through 2026-07-28 subscriptions/listen, p50                              <= 100 ms
#   N3  an idle `mcp` with both subscriptions open, CPU over 10 s                          < 1% of a core
# The commit's time is the `at` of the send's mail.sent event, taken inside its transaction just
# before it commits (so the figure is a little over the time from the commit); beside it, the time
# from just before the send process starts and the send's own run time. The client is
# testdata/bench/notify_client.py
# (python3, stdlib only). The store is a copy of run.sh's largest cached fixture (100 mailboxes,
# 10% unread) when there is one, else a fresh store; agent-001 sends to agent-007.
# Usage: testdata/bench/mcp_notify.sh <mailroom binary> [<seed binary>]
# Env: BENCH_RUNS (sends timed per style, default 100), BENCH_OUT, BENCH_SIZES (its last size
#      names the fixture; default 1000000).
set -euo pipefail

mailroom=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
runs=${BENCH_RUNS:-100}
sizes=${BENCH_SIZES:-"10000 100000 1000000"}
out=${BENCH_OUT:-$(dirname "$mailroom")/bench}
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-bench-notify.XXXXXX")
server=""
trap '[ -n "$server" ] && kill "$server" 2> /dev/null; rm -rf "$work"' EXIT
mkdir -p "$out"
results="$out/mcp_notify.tsv"
: > "$results"
for tool in python3 jq awk; do
  command -v "$tool" > /dev/null || { echo "bench: $tool is required (make deps)" >&2; exit 2; }
done
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >> "$results"; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

n=${sizes##* }
export HOME="$work/home" XDG_STATE_HOME="$work/home/.local/state" XDG_CONFIG_HOME="$work/home/.config"
unset MAILROOM_CONFIG MAILROOM_IDENTITY GC_ALIAS GC_AGENT GC_SESSION_ID TRACEPARENT
mkdir -p "$HOME"
cd "$work"
export MAILROOM_DB="$work/mail.db"
if [ -f "$out/stores/store-$n.db" ]; then
  cp "$out/stores/store-$n.db" "$MAILROOM_DB"
  store="a copy of the $n-message fixture"
else
  (mkdir -p setup && cd setup && "$mailroom" init > /dev/null)
  "$mailroom" agents add -q agent-001 agent-007 > /dev/null
  store="a fresh store"
fi

# p50, p90 and max of a JSON array of milliseconds.
stats() {
  jq -r "$1 | sort | length as \$n | [.[(\$n * 0.5 | floor)], .[(\$n * 0.9 | floor)], .[\$n - 1]]
    | map(. * 10 | round / 10) | @tsv" "$2"
}

row=1
for style in legacy modern; do
  python3 "$here/notify_client.py" "$mailroom" "$MAILROOM_DB" agent-007 agent-001 "$runs" "$style" > "$work/$style.json"
  read -r p50 p90 max < <(stats .commit_ms "$work/$style.json")
  read -r b50 _ _ < <(stats .start_ms "$work/$style.json")
  read -r s50 _ _ < <(stats .send_ms "$work/$style.json")
  missed=$(jq .missed "$work/$style.json")
  how=$([ "$style" = legacy ] && echo "resources/subscribe" || echo "subscriptions/listen (2026-07-28)")
  verdict=missed
  [ "$missed" = 0 ] && le "$p50" 100 && verdict=met
  record "N$row" "inbox notification through $how after a CLI send's commit, $runs sends on $store (p90 $p90, max $max ms; from before the send process starts $b50 ms p50, the send process itself $s50 ms p50; $missed without a notification)" \
    "$p50 ms" "<= 100 ms" "$verdict"
  row=$((row + 1))
done

# N3: both styles open on one idle server.
coproc MCP { exec "$mailroom" --as agent-007 mcp 2> /dev/null; }
server=$MCP_PID
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"mailroom://inbox"}}' >&"${MCP[1]}"
printf '%s\n' '{"jsonrpc":"2.0","id":"l","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"notifications":{"resourceSubscriptions":["mailroom://inbox"]}}}' >&"${MCP[1]}"
IFS= read -r -t 30 _ <&"${MCP[0]}"
IFS= read -r -t 30 _ <&"${MCP[0]}"
sleep 1
ticks() { local s; s=$(cat "/proc/$server/stat"); s=${s##*) }; awk '{ print $12 + $13 }' <<< "$s"; }
before=$(ticks)
sleep 10
after=$(ticks)
hz=$(getconf CLK_TCK)
share=$(awk -v t="$((after - before))" -v hz="$hz" 'BEGIN { printf "%.2f", t / hz / 10 * 100 }')
exec {MCP[1]}>&-
wait "$server" || true
server=""
verdict=missed
lt "$share" 1 && verdict=met
record N3 "an idle \`mcp\` with a legacy subscription and a listen open on $store, CPU over 10 s" "${share}% of a core" "< 1%" "$verdict"

{
  echo "| id | measure | result | target | verdict |"
  echo "|---|---|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$results"
} | tee "$out/mcp_notify.md"
