#!/usr/bin/env bash
# Waking idle agents (docs/wake.md), in run.sh's conventions: a ratio to a baseline measured in the
# same run, markdown rows on stdout.
#   WK1 `send --urgent` to a recipient with a wake target vs to one without     <= 1.05x wall
#       (the target is `true`; the wake runs in a detached child, which the send never waits for;
#       alternating rounds, p50 of each)
# Usage: testdata/bench/wake.sh <mailroom binary>
# Env: BENCH_RUNS (default 300).
set -euo pipefail

mailroom=$(realpath "$1")
runs=${BENCH_RUNS:-300}
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-bench-wake.XXXXXX")
trap 'rm -rf "$work"' EXIT
for tool in hyperfine jq awk; do
  command -v "$tool" > /dev/null || { echo "bench: $tool is required" >&2; exit 2; }
done
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share"
unset MAILROOM_IDENTITY MAILROOM_CONFIG MAILROOM_DB GC_ALIAS GC_AGENT GC_SESSION_ID TRACEPARENT
mkdir -p "$HOME" "$work/ws"

row() { printf '| %s | %s | %s | %s |\n' "$@"; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
verdict() { if le "$1" "$2"; then echo met; else echo missed; fi; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] }'; }

cd "$work/ws"
"$mailroom" init > /dev/null
"$mailroom" agents add alice woken plain > /dev/null
"$mailroom" agents set woken --wake true > /dev/null

echo "| id | figure | value | goal / verdict |"
echo "|---|---|---|---|"

# --- WK1: send to a recipient with a wake target vs without -------------------------------------
with="$mailroom --as alice send woken --urgent wake-bench"
without="$mailroom --as alice send plain --urgent wake-bench"
: > "$work/wk1.with"
: > "$work/wk1.without"
for round in 1 2 3 4 5; do
  hyperfine -N -i --warmup 5 --runs $((runs / 5)) --export-json "$work/wk1.$round.json" "$with" "$without" > /dev/null 2>&1
  jq -r '.results[0].times[] * 1000' "$work/wk1.$round.json" >> "$work/wk1.with"
  jq -r '.results[1].times[] * 1000' "$work/wk1.$round.json" >> "$work/wk1.without"
done
sleep 1 # the last wakes end
woken=$("$mailroom" --json wake-run | jq '.ran | length')
a=$(median < "$work/wk1.with")
b=$(median < "$work/wk1.without")
r=$(ratio "$a" "$b")
row WK1 "\`send --urgent\` p50 to a recipient with a wake target vs without ($a vs $b ms; $woken left to run)" \
  "${r}x" "<= 1.05x: $(verdict "$r" 1.05)"
