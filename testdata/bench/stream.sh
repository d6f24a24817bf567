#!/usr/bin/env bash
# The live event stream of `mailroom serve` (docs/http-api.md, "Live events"), in run.sh's
# conventions: markdown rows on stdout (and $BENCH_OUT/stream.md).
#   S1  event latency with 64 streams open: from just before a CLI `send` process starts until its
#       mail.sent event is read from the streams (p50 of the last of the 64 to get it)   <= 20 ms
#       Every stream must get every event of the store, in order (else the script fails).
#   S2  server memory: VmRSS after 100,000 events at full rate vs after 10,000, one stream open
#       (POST /api/v1/messages to 10 recipients, one mail.sent event each, over 4 kept-alive
#       connections; the stream must get every event, without a gap)                          <= 1.05x
#       Beside it (info): the same for RssAnon (the heap), and VmRSS over the run's second half.
# The client is testdata/bench/stream_client.py (python3, stdlib only). Both rows run on a copy of
# the largest fixture store (run.sh's in $BENCH_OUT/stores when present, else seeded here).
# Usage: testdata/bench/stream.sh <mailroom binary> [<seed binary>]
# Env: BENCH_RUNS (sends timed for S1, default 50), BENCH_OUT, BENCH_SIZES (its last size is used;
#      default 1000000), BENCH_STREAM_EVENTS (S2's count, default 100000), BENCH_STREAM_SECONDS (S2's
#      time budget, default 180: past it S2 stops and reports the count reached),
#      BENCH_STREAM_FANOUT (recipients per message, default 10), BENCH_STREAM_WRITERS (default 4).
set -euo pipefail

mailroom=$(realpath "$1")
seed=$(realpath "${2:-$(dirname "$1")/mailroom-bench-seed}")
here=$(cd "$(dirname "$0")" && pwd)
runs=${BENCH_RUNS:-50}
sizes=${BENCH_SIZES:-"10000 100000 1000000"}
n=${sizes##* }
events=${BENCH_STREAM_EVENTS:-100000}
budget=${BENCH_STREAM_SECONDS:-180}
fanout=${BENCH_STREAM_FANOUT:-10}
writers=${BENCH_STREAM_WRITERS:-4}
out=${BENCH_OUT:-$(dirname "$mailroom")/bench}
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-bench-stream.XXXXXX")
server=""
stop_server() {
  if [ -n "$server" ]; then
    kill "$server" 2> /dev/null || true
    wait "$server" 2> /dev/null || true
    server=""
  fi
}
trap 'stop_server; rm -rf "$work"' EXIT
mkdir -p "$out"
results="$out/stream.tsv"
: > "$results"
for tool in python3 jq awk; do
  command -v "$tool" > /dev/null || { echo "bench: $tool is required (make deps)" >&2; exit 2; }
done
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >> "$results"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }
verdict() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }' && echo met || echo missed; }

. "$(dirname "${BASH_SOURCE[0]}")/fixture.sh"
bench_store "$work" "$out" "$n" "$seed"

start_server() {
  : > serve.out
  "$mailroom" serve --listen 127.0.0.1:0 > serve.out 2> serve.err &
  server=$!
  for _ in $(seq 200); do
    grep -q '^http://' serve.out 2> /dev/null && break
    kill -0 "$server" 2> /dev/null || { echo "bench: serve ended:" >&2; cat serve.err >&2; exit 1; }
    sleep 0.05
  done
  port=$(sed -nE 's|^http://127\.0\.0\.1:([0-9]+)/.*|\1|p' serve.out | head -1)
  [ -n "$port" ] || { echo "bench: serve printed no address:" >&2; cat serve.out serve.err >&2; exit 1; }
  token_file=$(echo "$XDG_STATE_HOME"/mailroom/serve/*.token)
  [ -f "$token_file" ] || { echo "bench: no token file under $XDG_STATE_HOME/mailroom/serve" >&2; exit 1; }
}

# --- S1: 64 streams, $runs CLI sends -------------------------------------------------------------
start_server
python3 "$here/stream_client.py" latency --port "$port" --token-file "$token_file" --streams 64 \
  --runs "$runs" --warmup 3 --mailroom "$mailroom" --db "$MAILROOM_DB" > s1.json
stop_server
read -r p50 p95 p50all p95all first per_stream exit_ms < <(jq -r \
  '[.p50_last, .p95_last, .p50_all, .p95_all, .p50_first, .events_per_stream, .p50_send_exit] | map(. * 1000 | round / 1000) | @tsv' s1.json)
cp s1.json "$out/stream-s1.json"
record S1 "CLI \`send\` to its event on 64 open streams, $runs sends, $n msgs: p50 of the last stream $p50 ms (p95 $p95; first stream p50 $first; all 64x$runs p50 $p50all, p95 $p95all; the send process alone, start to exit, p50 $exit_ms); every stream got all $per_stream events" \
  "$p50 ms" "<= 20 ms" "$(verdict "$p50" 20)"

# --- S2: server memory over $events events ------------------------------------------------------
start_server
python3 "$here/stream_client.py" memory --port "$port" --token-file "$token_file" --events "$events" \
  --seconds "$budget" --pid "$server" --writers "$writers" --fanout "$fanout" > s2.json
stop_server
cp s2.json "$out/stream-s2.json"
got=$(jq -r '.events' s2.json)
secs=$(jq -r '.seconds | . * 10 | round / 10' s2.json)
epm=$(jq -r '.events_per_message | . * 100 | round / 100' s2.json)
rss10=$(jq -r '[.samples[] | select(.[0] >= 10000)][0][1] // empty' s2.json)
rss_end=$(jq -r '.final[1]' s2.json)
[ -n "$rss10" ] || { echo "bench: S2 reached $got events, fewer than 10,000 (raise BENCH_STREAM_SECONDS)" >&2; exit 1; }
curve=$(jq -r '[.samples[] | "\(.[0] / 1000 | floor)k:\(.[1] / 1024 | . * 10 | round / 10)/\(.[3] / 1024 | . * 10 | round / 10)"] | join(" ")' s2.json)
anon10=$(jq -r '[.samples[] | select(.[0] >= 10000)][0][3]' s2.json)
anon_end=$(jq -r '.final[3]' s2.json)
note=""
if [ "$(jq -r '.timed_out' s2.json)" = true ]; then
  note="; stopped by the ${budget} s budget before $events events (BENCH_STREAM_EVENTS, BENCH_STREAM_SECONDS)"
fi
r=$(ratio "$rss_end" "$rss10")
record S2 "server VmRSS after $got events vs after 10,000, one stream open, $(jq -r .posted s2.json) messages to $fanout recipients ($epm events each) over $writers connections in $secs s ($((rss_end / 1024)) vs $((rss10 / 1024)) MiB; VmRSS/RssAnon MiB at k events: $curve)$note" \
  "${r}x" "<= 1.05x" "$(verdict "$r" 1.05)"
r3=$(ratio "$anon_end" "$anon10")
record S2 "server RssAnon (the heap, without mapped files) after $got events vs after 10,000 ($((anon_end / 1024)) vs $((anon10 / 1024)) MiB)" "${r3}x" "measured" info
# Beside it, the second half of the run (after 100,000 events vs after 50,000 when E is 100,000):
# growth that goes on (a leak) shows here too, a one-time fill early in the run does not.
half=$(jq -r --argjson h $((events / 2)) '[.samples[] | select(.[0] >= $h)][0] // empty | "\(.[0])\t\(.[1])"' s2.json)
if [ -n "$half" ]; then
  read -r at2 kib2 <<< "$half"
  r2=$(ratio "$rss_end" "$kib2")
  record S2 "server VmRSS after $got events vs after $at2 (same run; $((rss_end / 1024)) vs $((kib2 / 1024)) MiB)" "${r2}x" "measured" info
fi

{
  echo "| id | measure | result | target | verdict |"
  echo "|---|---|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$results"
} | tee "$out/stream.md"
