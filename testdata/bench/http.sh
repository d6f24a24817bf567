#!/usr/bin/env bash
# `mailroom serve` (docs/http-api.md), in run.sh's conventions: ratios to a baseline measured in the
# same run, markdown rows on stdout (and $BENCH_OUT/http.md).
#   H1  GET /api/v1/mailboxes/M/messages?limit=50 over a kept-alive connection (p50)
#       vs `mailroom inbox --all --limit 50 --json` as a process (p50), on the largest store   <= 0.5x
#   H2  a legitimate client's p99 (GET team, a new connection each) under each hostile scenario
#       of http_load.py (260 connections; 1,000 timed requests) vs its idle p99, on the same
#       server in the same run; every legitimate request answered, every hostile one as
#       documented                                                                             <= 2x
# The API answers the same 50 messages as the command (box=in is the inbox with read mail). Its
# time is curl's per-request total over one connection (no process start), the command's
# hyperfine's median.
# Usage: testdata/bench/http.sh <mailroom binary> [<seed binary>]
# Env: BENCH_RUNS (default 100), BENCH_OUT, BENCH_SIZES (its last size is used; default 1000000;
#      the fixture store run.sh keeps in $BENCH_OUT/stores is reused, else one is seeded here).
set -euo pipefail

mailroom=$(realpath "$1")
seed=$(realpath "${2:-$(dirname "$1")/mailroom-bench-seed}")
runs=${BENCH_RUNS:-100}
sizes=${BENCH_SIZES:-"10000 100000 1000000"}
n=${sizes##* }
out=${BENCH_OUT:-$(dirname "$mailroom")/bench}
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-bench-http.XXXXXX")
server=""
trap '[ -n "$server" ] && kill "$server" 2> /dev/null; rm -rf "$work"' EXIT
mkdir -p "$out"
results="$out/http.tsv"
: > "$results"
for tool in hyperfine jq curl; do
  command -v "$tool" > /dev/null || { echo "bench: $tool is required (make deps)" >&2; exit 2; }
done
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >> "$results"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }
verdict() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }' && echo met || echo missed; }

. "$(dirname "${BASH_SOURCE[0]}")/fixture.sh"
bench_store "$work" "$out" "$n" "$seed"
box=agent-007

"$mailroom" serve --listen 127.0.0.1:0 > serve.out 2> serve.err &
server=$!
for _ in $(seq 200); do grep -q '^http://' serve.out 2> /dev/null && break; sleep 0.05; done
port=$(sed -E 's|^http://127\.0\.0\.1:([0-9]+)/.*|\1|' serve.out)
token=$(cat "$XDG_STATE_HOME"/mailroom/serve/*.token)
url="http://127.0.0.1:$port/api/v1/mailboxes/$box/messages?limit=50"
[ "$(curl -s -H "Authorization: Bearer $token" "$url" | jq '.messages | length')" = 50 ] ||
  { echo "bench: the API did not answer 50 messages" >&2; exit 1; }

# H1: the same request $runs times over one connection (curl reuses it), after 10 to warm up.
urls=()
for _ in $(seq $((runs + 10))); do urls+=(-o /dev/null "$url"); done
curl -s -H "Authorization: Bearer $token" -w '%{time_total}\n' "${urls[@]}" | tail -n "$runs" | sort -n > api.times
[ "$(wc -l < api.times)" -eq "$runs" ] || { echo "bench: curl timed $(wc -l < api.times) of $runs requests" >&2; exit 1; }
api_ms=$(awk '{ t[NR] = $1 } END { printf "%.3f", t[int((NR + 1) / 2)] * 1000 }' api.times)
hyperfine -N --warmup 5 --runs "$runs" --export-json "$out/http-inbox.json" \
  "$mailroom --as $box inbox --all --limit 50 --json" > "$out/http-inbox.log" 2>&1
cli_ms=$(jq -r '.results[0].median * 1000 | . * 1000 | round / 1000' "$out/http-inbox.json")
r=$(ratio "$api_ms" "$cli_ms")
record H1 "GET messages?limit=50 over a kept-alive connection vs \`inbox --all --limit 50 --json\`, $n msgs ($api_ms vs $cli_ms ms)" "${r}x" "<= 0.5x" "$(verdict "$r" 0.5)"

# H2: the hostile scenarios (integration/serve_load.sh runs the same, bounded, in make test).
load_rc=0
python3 "$(dirname "${BASH_SOURCE[0]}")/http_load.py" --port "$port" --token "$token" \
  --samples "${BENCH_LOAD_SAMPLES:-1000}" > "$out/http-load.jsonl" || load_rc=$?
while IFS= read -r line; do
  name=$(jq -r .scenario <<< "$line")
  [ "$name" = idle ] && continue
  r=$(jq -r .ratio <<< "$line")
  ok=$(jq -r 'if .passed then "met" else "missed" end' <<< "$line")
  record "H2 $name" "legitimate p99 under \`$name\` vs idle ($(jq -r .p99_ms <<< "$line") vs $(jq -r .idle_p99_ms <<< "$line") ms; failures $(jq -r .failures <<< "$line"))" "${r}x" "<= 2x" "$ok"
done < "$out/http-load.jsonl"
[ "$load_rc" = 0 ] || echo "bench: http_load.py reported a failure (see $out/http-load.jsonl)" >&2

{
  echo "| id | measure | result | target | verdict |"
  echo "|---|---|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$results"
} | tee "$out/http.md"
