#!/usr/bin/env bash
# P8 of make bench: files created, removed, renamed, truncated or written by read-only commands,
# counted with strace on the fixture store (after one command, so presence is fresh).
# Usage: churn.sh <mailroom> <store> <mailbox> <out dir> <results.tsv>
set -euo pipefail
mailroom=$1 db=$2 box=$3 out=$4 results=$5
runs=1
. "$(dirname "$0")/lib.sh"

"$mailroom" --db "$db" --as "$box" count > /dev/null
files() { stat -c '%n %i %s %y' "$db" "$db-wal" "$db-shm" 2> /dev/null || true; }
changes='unlink|unlinkat|rename|renameat|renameat2|mkdir|mkdirat|rmdir|creat|truncate|ftruncate'
created=0 removed=0 written=0 traced=0
commands=("count" "check" "check --inject" "inbox --limit 50")
for command in "${commands[@]}"; do
  for i in 1 2 3; do
    before=$(files)
    trace="$out/p8.$traced.strace"
    # shellcheck disable=SC2086
    strace -f -qq -o "$trace" -e trace=%file,%desc,ftruncate,truncate "$mailroom" --db "$db" --as "$box" $command > /dev/null 2>&1 || true
    after=$(files)
    traced=$((traced + 1))
    # A file that is new, or whose inode changed, was created.
    created=$((created + $(comm -13 <(echo "$before" | awk '{ print $1, $2 }' | sort) <(echo "$after" | awk '{ print $1, $2 }' | sort) | wc -l)))
    removed=$((removed + $(grep -cE "^[0-9]+ +($changes)\(" "$trace" || true)))
    for fd in $(grep -E "open(at)?\(.*\.db(-wal|-shm)?\"" "$trace" | sed -nE 's/.*= ([0-9]+)$/\1/p' | sort -u); do
      written=$((written + $(grep -cE "^[0-9]+ +(write|pwrite64|writev|pwritev|pwritev2)\($fd," "$trace" || true)))
    done
  done
done
total=$((created + removed + written))
v=met
[ "$total" -eq 0 ] || v=missed
record P8 "files created $created, unlinked/renamed/truncated $removed, writes to store files $written, over $traced read-only runs (${commands[*]}; strace)" "$total" "0" "$v"
