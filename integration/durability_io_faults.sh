#!/usr/bin/env bash
# integration/durability_io_faults.sh: random injected I/O errors (libfiu) make sends fail loudly or
# succeed completely; no partial message, no acknowledged message missing, integrity ok.
. "$(dirname "$0")/common.sh"
command -v fiu-run > /dev/null || skip "fiu-run (fiu-utils) not installed"
[ "${MAILROOM_SANITIZED:-0}" = 0 ] || skip "libfiu's LD_PRELOAD cannot run before the sanitizer runtime"
command -v sqlite3 > /dev/null || skip "sqlite3 shell not installed"
runs=${MAILROOM_FIU_RUNS:-60}

mailroom agents add bob > /dev/null

# The injection works at all: with every read and write failing, a send must fail (exit 5). A run
# in which nothing could be injected (libfiu not preloaded, the calls renamed) fails here instead
# of passing with nothing tested.
set +e
fiu-run -x -c 'enable name=posix/io/rw/*' "$MAILROOM" send bob "always failing" > "$t/out.control" 2> "$t/err.control"
rc=$?
set -e
[ "$rc" -eq 5 ] || { echo "no fault was injected: a send with every I/O failing exited $rc" >&2; exit 1; }
rm "$t/out.control"

failures=0
for i in $(seq "$runs"); do
  set +e
  fiu-run -x -c 'enable_random name=posix/io/rw/*,probability=0.02' \
    "$MAILROOM" send bob "fault run $i" > "$t/out.$i" 2> "$t/err.$i"
  rc=$?
  set -e
  if [ "$rc" -eq 0 ]; then
    grep -q '^Sent message ' "$t/out.$i"
  else
    failures=$((failures + 1))
    # A failure never claims success and is one clear line (plus an optional hint).
    not grep -q '^Sent message ' "$t/out.$i"
    [ "$rc" -eq 5 ] || { echo "run $i: exit $rc" >&2; cat "$t/err.$i" >&2; exit 1; }
  fi
  [ "$(sqlite3 "$MAILROOM_DB" 'PRAGMA integrity_check')" = ok ]
done
echo "$failures of $runs sends failed under injected faults"
# Random faults at 2% of the calls fail some of 60 sends (each makes dozens of calls); none failing
# means none were injected, and nothing below would have been tested.
[ "$failures" -gt 0 ] || { echo "no send failed: were any faults injected?" >&2; exit 1; }

# Every acknowledged send is present, and nothing else is half there: each stored body is whole.
for id in $(cat "$t"/out.* | awk '/^Sent message / { print $3 }'); do
  body=$(mailroom --as bob --json peek "$id" | jq -r .message.body)
  [[ "$body" == "fault run "* ]]
done
acknowledged=$(cat "$t"/out.* | grep -c '^Sent message ' || true)
total=$(mailroom --as bob --json count | jq .total)
# Sends whose COMMIT succeeded but whose output failed may add messages nobody saw acknowledged,
# never fewer than acknowledged.
[ "$total" -ge "$acknowledged" ]
