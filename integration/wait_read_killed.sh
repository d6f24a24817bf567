#!/usr/bin/env bash
# integration/wait_read_killed.sh: `wait --read` marks a message read only once it has written it
# (request-response.md "Waiting"). Killed with SIGKILL while blocked writing a large message to a
# reader that does not read, it leaves the message unread (held from other waiters until the
# take's lease runs out); stopped with SIGTERM it lets it go once its write fails. Another waiter
# passes over a held message and takes the next one.
. "$(dirname "$0")/common.sh"
mailroom agents add alice bob > /dev/null
head -c 300000 /dev/zero | tr '\0' x > "$t/big.txt"
mkfifo "$t/out.fifo"

# block: a `wait --read` whose output is a pipe nobody reads; sets $waiter and $reader.
block() {
  (
    exec 3< "$t/out.fifo"
    exec sleep 30
  ) &
  reader=$!
  "$MAILROOM" --as bob --json wait --read --timeout 30s > "$t/out.fifo" 2> /dev/null &
  waiter=$!
}
unread() { mailroom --as bob --json count | jq .unread; }
# taken ID: waits (up to 30 s) until a waiter has taken ID: it holds it, or has marked it read.
taken() {
  for _ in $(seq 300); do
    mailroom --as bob --json status "$1" | jq -e '.recipients[0] | .claim != null or .read_at != null' > /dev/null && return 0
    sleep 0.1
  done
  echo "no waiter took $1" >&2
  return 1
}

block
first=$(send_id --as alice bob -s "big job" --body-file "$t/big.txt")
# The waiter has taken it and is stuck writing: still unread for everyone.
taken "$first"
[ "$(unread)" -eq 1 ]

# Another waiter passes over the held message and takes the next one.
mailroom --as bob --json wait --read --timeout 30s > "$t/second.json" &
other=$!
sleep 1
second=$(send_id --as alice bob -s "small job" -m "small")
wait "$other"
[ "$(jq -r .message.id "$t/second.json")" = "$second" ]

kill -KILL "$waiter"
wait "$waiter" 2> /dev/null || true
kill "$reader" 2> /dev/null || true
wait "$reader" 2> /dev/null || true
# Killed before its mark: the message is unread, and held until the take's lease runs out.
[ "$(unread)" -eq 1 ]
[ "$(mailroom --as bob --json inbox | jq -r '.messages[0].id')" = "$first" ]
expect_exit 1 mailroom --as bob --json wait --read --timeout 1s > /dev/null 2>&1

# SIGTERM while blocked: the write goes on until the pipe closes; then exit 143, and the message
# is let go at once (unread, held by nobody).
mailroom --as bob mark-read "$first" > /dev/null
third=$(send_id --as alice bob -s "third job" --body-file "$t/big.txt")
block
taken "$third"
kill -TERM "$waiter"
sleep 0.2
kill "$reader" 2> /dev/null || true
wait "$reader" 2> /dev/null || true
rc=0
wait "$waiter" || rc=$?
[ "$rc" -eq 143 ]
mailroom --as bob --json status "$third" | jq -e '.recipients[0].claim == null' > /dev/null
[ "$(unread)" -eq 1 ]
[ "$(mailroom --as bob --json wait --read --timeout 5s | jq -r .message.id)" = "$third" ]
[ "$(unread)" -eq 0 ]
