#!/usr/bin/env bash
# integration/store_no_churn.sh: in the steady state a command that only reads creates, deletes,
# renames, truncates and writes no file (issue #13.1, P8): the WAL and its index persist between
# processes, and every writer leaves the WAL empty for the readers that follow.
. "$(dirname "$0")/common.sh"
command -v strace > /dev/null || skip "strace is not installed"
# Under ASan (make asan sets ASAN_OPTIONS) the leak check at exit opens pipes on descriptor numbers
# the store's files had, and writes to them: the trace can no longer tell whose writes they are.
[ -z "${ASAN_OPTIONS:-}" ] || skip "ASan's exit-time leak check reuses the store's descriptors"

mailroom agents add bob > /dev/null
id=$(send_id bob "hello")
mailroom --as bob count > /dev/null # presence: the first read of a minute records last_seen
# Writes left both files in place, and the WAL empty.
[ -f "$MAILROOM_DB-wal" ] && [ -f "$MAILROOM_DB-shm" ]
[ "$(stat -c %s "$MAILROOM_DB-wal")" -eq 0 ]

files() { stat -c '%n %i %s %y' "$MAILROOM_DB" "$MAILROOM_DB-wal" "$MAILROOM_DB-shm"; }
# Syscalls that create, remove, rename or shrink files (openat with O_CREAT is checked by the
# listing: it may name a file that exists).
changes='unlink|unlinkat|rename|renameat|renameat2|mkdir|mkdirat|rmdir|link|linkat|symlink|symlinkat|creat|truncate|ftruncate'
n=0
# `agents` is left out: the command table opens the store read-write for it (listing included).
for command in "count" "check" "check --inject" "inbox" "peek $id" "thread $id" "status $id"; do
  n=$((n + 1))
  before=$(files)
  # shellcheck disable=SC2086 # the command is words on purpose
  strace -f -qq -o "$t/trace.$n" -e trace=%file,%desc,ftruncate,truncate "$MAILROOM" --as bob $command > /dev/null 2>&1 || true
  after=$(files)
  if [ "$before" != "$after" ]; then
    echo "'$command' changed the store's files:" >&2
    diff <(echo "$before") <(echo "$after") >&2 || true
    exit 1
  fi
  if grep -E "^[0-9]+ +($changes)\(" "$t/trace.$n" >&2; then
    echo "'$command' created, removed or truncated a file (above)" >&2
    exit 1
  fi
  # Nothing is written to the store's files: find the descriptors they were opened on.
  fds=$(grep -E "open(at)?\(.*mail\.db(-wal|-shm)?\"" "$t/trace.$n" | sed -nE 's/.*= ([0-9]+)$/\1/p' | sort -u)
  for fd in $fds; do
    if grep -E "^[0-9]+ +(write|pwrite64|writev|pwritev|pwritev2)\($fd," "$t/trace.$n" >&2; then
      echo "'$command' wrote to a store file (fd $fd, above)" >&2
      exit 1
    fi
  done
done
