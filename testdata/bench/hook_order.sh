#!/usr/bin/env bash
# The hook's order (docs/coding-agents.md, "What the agent sees"), in run.sh's conventions:
# hyperfine, ratios to a baseline measured in the same run, markdown rows on stdout (and
# $BENCH_OUT/hook_order.md). The hook lists urgent mail, then what the agent owes, then inbox order,
# from a few candidates its indexes give; it must not read the rest of the mailbox.
#   HO1  check --inject, a mailbox of ~5,000 unread of which 40 urgent and 40 owed requests,
#        vs the same mailbox with none                                                  <= 1.10x
#   HO2  the same with 1,000 owed requests (the count reads each owed row once)         measured
# Both stores are one seeded store (100,000 messages, 10 mailboxes, half unread) whose deliveries
# to agent-007 are then given states by SQL, so the rows differ only in those states.
# Usage: testdata/bench/hook_order.sh <mailroom binary> [<seed binary>]
# Env: BENCH_RUNS (default 200), BENCH_OUT.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
mailroom=$(realpath "$1")
seed=$(realpath "${2:-$(dirname "$1")/mailroom-bench-seed}")
runs=${BENCH_RUNS:-200}
out=${BENCH_OUT:-$(dirname "$mailroom")/bench}
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-bench-hook-order.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
results="$out/hook_order.tsv"
: > "$results"

export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share"
unset MAILROOM_IDENTITY MAILROOM_CONFIG MAILROOM_DB GC_ALIAS GC_AGENT GC_SESSION_ID TRACEPARENT
mkdir -p "$HOME"
cd "$work"

for tool in hyperfine jq sqlite3; do
  command -v "$tool" > /dev/null || { echo "bench: $tool is required (make deps)" >&2; exit 2; }
done

# shellcheck source=testdata/bench/lib.sh
. "$here/lib.sh" # record, ratio, verdict

box=agent-007
echo "hook_order: seeding 100,000 messages" >&2
"$seed" --db "$work/plain.db" --messages 100000 --mailboxes 10 --unread 0.5 --body-bytes 400 > /dev/null
unread=$(sqlite3 "$work/plain.db" "SELECT count(*) FROM deliveries WHERE recipient = '$box' AND read_at IS NULL")

# states DB URGENT OWED: the first URGENT unread deliveries to $box (by seq) made urgent, the next
# OWED made open requests awaiting their ack (as a task_request's delivery is).
states() {
  cp "$work/plain.db" "$1"
  sqlite3 "$1" "
    UPDATE deliveries SET priority = 0 WHERE rowid IN (
      SELECT rowid FROM deliveries WHERE recipient = '$box' AND read_at IS NULL ORDER BY message LIMIT $2);
    UPDATE deliveries SET request_state = 'submitted', ack_state = 'awaiting_ack' WHERE rowid IN (
      SELECT rowid FROM deliveries WHERE recipient = '$box' AND read_at IS NULL AND priority <> 0
      ORDER BY message LIMIT $3);"
}
states "$work/some.db" 40 40
states "$work/many.db" 40 1000
hook() { echo "$mailroom --db $1 --as $box check --inject"; }
# The listed classes, checked once outside the timer: the rows measure what they say.
"$mailroom" --db "$work/some.db" --as $box check --inject | grep -q '^40 urgent; 40 requests await your reply' ||
  { echo "hook_order: the hook did not count the classes" >&2; exit 1; }

# p50 p90 p99 of result I (0: the baseline) over every round's JSON.
stats_all() {
  jq -rs --argjson i "$1" '[.[].results[$i].times[]] | sort | map(. * 1000) as $t | ($t | length) as $n
    | [$t[($n * 0.50 | floor)], $t[($n * 0.90 | floor)], $t[([($n * 0.99 | floor), $n - 1] | min)]]
    | map(. * 1000 | round / 1000) | @tsv' "${@:2}"
}

for id in HO1 HO2; do
  db=$([ "$id" = HO1 ] && echo "$work/some.db" || echo "$work/many.db")
  # Rounds of two runs a side, baseline then row, so that a change of the machine's load reaches
  # both sides alike (one hyperfine series would time every baseline run first).
  rm -f "$out/$id".*.json
  hyperfine -N --warmup 10 --runs 2 "$(hook "$work/plain.db")" "$(hook "$db")" > /dev/null 2>&1
  for ((round = 1; round <= runs / 2; round++)); do
    hyperfine -N --runs 2 --export-json "$out/$id.$round.json" \
      "$(hook "$work/plain.db")" "$(hook "$db")" > "$out/$id.log" 2>&1 || { cat "$out/$id.log" >&2; exit 1; }
  done
  read -r b_p50 _ _ < <(stats_all 0 "$out/$id".*.json)
  read -r v_p50 v_p90 v_p99 < <(stats_all 1 "$out/$id".*.json)
  r=$(ratio "$v_p50" "$b_p50")
  if [ "$id" = HO1 ]; then
    record HO1 "hook (check --inject), $unread unread: 40 urgent and 40 owed vs none ($v_p50 vs $b_p50 ms p50; p90 $v_p90, p99 $v_p99)" \
      "${r}x" "<= 1.10x" "$(verdict "$r" 1.10)"
  else
    record HO2 "hook (check --inject), $unread unread: 40 urgent and 1,000 owed vs none ($v_p50 vs $b_p50 ms p50; p90 $v_p90, p99 $v_p99)" \
      "${r}x" "measured" info
  fi
done

{
  echo "| id | measure | result | target | verdict |"
  echo "|---|---|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$results"
} | tee "$out/hook_order.md"
