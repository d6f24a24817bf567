#!/usr/bin/env bash
# Waking idle agents (docs/wake.md), in run.sh's conventions: a ratio to a baseline measured in the
# same run, markdown rows on stdout.
#   WK1 `send --urgent` to a recipient with a wake target vs to one without     <= 1.05x wall
#       (the target is `true`, [wake] cooldown the default: the send records the wake in its own
#       transaction and starts the detached child only when the cooldown allows a wake now, so a
#       burst of mail to one agent starts one child; alternating rounds, p50 of each)
#   WK2 the same with `[wake] cooldown = "0s"`: every send starts the detached `wake-run` child  (no goal:
#       what starting the child costs the send)
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

setup() {
  mkdir -p "$1" && cd "$1"
  "$mailroom" init > /dev/null
  "$mailroom" agents add alice woken plain > /dev/null
  "$mailroom" agents set woken --wake true > /dev/null
}
setup "$work/ws2"
sed -i 's/^# cooldown = "60s"$/cooldown = "0s"/' mailroom.toml
setup "$work/ws"

echo "| id | figure | value | goal / verdict |"
echo "|---|---|---|---|"

# Alternating rounds of `send` to woken and to plain in the current workspace: the two p50s (ms) and
# how many wakes were left to run after a pause.
pair() {
  local tag=$1 with="$mailroom --as alice send woken --urgent wake-bench"
  local without="$mailroom --as alice send plain --urgent wake-bench"
  : > "$work/$tag.with"
  : > "$work/$tag.without"
  for round in 1 2 3 4 5; do
    hyperfine -N -i --warmup 5 --runs $((runs / 5)) --export-json "$work/$tag.$round.json" "$with" "$without" > /dev/null 2>&1
    jq -r '.results[0].times[] * 1000' "$work/$tag.$round.json" >> "$work/$tag.with"
    jq -r '.results[1].times[] * 1000' "$work/$tag.$round.json" >> "$work/$tag.without"
  done
  sleep 1 # the last wakes end
  left=$("$mailroom" --json wake-run | jq '.ran | length')
  a=$(median < "$work/$tag.with")
  b=$(median < "$work/$tag.without")
}

# --- WK1: send to a recipient with a wake target vs without -------------------------------------
cd "$work/ws"
pair wk1
r=$(ratio "$a" "$b")
row WK1 "\`send --urgent\` p50 to a recipient with a wake target vs without, default cooldown ($a vs $b ms; $left left to run)" \
  "${r}x" "<= 1.05x: $(verdict "$r" 1.05)"

# --- WK2: the same, every send starting the wake child -------------------------------------------
cd "$work/ws2"
pair wk2
r=$(ratio "$a" "$b")
row WK2 "the same with \`[wake] cooldown = \"0s\"\`: every send starts the detached wake child ($a vs $b ms)" \
  "${r}x" "no goal: the child's cost"
