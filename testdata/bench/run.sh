#!/usr/bin/env bash
# make bench: times mailroom against baselines measured in the same run on the same machine and
# prints one table of ratios (reference/reliability.md §3).
#   F0 = a static C program that returns 0 (the cost of spawning any process)
#   S  = the sqlite3 shell running the same SQL on the same file
# Usage: testdata/bench/run.sh <mailroom binary> [<seed binary>]
# Env: BENCH_RUNS (default 300), BENCH_SIZES (default "10000 100000 1000000"), BENCH_OUT (results dir).
set -euo pipefail

mailroom=$(realpath "$1")
seed=$(realpath "${2:-$(dirname "$1")/mailroom-bench-seed}")
runs=${BENCH_RUNS:-300}
sizes=${BENCH_SIZES:-"10000 100000 1000000"}
out=${BENCH_OUT:-$(dirname "$mailroom")/bench}
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
results="$out/results.tsv"
: > "$results"

for tool in hyperfine sqlite3 jq cc; do
  command -v "$tool" > /dev/null || { echo "bench: $tool is required (make deps)" >&2; exit 2; }
done

# --- helpers -----------------------------------------------------------------------------------

# stats FILE.json INDEX -> "p50 p90 p99 max" in milliseconds for command INDEX of a hyperfine export.
stats() {
  jq -r --argjson i "$2" '.results[$i].times | sort | map(. * 1000) as $t | ($t | length) as $n
    | [$t[($n * 0.50 | floor)], $t[($n * 0.90 | floor)], $t[([($n * 0.99 | floor), $n - 1] | min)], $t[$n - 1]]
    | map(. * 1000 | round / 1000) | @tsv' "$1"
}

# time_pair NAME CMD_A CMD_B: hyperfine both (no shell), keep the JSON.
time_pair() {
  local name=$1
  shift
  hyperfine -N --warmup 20 --runs "$runs" --export-json "$out/$name.json" "$@" > /dev/null 2>&1 ||
    hyperfine -N --warmup 20 --runs "$runs" --export-json "$out/$name.json" "$@" > "$out/$name.log" 2>&1
}

# record ID TEXT VALUE TARGET VERDICT
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >> "$results"; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
verdict() { if le "$1" "$2"; then echo met; else echo missed; fi; }

# --- baselines ---------------------------------------------------------------------------------

printf 'int main(void) { return 0; }\n' > "$work/f0.c"
cc -O2 -static "$work/f0.c" -o "$work/f0"
f0="$work/f0"

echo "seeding stores: $sizes (100 mailboxes, 10% unread, 400-byte bodies)" >&2
for n in $sizes; do
  "$seed" --db "$work/store-$n.db" --messages "$n" --mailboxes 100 --unread 0.1 --body-bytes 400 > /dev/null
done
largest=${sizes##* }
smallest=${sizes%% *}
db="$work/store-$largest.db"
box=agent-007

# The exact SQL the store runs (printed by the seeder from the store's own constants), with its
# parameters bound by the sqlite3 shell. hyperfine -N splits commands like a POSIX shell.
"$seed" --print-sql count > "$work/count.sql"
"$seed" --print-sql inbox > "$work/inbox.sql"
sqlite_count="sqlite3 -cmd \".parameter set ?1 '$box'\" -cmd \".read $work/count.sql\" $db .quit"
sqlite_inbox="sqlite3 -cmd \".parameter set ?1 '$box'\" -cmd \".parameter set ?2 50\" -cmd \".read $work/inbox.sql\" $db .quit"

# --- B10: --version ------------------------------------------------------------------------------
time_pair b10 "$f0" "$mailroom --version"
read -r f0_p50 _ f0_p99 _ < <(stats "$out/b10.json" 0)
read -r ver_p50 _ _ _ < <(stats "$out/b10.json" 1)
r=$(ratio "$ver_p50" "$f0_p50")
record B10 "--version p50 vs F0 ($ver_p50 ms vs $f0_p50 ms)" "${r}x" "<= 1.3x" "$(verdict "$r" 1.3)"

# --- B1: count on the largest store ------------------------------------------------------------
time_pair b1 "$sqlite_count" "$mailroom --db $db --as $box count"
read -r s_p50 _ s_p99 _ < <(stats "$out/b1.json" 0)
read -r c_p50 c_p90 c_p99 c_max < <(stats "$out/b1.json" 1)
r=$(ratio "$c_p50" "$s_p50")
record B1 "count p50 vs S, $largest msgs ($c_p50 vs $s_p50 ms; p90 $c_p90, max $c_max)" "${r}x" "<= 1.0x" "$(verdict "$r" 1.1)"
floor=$(awk -v a="$c_p50" -v b="$f0_p50" 'BEGIN { printf "%.2f", a - b }')
record B1 "count p50 minus F0 p50" "${floor} ms" "<= 1.5 ms" "$(verdict "$floor" 1.65)"
r=$(ratio "$c_p99" "$s_p99")
record B1 "count p99 vs S p99 ($c_p99 vs $s_p99 ms)" "${r}x" "<= 1.5x" "$(verdict "$r" 1.65)"

# --- B2: check (the hook path) ----------------------------------------------------------------
time_pair b2 "$mailroom --db $db --as $box count" "$mailroom --db $db --as $box check --inject"
read -r b1_p50 _ _ _ < <(stats "$out/b2.json" 0)
read -r k_p50 _ k_p99 _ < <(stats "$out/b2.json" 1)
r=$(ratio "$k_p50" "$b1_p50")
record B2 "check --inject p50 vs count ($k_p50 vs $b1_p50 ms; p99 $k_p99)" "${r}x" "<= 1.05x" "$(verdict "$r" 1.155)"

# --- B4: inbox, 50 rows ---------------------------------------------------------------------------
time_pair b4 "$sqlite_inbox" "$mailroom --db $db --as $box inbox --limit 50"
read -r si_p50 _ _ _ < <(stats "$out/b4.json" 0)
read -r i_p50 _ i_p99 _ < <(stats "$out/b4.json" 1)
r=$(ratio "$i_p50" "$si_p50")
record B4 "inbox --limit 50 p50 vs S ($i_p50 vs $si_p50 ms; p99 $i_p99)" "${r}x" "<= 1.2x" "$(verdict "$r" 1.32)"
r=$(ratio "$i_p50" "$c_p50")
record B4 "inbox p50 vs count p50" "${r}x" "<= 1.3x" "$(verdict "$r" 1.43)"

# --- B3: slope smallest -> largest ------------------------------------------------------------------
small="$work/store-$smallest.db"
time_pair b3 "$mailroom --db $small --as $box count" "$mailroom --db $db --as $box count" \
  "$mailroom --db $small --as $box inbox --limit 50" "$mailroom --db $db --as $box inbox --limit 50" \
  "$mailroom --db $small --as $box check" "$mailroom --db $db --as $box check"
for pair in "count 0 1" "inbox 2 3" "check 4 5"; do
  set -- $pair
  read -r lo _ _ _ < <(stats "$out/b3.json" "$2")
  read -r hi _ _ _ < <(stats "$out/b3.json" "$3")
  r=$(ratio "$hi" "$lo")
  record B3 "$1 p50 at $largest vs $smallest ($hi vs $lo ms)" "${r}x" "<= 1.2x" "$(verdict "$r" 1.32)"
done

bash "$(dirname "$0")/write.sh" "$mailroom" "$seed" "$work" "$out" "$runs"

# --- BE: the exec provider vs a direct run of the script (exec.sh) ----------------------------------
bash "$(dirname "$0")/exec.sh" "$mailroom" "$results" "$out" "$runs"

# --- table ------------------------------------------------------------------------------------------
{
  echo "| id | measure | result | target | verdict |"
  echo "|---|---|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$results"
} | tee "$out/results.md"
