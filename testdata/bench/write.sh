#!/usr/bin/env bash
# The write half of make bench: P7 (send vs the sqlite3 shell), B6 (concurrent senders), P5/B7
# (check under 8 senders) and B11 (broadcast). Results go to the same results.tsv.
# Usage: write.sh <mailroom> <seed> <work dir> <out dir> <runs> <mr-timer> <small fixture store>
set -euo pipefail
mailroom=$1 seed=$2 work=$3 out=$4 runs=$5 timer=$6 fixture=$7
results="$out/results.tsv"
senders=${BENCH_SENDERS:-"2 8"}
per_sender=${BENCH_SENDS_PER_SENDER:-200}
load_seconds=${BENCH_LOAD_SECONDS:-20}
. "$(dirname "$0")/lib.sh"

"$seed" --print-sql send > "$work/send.sql"
"$seed" --print-sql count > "$work/count.sql"
now_ms=$(($(date +%s) * 1000))

# A private copy of the small fixture (its WAL is empty, so the file alone is the whole store).
fresh_store() {
  rm -f "$1" "$1-wal" "$1-shm"
  cp "$fixture" "$1"
}
s_send() { echo "sqlite3 -cmd \".timeout 5000\" -cmd \"PRAGMA synchronous=$2\" -cmd \".read $work/send.sql\" $1 .quit"; }
s_count() { echo "sqlite3 -readonly -cmd \".timeout 5000\" -cmd \".parameter set ?1 '$2'\" -cmd \".parameter set ?2 $now_ms\" -cmd \".read $work/count.sql\" $1 .quit"; }

# --- P7: one send per process, FULL (and NORMAL, for information) -----------------------------------
for sync in full normal; do
  db="$work/send-$sync.db"
  fresh_store "$db"
  printf '[store]\nsynchronous = "%s"\n' "$sync" > "$work/$sync.toml"
  upper=$(echo "$sync" | tr a-z A-Z)
  time_runs "p7-$sync" "$(s_send "$db" "$upper")" \
    "$mailroom --config $work/$sync.toml --db $db --as agent-001 send agent-002 -s bench -m hello"
  read -r s_p50 _ s_p99 _ < <(stats "$out/p7-$sync.json" 0)
  read -r m_p50 _ m_p99 _ < <(stats "$out/p7-$sync.json" 1)
  r=$(ratio "$m_p50" "$s_p50")
  if [ "$sync" = full ]; then
    record P7 "send p50 vs S (same rows, one transaction), synchronous=full ($m_p50 vs $s_p50 ms; p99 $m_p99 vs $s_p99)" "${r}x" "<= 1.0x" "$(verdict "$r" 1.0)"
  else
    record B5 "send p50 vs S, synchronous=normal ($m_p50 vs $s_p50 ms; p99 $m_p99 vs $s_p99)" "${r}x" "measured" info
  fi
done

# --- B6: N concurrent senders x M sends, mailroom and the shell ----------------------------------------
# run_senders N DB KIND: N concurrent loops of $per_sender sends; prints "seconds errors".
run_senders() {
  local n=$1 db=$2 kind=$3 errs="$work/errs.$3.$1" start end
  : > "$errs"
  start=$(date +%s%N)
  for s in $(seq "$n"); do
    if [ "$kind" = mailroom ]; then
      "$timer" -n "$per_sender" -o "$work/b6.$kind.$n.$s.tsv" -e "$errs" -- \
        "$mailroom" --db "$db" --as "agent-0$((s % 90 + 10))" send agent-001 -m "b6 $s" &
    else
      "$timer" -n "$per_sender" -o "$work/b6.$kind.$n.$s.tsv" -e "$errs" -- \
        sqlite3 -cmd ".timeout 5000" -cmd ".read $work/send.sql" "$db" .quit &
    fi
  done
  wait
  end=$(date +%s%N)
  local failed
  failed=$(cat "$work"/b6."$kind"."$n".*.tsv | awk '$5 != 0' | wc -l)
  echo "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }') $((failed + $(wc -l < "$errs")))"
}

for n in $senders; do
  db="$work/b6-m-$n.db"
  fresh_store "$db"
  before=$("$mailroom" --db "$db" --as agent-001 --json count | jq .total)
  read -r m_secs m_errs < <(run_senders "$n" "$db" mailroom)
  after=$("$mailroom" --db "$db" --as agent-001 --json count | jq .total)
  integrity=$(sqlite3 -readonly "$db" 'PRAGMA integrity_check')
  read -r _ _ send_p99 _ < <(cat "$work"/b6.mailroom."$n".*.tsv > "$work/b6.m.$n.all" && tsv_stats "$work/b6.m.$n.all" 1)
  sdb="$work/b6-s-$n.db"
  fresh_store "$sdb"
  read -r s_secs s_errs < <(run_senders "$n" "$sdb" sqlite)
  total=$((n * per_sender))
  m_tput=$(awk -v t="$total" -v s="$m_secs" 'BEGIN { printf "%.0f", t / s }')
  s_tput=$(awk -v t="$total" -v s="$s_secs" 'BEGIN { printf "%.0f", t / s }')
  r=$(ratio "$m_tput" "$s_tput")
  lost=$((total - (after - before)))
  v=met
  { ge "$r" 0.8 && [ "$m_errs" -eq 0 ] && [ "$lost" -eq 0 ] && [ "$integrity" = ok ]; } || v=missed
  record B6 "$n senders x $per_sender: $m_tput sends/s vs S $s_tput (S errors $s_errs); send p99 $send_p99 ms; errors $m_errs, lost $lost, integrity $integrity" "${r}x" ">= 0.8x, 0 errors, 0 lost" "$v"
done

# --- P5 / B7: check while 8 senders write -----------------------------------------------------------
# Idle first, then the same pollers (mailroom check and the shell's count, 20 Hz each) while 8
# senders write as fast as they can. mr-timer splits each run's time into on-CPU, waiting for a CPU
# (run queue) and blocked (locks, sleeps, I/O), from the kernel's scheduler statistics.
db="$work/load.db"
fresh_store "$db"
reader=agent-031
"$mailroom" --db "$db" --as "$reader" count > /dev/null # presence, and the WAL files
"$timer" -n "$runs" -o "$work/idle-check.tsv" -- "$mailroom" --db "$db" --as "$reader" check
eval "s_reader=($(s_count "$db" "$reader"))"
"$timer" -n "$runs" -o "$work/idle-s.tsv" -- "${s_reader[@]}"
before=$("$mailroom" --db "$db" --as "$reader" --json count | jq .total)
errs="$work/load.errs"
: > "$errs"
for s in $(seq 8); do
  "$timer" -d "$load_seconds" -o "$work/load-send.$s.tsv" -e "$errs" -- \
    "$mailroom" --db "$db" --as "agent-0$((s + 10))" send "$reader" -m "load $s" &
done
"$timer" -d "$load_seconds" -i 50 -o "$work/load-check.tsv" -e "$errs" -- "$mailroom" --db "$db" --as "$reader" check &
"$timer" -d "$load_seconds" -i 50 -o "$work/load-s.tsv" -- "${s_reader[@]}" &
max_wal=0
deadline=$(($(date +%s) + load_seconds))
while [ "$(date +%s)" -lt "$deadline" ]; do
  size=$(stat -c %s "$db-wal" 2> /dev/null || echo 0)
  [ "$size" -gt "$max_wal" ] && max_wal=$size
  sleep 0.1
done
wait
after=$("$mailroom" --db "$db" --as "$reader" --json count | jq .total)
cat "$work"/load-send.*.tsv > "$work/load-send.all"
sends=$(wc -l < "$work/load-send.all")
ok_sends=$(awk '$5 == 0' "$work/load-send.all" | wc -l)
failed=$(( (sends - ok_sends) + $(awk '$5 > 1' "$work/load-check.tsv" | wc -l) ))
errors=$((failed + $(wc -l < "$errs")))
stored=$((after - before))
integrity=$(sqlite3 -readonly "$db" 'PRAGMA integrity_check')
read -r idle_p50 _ idle_p99 _ < <(tsv_stats "$work/idle-check.tsv" 1)
read -r load_p50 _ load_p99 load_max < <(tsv_stats "$work/load-check.tsv" 1)
read -r s_idle_p50 _ _ _ < <(tsv_stats "$work/idle-s.tsv" 1)
read -r s_load_p50 _ s_load_p99 _ < <(tsv_stats "$work/load-s.tsv" 1)
read -r _ _ block_p99 block_max < <(tsv_stats "$work/load-check.tsv" 4)
read -r _ _ runq_p99 _ < <(tsv_stats "$work/load-check.tsv" 3)
read -r _ _ cpu_p99 _ < <(tsv_stats "$work/load-check.tsv" 2)
read -r _ _ s_block_p99 _ < <(tsv_stats "$work/load-s.tsv" 4)
blocked_runs=$(awk '$4 > 1000' "$work/load-check.tsv" | wc -l)
polls=$(wc -l < "$work/load-check.tsv")
r=$(ratio "$load_p99" "$idle_p50")
rs=$(ratio "$s_load_p99" "$s_idle_p50")
v=met
{ le "$r" 2.5 && le "$r" "$rs"; } || v=missed
record P5 "check p99 under 8 senders vs idle check p50 ($load_p99 vs $idle_p50 ms; loaded p50 $load_p50, max $load_max; $polls polls; S: $s_load_p99 vs $s_idle_p50 ms = ${rs}x)" "${r}x" "<= 2.5x and <= S ${rs}x" "$v"
record P5 "where check's p99 goes under load: on CPU $cpu_p99 ms, waiting for a CPU $runq_p99 ms, blocked $block_p99 ms (max $block_max; $blocked_runs of $polls polls blocked > 1 ms; S blocked p99 $s_block_p99 ms)" "$block_p99 ms blocked" "readers never wait" info
wal_mib=$(awk -v b="$max_wal" 'BEGIN { printf "%.2f", b / 1048576 }')
v=met
{ [ "$errors" -eq 0 ] && le "$wal_mib" 16 && [ "$stored" -eq "$ok_sends" ] && [ "$integrity" = ok ]; } || v=missed
record B7 "8 senders for ${load_seconds}s: $ok_sends sends acknowledged, $stored stored, errors $errors, integrity $integrity, max WAL ${wal_mib} MiB, WAL after $(stat -c %s "$db-wal") bytes" "${wal_mib} MiB" "0 errors, WAL <= 16 MiB" "$v"

# --- B11: a broadcast to 1,000 registered mailboxes (one transaction) -------------------------------
db="$work/b11.db"
rm -f "$db"
"$seed" --db "$db" --messages 1000 --mailboxes 1000 --unread 0.1 --body-bytes 400
hyperfine -N --warmup 3 --runs 30 --export-json "$out/b11.json" \
  "$mailroom --db $db --as agent-001 send agent-002 -m one" \
  "$mailroom --db $db --as agent-001 send @all -m everyone" > /dev/null
read -r one_p50 _ _ _ < <(stats "$out/b11.json" 0)
read -r all_p50 _ all_p99 _ < <(stats "$out/b11.json" 1)
got=$("$mailroom" --db "$db" --as agent-500 --json count | jq .total)
r=$(ratio "$all_p50" "$one_p50")
record B11 "send @all to 999 recipients p50 vs one recipient ($all_p50 vs $one_p50 ms; p99 $all_p99; agent-500 holds $got)" "${r}x" "measured" info
