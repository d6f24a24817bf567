#!/usr/bin/env bash
# integration/postgres_multihost.sh: two "hosts" (processes with their own directories and
# configs) on one PostgreSQL store. Both initialise at once; 8 concurrent senders on each send 40
# messages with idempotency keys while readers poll, then send the first fifth again with the same
# keys: nothing is lost, nothing is stored twice, every order and count agrees on both hosts.
. "$(dirname "$0")/common.sh"
. "$integration_dir/pg_common.bash"
senders=8
per_sender=${MAILROOM_PG_SENDS:-40}
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && per_sender=10
replays=$((per_sender / 5))
unset MAILROOM_DB # each host finds the store through its own mailroom.toml

h1=$(host_dir host1)
h2=$(host_dir host2)
(cd "$h1" && mailroom init > /dev/null) &
(cd "$h2" && mailroom init > /dev/null) &
wait
[ "$(pg_sql "SELECT count(*) FROM mailroom_schema")" -eq 1 ]

names=$(for h in 1 2; do for s in $(seq "$senders"); do echo "h${h}s$s"; done; done)
(cd "$h1" && mailroom agents add bob $names > /dev/null)

# send_all HOST_DIR HOST FIRST LAST: every sender of HOST sends messages FIRST..LAST to bob.
send_all() {
  local dir=$1 h=$2 first=$3 last=$4
  for s in $(seq "$senders"); do
    (
      cd "$dir"
      for i in $(seq "$first" "$last"); do
        "$MAILROOM" --as "h${h}s$s" --json send bob "from h${h}s$s number $i" --idempotency-key "k-h${h}s$s-$i" \
          >> "$t/sent.h${h}s$s" 2>> "$t/errors" || echo "send h${h}s$s $i exit $?" >> "$t/errors"
      done
    ) &
  done
}

send_all "$h1" 1 1 "$per_sender"
send_all "$h2" 2 1 "$per_sender"
for dir in "$h1" "$h2"; do
  (
    cd "$dir"
    for _ in $(seq 20); do
      rc=0
      "$MAILROOM" --as bob check > /dev/null 2>> "$t/errors" || rc=$?
      [ "$rc" -le 1 ] || echo "check exit $rc" >> "$t/errors"
    done
  ) &
done
wait
# The same keys again, from the other host this time: replays, not new messages.
send_all "$h2" 1 1 "$replays"
send_all "$h1" 2 1 "$replays"
wait

if [ -s "$t/errors" ]; then
  cat "$t/errors" >&2
  exit 1
fi
expected=$((2 * senders * per_sender))
[ "$(pg_sql "SELECT count(*) FROM beads")" -eq "$expected" ]
[ "$(pg_sql "SELECT count(DISTINCT subject) FROM beads")" -eq "$expected" ]
[ "$(pg_sql "SELECT count(*) FROM deliveries WHERE recipient = 'bob'")" -eq "$expected" ]
[ "$(pg_sql "SELECT count(*) FROM idempotency_keys")" -eq "$expected" ]
# Every id a send printed is stored, and a replay printed the id of the first send.
cat "$t"/sent.* | jq -r .id | sort > "$t/printed"
[ "$(sort -u "$t/printed" | wc -l)" -eq "$expected" ]
[ "$(wc -l < "$t/printed")" -eq $((expected + 2 * senders * replays)) ]
[ "$(cat "$t"/sent.* | jq -r 'select(.replayed == true) | .id' | wc -l)" -eq $((2 * senders * replays)) ]
pg_sql "SELECT id FROM beads ORDER BY id" | diff - <(sort -u "$t/printed")
for dir in "$h1" "$h2"; do
  (
    cd "$dir"
    [ "$(mailroom --as bob --json count | jq .unread)" -eq "$expected" ]
    mailroom --as bob --json inbox --no-limit | jq -r '.messages[].id' > "$t/inbox.$(basename "$dir")"
  )
done
cmp "$t/inbox.host1" "$t/inbox.host2"
[ "$(wc -l < "$t/inbox.host1")" -eq "$expected" ]
