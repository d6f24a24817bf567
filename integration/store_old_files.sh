#!/usr/bin/env bash
# integration/store_old_files.sh: a store last closed by an older mailroom or the sqlite3 shell
# (no -wal and -shm files) still works for a command that only reads: the first one creates the
# files once, and from then on they persist.
. "$(dirname "$0")/common.sh"
command -v sqlite3 > /dev/null || skip "sqlite3 shell not installed"
mailroom agents add bob > /dev/null
mailroom send bob "kept" > /dev/null
sqlite3 "$MAILROOM_DB" 'PRAGMA wal_checkpoint(TRUNCATE)' > /dev/null # the shell deletes both on close
[ ! -e "$MAILROOM_DB-wal" ] && [ ! -e "$MAILROOM_DB-shm" ]
[ "$(mailroom --as bob --json count | jq .total)" = 1 ]
[ -f "$MAILROOM_DB-wal" ] && [ -f "$MAILROOM_DB-shm" ]
inodes=$(stat -c %i "$MAILROOM_DB-wal" "$MAILROOM_DB-shm")
mailroom --as bob inbox > /dev/null
mailroom send bob "more" > /dev/null
[ "$(mailroom --as bob --json count | jq .total)" = 2 ]
[ "$(stat -c %i "$MAILROOM_DB-wal" "$MAILROOM_DB-shm")" = "$inodes" ]
