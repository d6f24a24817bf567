#!/usr/bin/env bash
# integration/store_killed_writer.sh: a writer (send, reply, watch, mcp) killed with SIGKILL at any
# moment never silences the readers: after every kill, count, check --inject and inbox answer at
# once (not after SQLite's 10 s of retries, as when a killed writer left a -wal of only its header)
# and agree with each other, and the store is intact at the end (docs/store.md "A writer killed at
# the wrong moment"). The full 500 kills are testdata/bench/killed_writer.sh in make bench.
. "$(dirname "$0")/common.sh"
# shellcheck source=integration/killed_writer.bash
. "$integration_dir/killed_writer.bash"
command -v sqlite3 > /dev/null || skip "sqlite3 shell not installed"
default_kills=40
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && default_kills=24
kills=${MAILROOM_KILLS:-$default_kills}
mailroom agents add alice bob carol > /dev/null

# A reader's normal time on this machine, now: the bound below is ten times that (at least 3 s),
# far under the 10 s a stuck reader spun for.
start=$(kw_now_ms)
for _ in 1 2 3; do mailroom --as bob count > /dev/null; done
normal=$((($(kw_now_ms) - start) / 3))
bound=$((normal * 10 > 3000 ? normal * 10 : 3000))

killed_writer_loop "$kills" "$t/times"
slowest=$(sort -k4,4n "$t/times" | tail -1)
echo "$kills kills: $(wc -l < "$t/times") reader runs, normal ${normal} ms, slowest: $slowest"
awk -v bound="$bound" '$4 > bound { print "too slow after kill #" $1 " (" $2 "): " $3 " took " $4 " ms, bound " bound " ms"; bad = 1 }
  END { exit bad }' "$t/times" >&2
[ "$(sqlite3 "$MAILROOM_DB" 'PRAGMA integrity_check')" = ok ]
