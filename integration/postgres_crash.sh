#!/usr/bin/env bash
# integration/postgres_crash.sh: the server is killed (pg_ctl stop -m immediate) while senders on
# two hosts run, then started again (crash recovery). While it is down every command fails cleanly
# (exit 5, one line naming the host; check --inject silent, exit 0); afterwards everything works,
# nothing a send acknowledged is lost, nothing is half stored, and sending the failed ones again
# with their idempotency keys stores each exactly once.
. "$(dirname "$0")/common.sh"
. "$integration_dir/pg_common.bash"
unset MAILROOM_DB

h1=$(host_dir host1)
h2=$(host_dir host2)
cd "$h1"
mailroom init > /dev/null
mailroom agents add bob s1 s2 s3 s4 > /dev/null

# sender NAME DIR: sends until $t/stop exists; one line per send in $t/log.NAME: i exit-status id.
sender() {
  local name=$1 dir=$2 i=0 rc id
  cd "$dir"
  while [ ! -e "$t/stop" ]; do
    i=$((i + 1))
    rc=0
    id=$("$MAILROOM" --as "$name" --json send bob "$name $i" --idempotency-key "$name-$i" 2>> "$t/err.$name" | jq -r .id) || rc=$?
    echo "$i $rc ${id:-none}" >> "$t/log.$name"
  done
}
sender s1 "$h1" &
sender s2 "$h1" &
sender s3 "$h2" &
sender s4 "$h2" &

sleep 1
pg_halt
sleep 1
# Down: clean failures on both hosts.
for dir in "$h1" "$h2"; do
  cd "$dir"
  expect_exit 5 mailroom --as bob count 2> "$t/down.err"
  grep -q "^mailroom count: cannot connect to postgresql at \"$pg_dir:5432/mail\"" "$t/down.err"
  [ "$(grep -vc '^hint: ' "$t/down.err")" -eq 1 ]
  mailroom --as bob check --inject > "$t/down.out" 2> /dev/null
  [ ! -s "$t/down.out" ]
done
pg_resume
sleep 1
touch "$t/stop"
wait
cd "$h1"

cat "$t"/log.* > "$t/all"
# Every send either succeeded or was exit 5 with one line on stderr.
awk '$2 != 0 && $2 != 5 { print "unexpected exit: " $0; bad = 1 } END { exit bad }' "$t/all"
failed=$(awk '$2 == 5' "$t/all" | wc -l)
[ "$failed" -gt 0 ] || { echo "no send failed while the server was down" >&2; exit 1; }
# (--json: one error object per failed send, its message naming the server.)
for f in "$t"/err.*; do
  [ "$(jq -r .error.message "$f" | grep -vc "postgresql at \"$pg_dir:5432/mail\"")" -eq 0 ] ||
    { echo "unclear error in $f" >&2; exit 1; }
  [ "$(wc -l < "$f")" -eq "$(awk '$2 == 5' "$t/log.${f##*.}" | wc -l)" ]
done
# Nothing acknowledged is lost.
awk '$2 == 0 { print $3 }' "$t/all" | sort > "$t/acked"
pg_sql "SELECT id FROM beads" | sort > "$t/stored"
[ -z "$(comm -23 "$t/acked" "$t/stored")" ]
# Nothing is half stored: every message has its delivery, every key its message.
[ "$(pg_sql "SELECT count(*) FROM beads b WHERE NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.message = b.seq)")" -eq 0 ]
[ "$(pg_sql "SELECT count(*) FROM beads")" -eq "$(pg_sql "SELECT count(*) FROM idempotency_keys")" ]
# The failed sends, again with their keys: each ends up stored exactly once.
for name in s1 s2 s3 s4; do
  awk '$2 == 5 { print $1 }' "$t/log.$name" | while read -r i; do
    mailroom --as "$name" send bob "$name $i" --idempotency-key "$name-$i" > /dev/null
  done
done
total=$(wc -l < "$t/all")
[ "$(pg_sql "SELECT count(*) FROM beads")" -eq "$total" ]
[ "$(pg_sql "SELECT count(DISTINCT subject) FROM beads")" -eq "$total" ]
[ "$(mailroom --as bob --json count | jq .unread)" -eq "$total" ]
