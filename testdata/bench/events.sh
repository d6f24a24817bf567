#!/usr/bin/env bash
# The cost of the event log on a send (docs/store.md, "Events"), in run.sh's conventions:
# hyperfine, a ratio to a baseline measured in the same series, markdown rows on stdout (and
# $BENCH_OUT/events.md).
#   E1  send (one recipient) with its mail.sent event written   vs the same send without   <= 1.05x
#
# "Without" is a second binary built from the same tree with the CMake option
# MAILROOM_BENCH_NO_EVENTS (only providers/sqlstore/events.cpp differs: record_events writes no
# rows, and announces as before), with the flags of `make release`, into build/release-noevents
# (incremental: with ccache only that file and the link are compiled again). BENCH_EVENTS_BASELINE
# names another binary instead (e.g. one built from the commit before the event log, on a copy
# of the store with user_version 7 and no events tables: see below). Both binaries send into
# their own copy of one store, in 10 rounds of hyperfine (which times one command's runs, then the
# other's), the order swapped every round, so both see the same machine load and store growth.
# Usage: testdata/bench/events.sh <mailroom binary>
# Env: BENCH_RUNS (default 200), BENCH_OUT, BENCH_EVENTS_BASELINE (BENCH_EVENTS_BASELINE_V7=1 for
#      a binary from before the log), BENCH_FULLY_STATIC (OFF when
#      `make release DYNAMIC=1` built the measured binary).
set -euo pipefail

mailroom=$(realpath "$1")
runs=${BENCH_RUNS:-200}
out=${BENCH_OUT:-$(dirname "$mailroom")/bench}
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-bench-events.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
results="$out/events.tsv"
: > "$results"

for tool in hyperfine jq sqlite3 cmake; do
  command -v "$tool" > /dev/null || { echo "bench: $tool is required (make deps)" >&2; exit 2; }
done

stats() {
  jq -r --argjson i "$2" '.results[$i].times | sort | map(. * 1000) as $t | ($t | length) as $n
    | [$t[($n * 0.50 | floor)], $t[($n * 0.90 | floor)], $t[([($n * 0.99 | floor), $n - 1] | min)], $t[$n - 1]]
    | map(. * 1000 | round / 1000) | @tsv' "$1"
}
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >> "$results"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }
verdict() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }' && echo met || echo missed; }

# --- the baseline binary ------------------------------------------------------------------------
baseline=${BENCH_EVENTS_BASELINE:-}
if [ -z "$baseline" ]; then
  build="$repo/build/release-noevents"
  echo "events: building the baseline (MAILROOM_BENCH_NO_EVENTS=ON) in $build" >&2
  cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMAILROOM_BUILD_TESTS=OFF \
    -DMAILROOM_FULLY_STATIC="${BENCH_FULLY_STATIC:-ON}" -DMAILROOM_BENCH_NO_EVENTS=ON \
    > "$work/baseline-cmake.log" 2>&1 || { cat "$work/baseline-cmake.log" >&2; exit 1; }
  cmake --build "$build" --target mailroom > "$work/baseline-build.log" 2>&1 ||
    { tail -50 "$work/baseline-build.log" >&2; exit 1; }
  baseline="$build/mailroom"
fi

export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share"
unset MAILROOM_IDENTITY MAILROOM_CONFIG MAILROOM_DB GC_ALIAS GC_AGENT GC_SESSION_ID TRACEPARENT
mkdir -p "$HOME"
cd "$work"

# --- one store, two copies ----------------------------------------------------------------------
mkdir -p "$work/ws"
(cd "$work/ws" && MAILROOM_DB="$work/with.db" "$mailroom" init > /dev/null)
"$mailroom" --db "$work/with.db" agents add -q agent-001 agent-002 > /dev/null
for i in $(seq 200); do
  "$mailroom" --db "$work/with.db" --as agent-001 send agent-002 -s "seed $i" -m "seed" -q
done
sqlite3 "$work/with.db" 'PRAGMA wal_checkpoint(TRUNCATE)' > /dev/null
cp "$work/with.db" "$work/without.db"
if [ -n "${BENCH_EVENTS_BASELINE:-}" ] && [ "${BENCH_EVENTS_BASELINE_V7:-0}" = 1 ]; then
  # A binary from before the log knows schema 7: give it its own schema, the rows unchanged.
  sqlite3 "$work/without.db" 'DROP TABLE events; DROP TABLE events_pruned; PRAGMA user_version = 7' > /dev/null
fi
"$baseline" --db "$work/without.db" --as agent-002 count > /dev/null # it takes the store as it is

send() { echo "$1 --db $2 --as agent-001 send agent-002 -s bench -m hello -q"; }
rounds=10
per_round=$(((runs + rounds - 1) / rounds))
: > "$out/E1.log"
for round in $(seq "$rounds"); do
  cmds=("$(send "$baseline" "$work/without.db")" "$(send "$mailroom" "$work/with.db")")
  [ $((round % 2)) = 0 ] && cmds=("${cmds[1]}" "${cmds[0]}")
  hyperfine -N --warmup $((round == 1 ? 20 : 2)) --runs "$per_round" --export-json "$work/E1-$round.json" \
    "${cmds[@]}" >> "$out/E1.log" 2>&1 || { cat "$out/E1.log" >&2; exit 1; }
done
# One JSON in hyperfine's shape: results[0] the baseline's times, results[1] the measured binary's.
files=()
for round in $(seq "$rounds"); do files+=("$work/E1-$round.json"); done
jq -s --arg b "$(send "$baseline" "$work/without.db")" --arg m "$(send "$mailroom" "$work/with.db")" '{results: [
  {command: $b, times: [.[].results[] | select(.command == $b) | .times[]]},
  {command: $m, times: [.[].results[] | select(.command == $m) | .times[]]}]}' "${files[@]}" > "$out/E1.json"
[ "$(jq '[.results[].times | length] == [$r, $r]' --argjson r $((per_round * rounds)) "$out/E1.json")" = true ] ||
  { echo "events: the rounds' times did not merge" >&2; exit 1; }
read -r b_p50 _ _ _ < <(stats "$out/E1.json" 0)
read -r e_p50 e_p90 e_p99 _ < <(stats "$out/E1.json" 1)
events=$(sqlite3 "$work/with.db" "SELECT count(*) FROM events")
r=$(ratio "$e_p50" "$b_p50")
record E1 "send with its event ($events events written) vs the same send writing none, $rounds rounds in swapped order ($e_p50 vs $b_p50 ms p50; p90 $e_p90, p99 $e_p99)" \
  "${r}x" "<= 1.05x" "$(verdict "$r" 1.05)"

{
  echo "| id | measure | result | target | verdict |"
  echo "|---|---|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$results"
} | tee "$out/events.md"
