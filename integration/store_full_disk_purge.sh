#!/usr/bin/env bash
# integration/store_full_disk_purge.sh: on a disk full to the last byte, `purge` cannot start (its
# changes go to the write-ahead log first), and says exactly how much room is enough and what to
# run; with that much freed it purges, and new mail fits in the space it freed inside the store.
# (Other files fill the disk here, as they usually do: the hint's room is at most the store's size.)
. "$(dirname "$0")/common.sh"
command -v sqlite3 > /dev/null || skip "sqlite3 shell not installed"
[ "$(id -u)" -eq 0 ] || skip "needs root to mount a tmpfs"
mkdir -p "$t/small"
mount -t tmpfs -o size=4m,mode=0700 tmpfs "$t/small" 2> /dev/null || skip "cannot mount tmpfs here"
trap 'umount "$t/small" 2> /dev/null || true' EXIT
export MAILROOM_DB="$t/small/mail.db"
(cd "$t/setup" && mailroom init > /dev/null)
mailroom agents add bob > /dev/null

body=$(head -c 40000 /dev/zero | tr '\0' 'x')
for i in $(seq 8); do mailroom send bob "$i $body" > /dev/null; done
for id in $(mailroom --as bob --json inbox | jq -r '.messages[].id'); do mailroom --as bob archive "$id" > /dev/null; done
# Fill the disk to the last byte.
head -c 8000000 /dev/zero > "$t/small/filler" 2> /dev/null || true
[ "$(df --output=avail "$t/small" | tail -1)" -eq 0 ]

expect_exit 5 mailroom purge --archived --older-than 0s 2> "$t/err"
grep -q '^mailroom purge: no space left on device for store' "$t/err" || { cat "$t/err" >&2; exit 1; }
grep -q "^hint: free [0-9]* KiB on the store's filesystem .*then run 'mailroom purge --archived --older-than 0s' again" "$t/err" ||
  { cat "$t/err" >&2; exit 1; }
need_kib=$(sed -nE "s/^hint: free ([0-9]+) KiB.*/\1/p" "$t/err")

# Free exactly that much, and the purge works.
rm "$t/small/filler"
avail_kib=$(df --output=avail -k "$t/small" | tail -1)
head -c $(((avail_kib - need_kib) / 4 * 4 * 1024)) /dev/zero > "$t/small/filler"
[ "$(df --output=avail -k "$t/small" | tail -1)" -ge "$need_kib" ]
expect_exit 0 mailroom purge --archived --older-than 0s > "$t/out" 2> "$t/err" || { cat "$t/err" >&2; exit 1; }
grep -q '^Purged 8 message' "$t/out"
[ "$(sqlite3 "$MAILROOM_DB" 'PRAGMA integrity_check')" = ok ]
# The pages it freed take new mail without the file growing.
size=$(stat -c %s "$MAILROOM_DB")
expect_exit 0 mailroom send bob "after the purge $body" > /dev/null
[ "$(stat -c %s "$MAILROOM_DB")" -le "$size" ]
