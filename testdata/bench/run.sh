#!/usr/bin/env bash
# make bench: times mailroom against baselines measured in the same run on the same machine and
# prints one table of ratios (issue #13 P1-P8; BENCHMARKS.md explains each row).
#   F0 = a static C program that returns 0 (the cost of spawning any process)
#   S  = the sqlite3 shell running the same SQL on the same file (read-only for reads, as mailroom)
# Usage: testdata/bench/run.sh <mailroom binary> [<seed binary>]
# Env: BENCH_RUNS (default 300), BENCH_SIZES (default "10000 100000 1000000"), BENCH_OUT (results
#      dir), BENCH_RESEED=1 (rebuild the cached fixture stores), BENCH_LOAD_SECONDS (default 20),
#      BENCH_SKIP (names of feature scripts not to run, e.g. "views postgres": run them alone).
# Then runs, when present, testdata/bench/{exec,health,reqresp,requests,views,postgres,hook_budget,previews,mcp,mcp_notify,several_hosts,http,events,stream,dashboard,killed_writer,schedules,wake}.sh (added by other
# branches) and prints their rows: exec.sh's in this table, the others' as their own tables below.
set -euo pipefail

mailroom=$(realpath "$1")
# The page cache a linker leaves holds the binary in 4 KiB pages; cp (copy_file_range) fills it
# in large folios, as `make install` does, and start-up page faults then cost less. Rewriting the
# binary once here times the state an installed copy starts in. (CMake's own copy writes 4 KiB at
# a time.)
cp -- "$mailroom" "$mailroom.copy" && mv -f -- "$mailroom.copy" "$mailroom"
seed=$(realpath "${2:-$(dirname "$1")/mailroom-bench-seed}")
here=$(cd "$(dirname "$0")" && pwd)
runs=${BENCH_RUNS:-300}
sizes=${BENCH_SIZES:-"10000 100000 1000000"}
out=${BENCH_OUT:-$(dirname "$mailroom")/bench}
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
chmod 0700 "$out"
results="$out/results.tsv"
: > "$results"
started=$(date +%s)

for tool in hyperfine sqlite3 jq cc strace; do
  command -v "$tool" > /dev/null || { echo "bench: $tool is required (make deps)" >&2; exit 2; }
done

. "$here/lib.sh"

# --- baselines and helpers ---------------------------------------------------------------------

printf 'int main(void) { return 0; }\n' > "$work/f0.c"
cc -O2 -static "$work/f0.c" -o "$work/f0"
f0="$work/f0"
cc -O2 -Wall "$here/timer.c" -o "$work/mr-timer"
timer="$work/mr-timer"

# Fixture stores (100 mailboxes, 10% unread, 400-byte bodies, ANALYZE) are cached in $out/stores
# and rebuilt when the seeder or its arguments change; benchmarks that write use copies.
stores="$out/stores"
mkdir -p "$stores"
chmod 0700 "$stores"
seed_key=$(sha256sum < "$seed" | cut -c1-16)
for n in $sizes; do
  db="$stores/store-$n.db"
  key="$seed_key n=$n m=100 u=0.1 b=400"
  if [ "${BENCH_RESEED:-0}" = 1 ] || [ ! -f "$db" ] || [ "$(cat "$db.key" 2> /dev/null)" != "$key" ]; then
    rm -f "$db" "$db-wal" "$db-shm" "$db.key"
    t0=$(date +%s.%N)
    "$seed" --db "$db" --messages "$n" --mailboxes 100 --unread 0.1 --body-bytes 400
    sync "$db" # on disk before anything is timed
    t1=$(date +%s.%N)
    echo "$key" > "$db.key"
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    mib=$(awk -v b="$(stat -c %s "$db")" 'BEGIN { printf "%.0f", b / 1048576 }')
    record seed "seeded $n messages in $secs s ($mib MiB; rows through the store's triggers)" "$secs s" "measured" info
  fi
done
largest=${sizes##* }
smallest=${sizes%% *}
middle=$(echo "$sizes" | awk '{ print (NF >= 2 ? $2 : $1) }')
db="$stores/store-$largest.db"
mid="$stores/store-$middle.db"
small="$stores/store-$smallest.db"
box=agent-007
now_ms=$(($(date +%s) * 1000))

# The exact SQL the store runs (printed by the seeder from the store's own constants), with its
# parameters bound by the sqlite3 shell. hyperfine -N splits commands like a POSIX shell.
"$seed" --print-sql count > "$work/count.sql"
"$seed" --print-sql inbox > "$work/inbox.sql"
s_count() { echo "sqlite3 -readonly -cmd \".parameter set ?1 '$box'\" -cmd \".parameter set ?2 $now_ms\" -cmd \".read $work/count.sql\" $1 .quit"; }
s_inbox() { echo "sqlite3 -readonly -cmd \".parameter set ?1 '$box'\" -cmd \".parameter set ?2 $now_ms\" -cmd \".parameter set ?3 4096\" -cmd \".parameter set ?4 50\" -cmd \".read $work/inbox.sql\" $1 .quit"; }
m() { echo "$mailroom --db $1 --as $box $2"; }

# --- P1: --version ---------------------------------------------------------------------------------
time_runs p1 "$f0" "$mailroom --version"
read -r f0_p50 _ f0_p99 _ < <(stats "$out/p1.json" 0)
read -r ver_p50 _ ver_p99 _ < <(stats "$out/p1.json" 1)
r=$(ratio "$ver_p50" "$f0_p50")
record P1 "--version p50 vs F0 p50 ($ver_p50 vs $f0_p50 ms; p99 $ver_p99 vs $f0_p99)" "${r}x" "<= 1.15x" "$(verdict "$r" 1.15)"

# --- P2, P3, P4, P6: the read paths on every size, F0 in the same series ---------------------------
for n in $sizes; do
  s="$stores/store-$n.db"
  time_runs "read-$n" "$f0" "$(m "$s" count)" "$(m "$s" check)" "$(m "$s" "check --inject")" \
    "$(m "$s" "inbox --limit 50")" "$(s_count "$s")" "$(s_inbox "$s")"
done
p50() { stats "$out/read-$1.json" "$2" | cut -f1; }
p99() { stats "$out/read-$1.json" "$2" | cut -f3; }

f0m=$(p50 "$middle" 0)
ck=$(p50 "$middle" 2)
d=$(diff_ms "$ck" "$f0m")
record P2 "check p50 minus F0 p50, $middle msgs ($ck - $f0m ms; check p99 $(p99 "$middle" 2))" "$d ms" "<= 0.5 ms" "$(verdict "$d" 0.5)"
ki=$(p50 "$middle" 3)
record P2 "check --inject p50 minus F0 p50, $middle msgs ($ki - $f0m ms)" "$(diff_ms "$ki" "$f0m") ms" "measured" info

# Issue #10: the Claude Code hook form with a real UserPromptSubmit payload on stdin, against plain
# check fed the same bytes (it ignores them), in alternating rounds of mr-timer on one store.
payload="$here/../hooks/claude/user_prompt_submit.json"
: > "$out/hook-plain.tsv"
: > "$out/hook-claude.tsv"
for _ in 1 2 3 4 5; do
  "$timer" -o "$work/t.tsv" -n $((runs / 5)) -s "$payload" -- $(m "$mid" check) && cat "$work/t.tsv" >> "$out/hook-plain.tsv"
  "$timer" -o "$work/t.tsv" -n $((runs / 5)) -s "$payload" -- $(m "$mid" "check --hook-format claude") &&
    cat "$work/t.tsv" >> "$out/hook-claude.tsv"
done
hp=$(tsv_stats "$out/hook-plain.tsv" 1 | cut -f1)
hc=$(tsv_stats "$out/hook-claude.tsv" 1 | cut -f1)
d=$(diff_ms "$hc" "$hp")
record P2 "check --hook-format claude (payload on stdin) p50 minus check p50, $middle msgs ($hc - $hp ms)" "$d ms" "<= 0.3 ms" "$(verdict "$d" 0.3)"

for n in $(printf '%s\n' "$largest" "$middle" | sort -u); do
  c=$(p50 "$n" 1) sc=$(p50 "$n" 5)
  r=$(ratio "$c" "$sc")
  record P3 "count p50 vs S, $n msgs ($c vs $sc ms; p99 $(p99 "$n" 1) vs $(p99 "$n" 5))" "${r}x" "<= 0.6x" "$(verdict "$r" 0.6)"
done
c=$(p50 "$largest" 1)
f0l=$(p50 "$largest" 0)
record B1 "count p50 minus F0 p50, $largest msgs ($c - $f0l ms)" "$(diff_ms "$c" "$f0l") ms" "<= 1.5 ms" "$(verdict "$(diff_ms "$c" "$f0l")" 1.5)"

for pair in "count 1" "check 2" "inbox 4"; do
  set -- $pair
  lo=$(p50 "$smallest" "$2") hi=$(p50 "$largest" "$2")
  r=$(ratio "$hi" "$lo")
  target=1.10
  id=P4
  [ "$1" = inbox ] && { target=1.2; id=B3; }
  record "$id" "$1 p50 at $largest vs $smallest ($hi vs $lo ms)" "${r}x" "<= ${target}x" "$(verdict "$r" "$target")"
done

i=$(p50 "$largest" 4) si=$(p50 "$largest" 6)
r=$(ratio "$i" "$c")
record P6 "inbox --limit 50 p50 vs count p50, $largest msgs ($i vs $c ms; p99 $(p99 "$largest" 4))" "${r}x" "<= 1.3x" "$(verdict "$r" 1.3)"
r=$(ratio "$i" "$si")
record B4 "inbox --limit 50 p50 vs S, $largest msgs ($i vs $si ms)" "${r}x" "<= 1.2x" "$(verdict "$r" 1.2)"

# --- P8: files created, removed or written by read-only commands (strace) ---------------------------
bash "$here/churn.sh" "$mailroom" "$mid" "$box" "$out" "$results"

# --- P7, P5 and the write figures ----------------------------------------------------------------
bash "$here/write.sh" "$mailroom" "$seed" "$work" "$out" "$runs" "$timer" "$small"

# --- the feature scripts other branches add, when present ---------------------------------------
# exec.sh appends its rows to this table; the others print their own markdown table (their columns
# differ), kept in $out/<name>.section.md and printed below this one under their name. They find
# their helper binaries beside the mailroom binary. A script that fails is a row saying so.
sections=()
for name in exec health reqresp requests views postgres hook_budget previews mcp mcp_notify several_hosts http events stream dashboard killed_writer schedules wake hook_order; do
  script="$here/$name.sh"
  [ -f "$script" ] || continue
  case " ${BENCH_SKIP:-} " in *" $name "*)
    echo "bench: skipping $name.sh (BENCH_SKIP)" >&2
    continue
    ;;
  esac
  echo "bench: running $name.sh" >&2
  rc=0
  case $name in
    exec) BENCH_OUT="$out" bash "$script" "$mailroom" "$results" "$out" "$runs" >&2 || rc=$? ;;
    health | schedules | hook_order) BENCH_OUT="$out" bash "$script" "$mailroom" "$seed" > "$out/$name.section.md" || rc=$? ;;
    *) BENCH_OUT="$out" bash "$script" "$mailroom" > "$out/$name.section.md" || rc=$? ;;
  esac
  if [ "$rc" -ne 0 ]; then
    record "$name" "$name.sh failed (exit $rc; its log is above)" "-" "-" "failed"
  elif [ "$name" != exec ]; then
    sections+=("$name")
  fi
done

# --- table -----------------------------------------------------------------------------------------
elapsed=$(($(date +%s) - started))
{
  echo "| id | measure | result | target | verdict |"
  echo "|---|---|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$results"
  for name in "${sections[@]}"; do
    echo
    echo "### $name.sh"
    echo
    grep '^|' "$out/$name.section.md" || echo "($name.sh printed no rows)"
  done
  echo
  echo "make bench: ${elapsed} s on $(nproc) CPUs ($(uname -r), $(sqlite3 --version | cut -d' ' -f1)), $(date -u +%Y-%m-%dT%H:%MZ)"
} | tee "$out/results.md"
