#!/usr/bin/env bash
# The dashboard's first data on screen (docs/dashboard.md), in run.sh's conventions: markdown rows
# on stdout (and $BENCH_OUT/dashboard.md).
#   D1  page.goto(the login address `serve` prints) -> the Team panel's first row, on the largest
#       store, in Debian's chromium (p50 over the runs; each run a fresh `serve` and tab)   <= 500 ms
#       Beside it: the mailbox list's first row after a reload of #mailbox/agent-007/in (a new
#       document, signed in) and after the in-page switch to it.
# The browser is driven by testdata/bench/dashboard.mjs with integration/browser's playwright-core.
# Skipped (a row saying why, exit 0) without node >= 20, without that playwright-core (make deps),
# without /usr/bin/chromium or with a Chromium major outside the browser suite's tested range.
# Usage: testdata/bench/dashboard.sh <mailroom binary> [<seed binary>]
# Env: BENCH_RUNS (capped to 10; default 10), BENCH_OUT, BENCH_SIZES (its last size is used;
#      default 1000000; run.sh's fixture store in $BENCH_OUT/stores is reused, else one is seeded).
set -euo pipefail

mailroom=$(realpath "$1")
seed=$(realpath "${2:-$(dirname "$1")/mailroom-bench-seed}")
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
runs=${BENCH_RUNS:-10}
[ "$runs" -gt 10 ] && runs=10
sizes=${BENCH_SIZES:-"10000 100000 1000000"}
n=${sizes##* }
out=${BENCH_OUT:-$(dirname "$mailroom")/bench}
mkdir -p "$out"
results="$out/dashboard.tsv"
: > "$results"
for tool in jq awk timeout; do
  command -v "$tool" > /dev/null || { echo "bench: $tool is required (make deps)" >&2; exit 2; }
done
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >> "$results"; }
verdict() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }' && echo met || echo missed; }
table() {
  {
    echo "| id | measure | result | target | verdict |"
    echo "|---|---|---|---|---|"
    awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$results"
  } | tee "$out/dashboard.md"
}

# The browser suite's conditions (integration/browser/suite.bash holds the tested range).
skip_reason=""
suite="$repo/integration/browser/suite.bash"
tested_min=$(sed -n 's/^chromium_tested_min=\([0-9]*\)$/\1/p' "$suite")
tested_max=$(sed -n 's/^chromium_tested_max=\([0-9]*\)$/\1/p' "$suite")
[ -n "$tested_min" ] && [ -n "$tested_max" ] || { echo "bench: no tested Chromium range in $suite" >&2; exit 1; }
if ! command -v node > /dev/null; then
  skip_reason="no node on PATH (playwright-core needs node >= 20)"
elif [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  skip_reason="node $(node --version) is older than 20"
elif [ ! -d "$repo/integration/browser/node_modules/playwright-core" ]; then
  skip_reason="no playwright-core in integration/browser (make deps)"
elif [ ! -x /usr/bin/chromium ]; then
  skip_reason="no /usr/bin/chromium (make deps)"
else
  chromium_version=$(/usr/bin/chromium --version 2> /dev/null | grep -o 'Chromium [0-9.]*' | head -1 || true)
  major=$(echo "$chromium_version" | grep -o '[0-9]*' | head -1 || true)
  if [ -z "$major" ]; then
    skip_reason="cannot read the version of /usr/bin/chromium"
  elif [ "$major" -lt "$tested_min" ] || [ "$major" -gt "$tested_max" ]; then
    skip_reason="$chromium_version is outside the tested range $tested_min-$tested_max"
  fi
fi
if [ -n "$skip_reason" ]; then
  record D1 "first data on screen: skipped, $skip_reason" "-" "<= 500 ms" "skipped"
  table
  exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-bench-dashboard.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/fixture.sh"
bench_store "$work" "$out" "$n" "$seed"

MAILROOM="$mailroom" REPO="$repo" RUNS="$runs" WARMUP=1 BOX=agent-007 timeout 600 node "$here/dashboard.mjs" > d1.json
cp d1.json "$out/dashboard-d1.json"
read -r team team_max sw mbox mbox_max rows msgs < <(jq -r \
  '[.team_p50, .team_max, .switch_p50, .mailbox_p50, .mailbox_max, .team_rows, .message_rows] | @tsv' d1.json)
chromium_short=${chromium_version#Chromium }
record D1 "login address -> the Team panel's first row, $n msgs, p50 of $runs (max $team_max ms; $rows rows; Chromium $chromium_short)" \
  "$team ms" "<= 500 ms" "$(verdict "$team" 500)"
record D1 "#mailbox/agent-007/in reloaded (signed in) -> the message list's first row, $n msgs, p50 of $runs (max $mbox_max ms; $msgs rows; the in-page switch to it: $sw ms)" \
  "$mbox ms" "<= 500 ms" "$(verdict "$mbox" 500)"
table
