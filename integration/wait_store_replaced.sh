#!/usr/bin/env bash
# integration/wait_store_replaced.sh: a SQLite store deleted or replaced under a waiter (its file
# at the store path is another file now, or none) ends `wait`, `send --wait-reply` and `watch`
# with exit 5 and a message saying so, instead of waiting forever on the old file.
. "$(dirname "$0")/common.sh"
export MAILROOM_DB="$t/store/mail.db"
(cd "$t/setup" && mailroom init > /dev/null)
mailroom agents add alice bob > /dev/null

# armed PID: waits (at most 20 s) until PID has the store open twice, its connection and its change
# signal's: from then on the waiter knows which file it reads, so a file put at the path later is a
# replacement. A fixed sleep was not enough for a slow start (ASan on a loaded machine).
armed() {
  local pid=$1 opened
  for _ in $(seq 1 400); do
    opened=$(find "/proc/$pid/fd" -lname "$MAILROOM_DB" 2> /dev/null | wc -l)
    [ "$opened" -ge 2 ] && return 0
    sleep 0.05
  done
  echo "armed: $pid did not open its change signal within 20 s" >&2
  return 1
}

# expect_store_gone PID ERRFILE WHAT: PID exits 5 within 10 s, saying the store WHAT.
expect_store_gone() {
  local pid=$1 err=$2 what=$3 status=0
  for _ in $(seq 1 200); do kill -0 "$pid" 2> /dev/null || break; sleep 0.05; done
  if kill -0 "$pid" 2> /dev/null; then
    kill "$pid"
    echo "still waiting 10 s after the store $what" >&2
    return 1
  fi
  wait "$pid" || status=$?
  [ "$status" = 5 ]
  grep -q "the store at $MAILROOM_DB $what while waiting" "$err"
}

# Replaced: another file put at the store path (a backup restored over it: same content, a new
# inode) under a waiter and a send --wait-reply.
"$MAILROOM" --as bob wait --type notification 2> "$t/wait.err" &
waiter=$!
"$MAILROOM" --as alice send bob --type task_request -s q -m q --wait-reply 2> "$t/asked.err" > /dev/null &
asker=$!
armed "$waiter"
armed "$asker"
cp "$t/store/mail.db" "$t/store/mail.db.restored"
mv "$t/store/mail.db.restored" "$t/store/mail.db"
expect_store_gone "$waiter" "$t/wait.err" "was replaced by another file"
expect_store_gone "$asker" "$t/asked.err" "was replaced by another file"

# Moved away: the store directory moved and a new store made at the same path, with mail for the
# waiter there. It is gone the moment the directory moves.
"$MAILROOM" --as bob wait --type notification 2> "$t/moved.err" &
waiter=$!
armed "$waiter"
mv "$t/store" "$t/store.old"
(cd "$t/setup" && mailroom init > /dev/null)
mailroom agents add alice bob > /dev/null
mailroom --as alice send bob --type notification -s new -m x > /dev/null
expect_store_gone "$waiter" "$t/moved.err" "was deleted or moved away"

# Deleted: the files removed under a waiter and a watcher.
"$MAILROOM" --as bob wait --type cron_task 2> "$t/deleted.err" &
waiter=$!
"$MAILROOM" --as bob watch --type cron_task --exec true 2> "$t/watch.err" > /dev/null &
watcher=$!
armed "$waiter"
armed "$watcher"
rm -f "$t/store/mail.db" "$t/store/mail.db-wal" "$t/store/mail.db-shm"
expect_store_gone "$waiter" "$t/deleted.err" "was deleted or moved away"
expect_store_gone "$watcher" "$t/watch.err" "was deleted or moved away"
