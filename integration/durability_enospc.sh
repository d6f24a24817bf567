#!/usr/bin/env bash
# integration/durability_enospc.sh: a full disk fails sends with exit 5 and a clear message; every
# acknowledged message survives and the store stays intact.
. "$(dirname "$0")/common.sh"
command -v sqlite3 > /dev/null || skip "sqlite3 shell not installed"
[ "$(id -u)" -eq 0 ] || skip "needs root to mount a tmpfs"
mkdir -p "$t/small"
mount -t tmpfs -o size=1m,mode=0700 tmpfs "$t/small" 2> /dev/null || skip "cannot mount tmpfs here"
trap 'umount "$t/small" 2> /dev/null || true' EXIT
export MAILROOM_DB="$t/small/mail.db"
(cd "$t/setup" && mailroom init > /dev/null)

mailroom agents add bob > /dev/null
# 40 KB bodies fill the 1 MiB disk in a few dozen sends.
body=$(head -c 40000 /dev/zero | tr '\0' 'x')
failed_rc=""
for i in $(seq 200); do
  rc=0
  "$MAILROOM" send bob "$i $body" > "$t/out.$i" 2> "$t/err.$i" || rc=$?
  if [ "$rc" -ne 0 ]; then
    failed_rc=$rc
    break
  fi
done
[ -n "$failed_rc" ] || { echo "the disk never filled" >&2; exit 1; }
[ "$failed_rc" -eq 5 ] || { echo "expected exit 5, got $failed_rc" >&2; cat "$t/err.$i" >&2; exit 1; }
[ "$(wc -l < "$t/err.$i")" -ge 1 ]
grep -q '^mailroom send: ' "$t/err.$i"

# Give the disk room again, then every acknowledged message must be there, once, intact.
mount -o remount,size=8m "$t/small"
[ "$(sqlite3 "$MAILROOM_DB" 'PRAGMA integrity_check')" = ok ]
acknowledged=$(cat "$t"/out.* | grep -c '^Sent message ' || true)
[ "$(mailroom --as bob --json count | jq .total)" -eq "$acknowledged" ]
for id in $(cat "$t"/out.* | awk '/^Sent message / { print $3 }' | tail -5); do
  expect_exit 0 mailroom --as bob peek "$id" > /dev/null
done
# And the store works again.
expect_exit 0 mailroom send bob "after the disk was full" > /dev/null
