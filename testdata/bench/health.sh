#!/usr/bin/env bash
# Delivery health figures (docs/delivery-health.md), in run.sh's conventions: hyperfine, ratios to
# baselines measured in the same run, markdown rows on stdout (and $BENCH_OUT/health.md).
#   H1  peers at BENCH_SIZE messages vs count on the same store      target <= 1.3x
#   H2  send --ack (tracked) vs send (untracked)                      target <= 1.1x
#   H3  one sweep pass over 10,000 due deliveries                     reported (ms, µs per delivery)
# Usage: testdata/bench/health.sh <mailroom binary> [<seed binary>]
# Env: BENCH_RUNS (default 100), BENCH_SIZE (default 1000000), BENCH_DUE (default 10000), BENCH_OUT.
set -euo pipefail

mailroom=$(realpath "$1")
seed=$(realpath "${2:-$(dirname "$1")/mailroom-bench-seed}")
runs=${BENCH_RUNS:-100}
size=${BENCH_SIZE:-1000000}
due=${BENCH_DUE:-10000}
out=${BENCH_OUT:-$(dirname "$mailroom")/bench}
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-bench-health.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
results="$out/health.tsv"
: > "$results"

for tool in hyperfine sqlite3 jq; do
  command -v "$tool" > /dev/null || { echo "bench: $tool is required (make deps)" >&2; exit 2; }
done

stats() {
  jq -r --argjson i "$2" '.results[$i].times | sort | map(. * 1000) as $t | ($t | length) as $n
    | [$t[($n * 0.50 | floor)], $t[($n * 0.90 | floor)], $t[([($n * 0.99 | floor), $n - 1] | min)], $t[$n - 1]]
    | map(. * 1000 | round / 1000) | @tsv' "$1"
}
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >> "$results"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
verdict() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }' && echo met || echo missed; }

# --- H1: peers vs count at $size messages --------------------------------------------------------
# The seed sends message i from agent-(i mod 100) to agent-(i+1 mod 100). agent-007 then sends a
# tracked task to 40 more mailboxes through the CLI, and 1% of its seeded messages are left
# awaiting ack (and a few escalated), so peers has pending and escalated rows to read.
echo "seeding $size messages (100 mailboxes) for H1" >&2
db="$work/health-$size.db"
"$seed" --db "$db" --messages "$size" --mailboxes 100 --unread 0.1 --body-bytes 400 > /dev/null
box=agent-007
for i in $(seq 10 49); do
  "$mailroom" --db "$db" --as "$box" send "agent-0$i" -s "task" -m "please" --type task_request > /dev/null
done
sqlite3 "$db" "UPDATE deliveries SET ack_state = 'awaiting_ack', next_attempt_at = created_at + 600000
               WHERE sender = '$box' AND message % 100 = 0;
               UPDATE deliveries SET ack_state = 'escalated'
               WHERE sender = '$box' AND message % 1000 = 0; ANALYZE;"
hyperfine -N --warmup 10 --runs "$runs" --export-json "$out/h1.json" \
  "$mailroom --db $db --as $box count" "$mailroom --db $db --as $box peers" > /dev/null
read -r c_p50 _ _ _ < <(stats "$out/h1.json" 0)
read -r p_p50 p_p90 p_p99 _ < <(stats "$out/h1.json" 1)
pending=$(sqlite3 "$db" "SELECT count(*) FROM deliveries WHERE sender = '$box' AND ack_state = 'awaiting_ack'")
r=$(ratio "$p_p50" "$c_p50")
record H1 "peers p50 vs count p50, $size msgs, $pending pending ($p_p50 vs $c_p50 ms; p90 $p_p90, p99 $p_p99)" \
  "${r}x" "<= 1.3x" "$(verdict "$r" 1.3)"

# --- H2: send --ack vs send ------------------------------------------------------------------------
small="$work/send.db"
"$seed" --db "$small" --messages 10000 --mailboxes 100 --unread 0.1 --body-bytes 400 > /dev/null
hyperfine -N --warmup 10 --runs "$runs" --export-json "$out/h2.json" \
  "$mailroom --db $small --as agent-001 send agent-002 -s bench -m hello" \
  "$mailroom --db $small --as agent-001 send agent-002 -s bench -m hello --ack" > /dev/null
read -r s_p50 _ _ _ < <(stats "$out/h2.json" 0)
read -r a_p50 _ a_p99 _ < <(stats "$out/h2.json" 1)
r=$(ratio "$a_p50" "$s_p50")
record H2 "send --ack p50 vs send p50 ($a_p50 vs $s_p50 ms; p99 $a_p99)" "${r}x" "<= 1.1x" "$(verdict "$r" 1.1)"

# --- H3: a sweep pass over $due due deliveries -----------------------------------------------------
# Every delivery of a $due-message store awaiting ack and due now, one attempt left each; each run
# starts from a fresh copy. Half are redelivered, half escalated (to 50 senders' dark peers).
base="$work/due.db"
"$seed" --db "$base" --messages "$due" --mailboxes 100 --unread 0.1 --body-bytes 400 > /dev/null
sqlite3 "$base" "UPDATE deliveries SET ack_state = 'awaiting_ack', next_attempt_at = 0,
                   attempts = CASE WHEN message % 2 = 0 THEN 1 ELSE 0 END; ANALYZE;"
printf '[delivery.redelivery]\nenabled = true\nmax_attempts = 1\n' > "$work/sweep.toml"
sweep_runs=$(( runs < 20 ? runs : 20 ))
hyperfine -N --warmup 1 --runs "$sweep_runs" --export-json "$out/h3.json" \
  --prepare "cp $base $work/run.db" \
  "$mailroom --config $work/sweep.toml --db $work/run.db sweep" > /dev/null
read -r w_p50 w_p90 _ w_max < <(stats "$out/h3.json" 0)
per=$(awk -v a="$w_p50" -v n="$due" 'BEGIN { printf "%.1f", a * 1000 / n }')
cp "$base" "$work/run.db"
"$mailroom" --config "$work/sweep.toml" --db "$work/run.db" --json sweep > "$work/h3.json"
acted=$(jq '(.redelivered | length) + ([.escalated[].ids[]] | length)' "$work/h3.json")
record H3 "sweep pass over $due due deliveries (p50 $w_p50 ms, p90 $w_p90, max $w_max; $acted acted on)" \
  "${per} µs/delivery" "reported" "-"

{
  echo "| id | measure | result | target | verdict |"
  echo "|---|---|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$results"
} | tee "$out/health.md"
