#!/usr/bin/env bash
# Hook time over large bodies (docs/store.md, "Previews and the body"), in run.sh's conventions:
# hyperfine, ratios to a baseline measured in the same run, markdown rows on stdout (and
# $BENCH_OUT/previews.md).
#   V0  check --inject --limit 20: 20 small unread + 3 read 10 MiB bodies   vs 20 small   <= 1.2x
#   V1  ... with 1 of the 20 unread a 10 MiB body                            vs 20 small   <= 1.2x
#   V3  ... with 3 of them 10 MiB bodies                                     vs 20 small   <= 1.2x
#   V20 ... with all 20 10 MiB bodies                                        vs 20 small   <= 1.2x
# Every store has the same number of unread messages, all listed (--limit 20), so the rows differ
# only in how large the bodies behind the previews are.
# Usage: testdata/bench/previews.sh <mailroom binary>
# Env: BENCH_RUNS (default 100), BENCH_OUT.
set -euo pipefail

mailroom=$(realpath "$1")
runs=${BENCH_RUNS:-100}
out=${BENCH_OUT:-$(dirname "$mailroom")/bench}
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-bench-previews.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
results="$out/previews.tsv"
: > "$results"

export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share"
unset MAILROOM_IDENTITY MAILROOM_CONFIG MAILROOM_DB GC_ALIAS GC_AGENT GC_SESSION_ID TRACEPARENT
mkdir -p "$HOME"
cd "$work"

for tool in hyperfine jq; do
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

# 10 MiB of printable text (base64 of random bytes: no compression anywhere helps) and 400 bytes.
head -c 7864320 /dev/urandom | base64 -w0 > "$work/big"
head -c 300 /dev/urandom | base64 -w0 > "$work/small"

# store NAME READ_BIG UNREAD_BIG: bob has READ_BIG read 10 MiB messages, then UNREAD_BIG unread
# 10 MiB ones and 20 - UNREAD_BIG unread small ones.
store() {
  local db="$work/$1.db" i
  mkdir -p "$work/ws-$1"
  (cd "$work/ws-$1" && MAILROOM_DB="$db" "$mailroom" init > /dev/null)
  "$mailroom" --db "$db" agents add -q alice bob > /dev/null
  for ((i = 0; i < $2; i++)); do
    "$mailroom" --db "$db" --as alice send bob -s "old $i" --body-file "$work/big" -q
  done
  if [ "$2" -gt 0 ]; then
    "$mailroom" --db "$db" --as bob mark-read --all -q > /dev/null
  fi
  for ((i = 0; i < $3; i++)); do
    "$mailroom" --db "$db" --as alice send bob -s "big $i" --body-file "$work/big" -q
  done
  for ((i = $3; i < 20; i++)); do
    "$mailroom" --db "$db" --as alice send bob -s "small $i" --body-file "$work/small" -q
  done
  echo "$db"
}

echo "previews: writing the stores (24 bodies of 10 MiB)" >&2
base=$(store small 0 0)
declare -A dbs=([V0]=$(store v0 3 0) [V1]=$(store v1 0 1) [V3]=$(store v3 0 3) [V20]=$(store v20 0 20))
hook() { echo "$mailroom --db $1 --as bob check --inject --limit 20"; }

for id in V0 V1 V3 V20; do
  # The baseline and the row alternate in one hyperfine series, so both see the same machine.
  hyperfine -N --warmup 10 --runs "$runs" --export-json "$out/$id.json" "$(hook "$base")" "$(hook "${dbs[$id]}")" \
    > "$out/$id.log" 2>&1 || { cat "$out/$id.log" >&2; exit 1; }
  read -r b_p50 _ _ _ < <(stats "$out/$id.json" 0)
  read -r v_p50 v_p90 v_p99 _ < <(stats "$out/$id.json" 1)
  case $id in
    V0) what="20 small unread, 3 read 10 MiB bodies" ;;
    V1) what="1 of 20 unread a 10 MiB body" ;;
    V3) what="3 of 20 unread 10 MiB bodies" ;;
    V20) what="20 of 20 unread 10 MiB bodies" ;;
  esac
  r=$(ratio "$v_p50" "$b_p50")
  record "$id" "hook (check --inject --limit 20): $what vs 20 small ($v_p50 vs $b_p50 ms p50; p90 $v_p90, p99 $v_p99)" \
    "${r}x" "<= 1.2x" "$(verdict "$r" 1.2)"
done

{
  echo "| id | measure | result | target | verdict |"
  echo "|---|---|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$results"
} | tee "$out/previews.md"
