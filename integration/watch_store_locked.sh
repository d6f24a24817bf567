#!/usr/bin/env bash
# integration/watch_store_locked.sh: watch survives a store that another process holds locked for
# longer than the busy timeout when it starts: it waits with backoff (a warning per try), then
# handles what is waiting; a missing store is not waited for (exit 5 at once).
. "$(dirname "$0")/common.sh"
command -v sqlite3 > /dev/null || skip "sqlite3 is not installed"
mailroom agents add boss worker > /dev/null
id=$(send_id --as boss worker --type task_request "while locked")
printf '[store]\nbusy_timeout_ms = 50\n' > "$t/short.toml"
# Exclusive locking mode: even readers wait. The lock is held until watch has warned that the
# store is locked (closing the control fifo ends the locker), so a slow start of watch on a
# loaded machine cannot miss it.
mkfifo "$t/lockctl"
(printf 'PRAGMA locking_mode=EXCLUSIVE;\nBEGIN EXCLUSIVE;\nCOMMIT;\nBEGIN EXCLUSIVE;\n'; cat "$t/lockctl") |
  sqlite3 "$MAILROOM_DB" > /dev/null 2>&1 &
locker=$!
exec 7> "$t/lockctl"
for _ in $(seq 200); do
  sqlite3 "$MAILROOM_DB" 'SELECT count(*) FROM sqlite_master' > /dev/null 2>&1 || break
  sleep 0.05
done
"$MAILROOM" --config "$t/short.toml" --as worker watch --once --exec tr a-z A-Z > "$t/watch.out" 2> "$t/watch.err" 7>&- &
watcher=$!
for _ in $(seq 600); do
  grep -q "warning: opening the store: database is locked" "$t/watch.err" && break
  sleep 0.05
done
exec 7>&-
wait "$locker" || true
wait "$watcher"
grep -q "warning: opening the store: database is locked" "$t/watch.err"
grep -q "^Done $id$" "$t/watch.out"
mailroom --as boss --json wait --reply-to "$id" --timeout 5s | jq -e '.message.body == "WHILE LOCKED"' > /dev/null

expect_exit 5 mailroom --db "$t/nowhere.db" --as worker watch --once --exec true 2> "$t/missing.err"
grep -q "no store at" "$t/missing.err"
