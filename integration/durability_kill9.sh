#!/usr/bin/env bash
# integration/durability_kill9.sh: sends killed at random moments lose nothing they acknowledged,
# the store stays intact, and retrying with the same idempotency keys adds no duplicate.
. "$(dirname "$0")/common.sh"
command -v sqlite3 > /dev/null || skip "sqlite3 shell not installed"
default_iterations=200
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && default_iterations=40
iterations=${MAILROOM_KILL9_ITERATIONS:-$default_iterations}

mailroom agents add bob > /dev/null
for i in $(seq "$iterations"); do
  : > "$t/ack.$i"
  "$MAILROOM" send bob "kill9 message $i" --idempotency-key "k$i" > "$t/ack.$i" 2> /dev/null &
  pid=$!
  sleep "0.00$((RANDOM % 8))"
  kill -9 "$pid" 2> /dev/null || true
  wait "$pid" 2> /dev/null || true
done

[ "$(sqlite3 "$MAILROOM_DB" 'PRAGMA integrity_check')" = ok ]

acknowledged=0
for i in $(seq "$iterations"); do
  id=$(awk '/^Sent message / { print $3 }' "$t/ack.$i")
  if [ -n "$id" ]; then
    acknowledged=$((acknowledged + 1))
    expect_exit 0 mailroom --as bob peek "$id" > /dev/null
  fi
done
echo "acknowledged $acknowledged of $iterations"

# Retry every send with its key: the committed ones replay, the rest are stored once.
for i in $(seq "$iterations"); do
  mailroom send bob "kill9 message $i" --idempotency-key "k$i" > /dev/null
done
total=$(mailroom --as bob --json count | jq .total)
[ "$total" -eq "$iterations" ] || { echo "expected $iterations messages, found $total" >&2; exit 1; }
[ "$(sqlite3 "$MAILROOM_DB" 'PRAGMA integrity_check')" = ok ]
