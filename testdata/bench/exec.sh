#!/usr/bin/env bash
# make bench, the exec section (issue #17): a mailroom command through the exec provider against a
# direct run of the same script operation, on the same script state. Self-contained; run.sh calls
# it and it appends its rows to the results table.
#   BE1  `mailroom count` on testdata/exec/stateful.sh (ensure-running answers exit 2, so a
#        command is one process) vs `stateful.sh count` run directly: target <= 1.1x.
#   BE2  the same on testdata/gc/gc_mail.sh, whose ensure-running exits 0 as gc's reference does,
#        so mailroom (like gc) runs it before every command: reported, no target.
# Usage: testdata/bench/exec.sh <mailroom binary> <results.tsv> <out dir> [<runs>]
# Env: BENCH_EXEC_MESSAGES (default 200 messages in the measured mailbox, 10% unread).
set -euo pipefail

mailroom=$(realpath "$1")
results=$2
out=$3
runs=${4:-300}
messages=${BENCH_EXEC_MESSAGES:-200}
testdata=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-bench-exec.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
box=agent-007

p50() {
  jq -r --argjson i "$2" '.results[$i].times | sort | .[(length * 0.5 | floor)] * 1000000 | round / 1000' "$1"
}

# bench_script ID NAME SCRIPT TARGET: seeds SCRIPT's state through the script itself, then times
# `mailroom count` against `SCRIPT count` and records the ratio.
bench_script() {
  local bench_id=$1 name=$2 script=$3 target=$4
  local state="$work/$name"
  mkdir -p "$state"
  export MAILROOM_EXEC_STATE="$state"
  local i id
  for ((i = 0; i < messages; i++)); do
    id=$(printf '{"from":"bench","subject":"s%d","body":"message %d"}' "$i" "$i" | "$script" send "$box" | jq -r .id)
    if ((i % 10 != 0)); then
      "$script" mark-read "$id"
    fi
  done
  printf '[mail]\nprovider = "exec:%s"\n' "$script" > "$work/$name.toml"
  # The cache learns ensure-running's answer on the first run (hyperfine's warm-up). Five
  # alternating rounds, so a drift in the machine's speed during the run falls on both commands.
  local round
  for round in 1 2 3 4 5; do
    XDG_CACHE_HOME="$work/cache" hyperfine -N --warmup 10 --runs $((runs / 5)) \
      --export-json "$work/$bench_id.$round.json" \
      "$script count $box" "$mailroom --config $work/$name.toml --as $box count" > /dev/null
  done
  jq -s '. as $all | {results: [0, 1] | map(. as $i | {command: $all[0].results[$i].command,
           times: [$all[].results[$i].times[]]})}' "$work/$bench_id".*.json > "$out/$bench_id.json"
  local direct via r verdict=""
  direct=$(p50 "$out/$bench_id.json" 0)
  via=$(p50 "$out/$bench_id.json" 1)
  r=$(awk -v a="$via" -v b="$direct" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
  if [ "$target" = - ]; then
    verdict=info
  elif awk -v a="$r" -v b="${target#<= }" 'BEGIN { exit !(a <= b + 0) }'; then
    verdict=met
  else
    verdict=missed
  fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$bench_id" \
    "exec count p50 via mailroom vs $name count run directly, $messages msgs ($via vs $direct ms)" \
    "${r}x" "$([ "$target" = - ] && echo none || echo "${target}x")" "$verdict" >> "$results"
}

bench_script BE1 stateful.sh "$testdata/exec/stateful.sh" "<= 1.1"
bench_script BE2 gc_mail.sh "$testdata/gc/gc_mail.sh" -
