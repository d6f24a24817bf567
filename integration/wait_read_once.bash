#!/usr/bin/env bash
# integration/wait_read_once.bash: sourced (after common.sh) by wait_read_once.sh and
# postgres_wait_read_once.sh, with mailboxes alice and bob registered on the store under test.
#
#   race_rounds   the rounds below; fails at the first double read

# One round: N waiters (`bob --json wait --read`) start together on N unread messages already
# there, so all look at the same first message at once; each must come back with its own.
race_round() {
  local n=$1 round=$2 i
  local pids=()
  for i in $(seq 1 "$n"); do
    mailroom --as alice send bob -s "round $round message $i" -m x > /dev/null
  done
  for i in $(seq 1 "$n"); do
    "$MAILROOM" --as bob --json wait --read --timeout 20s > "$t/round.$i.json" &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}"
  done
  for i in $(seq 1 "$n"); do
    jq -r .message.id "$t/round.$i.json"
  done | sort > "$t/round.ids"
  if [ "$(uniq "$t/round.ids" | wc -l)" != "$n" ] || grep -qx null "$t/round.ids"; then
    echo "round $round: $n waiters took $(uniq "$t/round.ids" | wc -l) distinct messages:" >&2
    cat "$t/round.ids" >&2
    return 1
  fi
  cat "$t/round.ids" >> "$t/all.ids"
}

# Waiters blocked before the send: one message, one winner; the loser times out with nothing.
blocked_round() {
  local round=$1
  "$MAILROOM" --as bob --json wait --read --timeout 2s > "$t/blocked.a.json" &
  local a=$!
  "$MAILROOM" --as bob --json wait --read --timeout 2s > "$t/blocked.b.json" &
  local b=$!
  sleep 0.3
  local id
  id=$(send_id --as alice bob -s "blocked round $round" -m x)
  local sa=0 sb=0
  wait "$a" || sa=$?
  wait "$b" || sb=$?
  # Exactly one got it (exit 0 with the id), the other waited on to its timeout (exit 1).
  [ "$((sa + sb))" = 1 ]
  jq -r '.message.id // "none"' "$t/blocked.a.json" "$t/blocked.b.json" | sort > "$t/blocked.ids"
  printf '%s\n' "$id" none | sort | diff - "$t/blocked.ids"
}

race_rounds() {
  # 40 rounds: half with two waiters, half with three.
  local rounds=20 blocked=2 round
  if [ "${MAILROOM_SANITIZED:-0}" = 1 ]; then rounds=5 blocked=1; fi
  : > "$t/all.ids"
  for round in $(seq 1 "$rounds"); do
    race_round 2 "$round"
    race_round 3 "$round"
  done
  # Every message taken exactly once, none left.
  [ "$(sort -u "$t/all.ids" | wc -l)" = "$((rounds * 5))" ]
  [ "$(mailroom --as bob --json count | jq .unread)" = 0 ]
  for round in $(seq 1 "$blocked"); do
    blocked_round "$round"
  done
  # --reply-to: the reply comes back to every waiter, whoever marked it read first.
  local asked
  asked=$(send_id --as bob alice --type task_request -s "sum 1 2" -m q)
  "$MAILROOM" --as bob --json wait --read --reply-to "$asked" --timeout 20s > "$t/reply.a.json" &
  local a=$!
  "$MAILROOM" --as bob --json wait --read --reply-to "$asked" --timeout 20s > "$t/reply.b.json" &
  local b=$!
  local answer
  answer=$(mailroom --as alice --json reply "$asked" -m 3 | jq -r .id)
  wait "$a"
  wait "$b"
  jq -e --arg id "$answer" '.message.id == $id' "$t/reply.a.json" "$t/reply.b.json" > /dev/null
  mailroom --as bob --json peek "$answer" | jq -e '.message.read' > /dev/null
}
