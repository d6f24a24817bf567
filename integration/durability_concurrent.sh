#!/usr/bin/env bash
# integration/durability_concurrent.sh: 8 processes sending at once, with check pollers running,
# lose nothing and see no lock errors.
. "$(dirname "$0")/common.sh"
senders=8
default_sends=50
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && default_sends=8
per_sender=${MAILROOM_CONCURRENT_SENDS:-$default_sends}

mailroom agents add bob $(for s in $(seq "$senders"); do echo "sender$s"; done) > /dev/null
for s in $(seq "$senders"); do
  (
    for i in $(seq "$per_sender"); do
      "$MAILROOM" --as "sender$s" send bob "from $s number $i" > /dev/null 2>> "$t/errors" || echo "send exit $?" >> "$t/errors"
    done
  ) &
done
for p in 1 2; do
  (
    for i in $(seq $((per_sender * 4 / 5))); do
      "$MAILROOM" --as bob check > /dev/null 2>> "$t/errors"
      rc=$?
      [ "$rc" -le 1 ] || echo "check exit $rc" >> "$t/errors"
    done
  ) &
done
wait

if [ -s "$t/errors" ]; then
  cat "$t/errors" >&2
  exit 1
fi
expected=$((senders * per_sender))
[ "$(mailroom --as bob --json count | jq .unread)" -eq "$expected" ]
[ "$(mailroom --as bob --json inbox --no-limit | jq '.messages | length')" -eq "$expected" ]
if command -v sqlite3 > /dev/null; then
  [ "$(sqlite3 "$MAILROOM_DB" 'PRAGMA integrity_check')" = ok ]
fi
