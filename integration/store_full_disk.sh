#!/usr/bin/env bash
# integration/store_full_disk.sh: on a full disk a send fails with exit 5 and says "no space
# left" naming the store, nothing half-written is left (the log it wrote is cut away again, so the
# disk is no fuller than before it), and commands that only read keep working.
. "$(dirname "$0")/common.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root to mount a tmpfs"
mkdir -p "$t/small"
mount -t tmpfs -o size=3m,mode=0700 tmpfs "$t/small" 2> /dev/null || skip "cannot mount tmpfs here"
trap 'umount "$t/small" 2> /dev/null || true' EXIT
export MAILROOM_DB="$t/small/mail.db"
(cd "$t/setup" && mailroom init > /dev/null)
mailroom agents add bob > /dev/null
mailroom send bob "before the disk filled" > /dev/null

# 27 KB bodies fill the 3 MiB disk in a few dozen sends; each commit is checkpointed away, so the
# log is empty before the send that fails.
body=$(head -c 20000 /dev/urandom | base64 -w0)
rc=0
wal_size() { stat -c %s "$MAILROOM_DB-wal" 2> /dev/null || echo 0; }
for i in $(seq 200); do
  before=$(wal_size)
  "$MAILROOM" send bob "$i $body" > /dev/null 2> "$t/err" || { rc=$?; break; }
done
[ "$rc" -eq 5 ] || { echo "expected exit 5 once the disk is full, got $rc" >&2; exit 1; }
[ "$(wc -l < "$t/err")" -eq 2 ] # the error and its hint
grep -q "^mailroom send: no space left on device for store \"$MAILROOM_DB\" ($t/small has .* free); nothing was stored$" "$t/err" ||
  { cat "$t/err" >&2; exit 1; }
grep -q '^hint: ' "$t/err"
# The failed write gave its space back (store.md "Reads keep working"): a log that was empty before
# it is empty again. (One that still held an earlier commit's frames, which the full disk kept from
# the database file, keeps them and the failed frames after them until a write succeeds.)
no_fuller() { [ "$1" -ne 0 ] || [ "$(wal_size)" -eq 0 ] || { echo "-wal grew from 0 to $(wal_size) bytes" >&2; ls -l "$t/small" >&2; exit 1; }; }
no_fuller "$before"
[ "$before" -eq 0 ] # the usual case, which this send was: cut back to 0 bytes
stored=$(mailroom --as bob --json count | jq .total)

# Fill what is left to the last byte, then read: every read-only command still works.
head -c 2000000 /dev/zero > "$t/small/filler" 2> /dev/null || true
[ "$(df --output=avail "$t/small" | tail -1)" -eq 0 ]
expect_exit 0 mailroom --as bob count > "$t/count"
grep -q "^$stored total" "$t/count"
expect_exit 0 mailroom --as bob check > /dev/null
expect_exit 0 mailroom --as bob --json inbox > "$t/inbox"
[ "$(jq '.messages | length' "$t/inbox")" -ge 1 ]
id=$(jq -r '.messages[0].id' "$t/inbox")
expect_exit 0 mailroom --as bob peek "$id" > /dev/null
mailroom --as bob --json check --inject > /dev/null

# A write still fails cleanly, and works again once there is room.
before=$(wal_size)
expect_exit 5 mailroom send bob "while full" 2> "$t/err2"
grep -q 'no space left on device' "$t/err2"
no_fuller "$before"
rm "$t/small/filler"
mount -o remount,size=8m "$t/small"
expect_exit 0 mailroom send bob "after the disk was full" > /dev/null
[ "$(mailroom --as bob --json count | jq .total)" -eq $((stored + 1)) ]
[ "$(sqlite3 "$MAILROOM_DB" 'PRAGMA integrity_check')" = ok ]
