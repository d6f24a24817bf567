#!/usr/bin/env bash
# integration/init_concurrent.sh: four `init`s started at once in one directory all succeed; none
# reports a truncated store or a malformed mailroom.toml, and the store they made works.
. "$(dirname "$0")/common.sh"
unset MAILROOM_DB
rounds=15
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && rounds=4
for round in $(seq "$rounds"); do
  dir="$t/ws$round"
  mkdir -p "$dir"
  pids=()
  for i in 1 2 3 4; do
    (cd "$dir" && exec "$MAILROOM" init > "$t/out.$round.$i" 2> "$t/err.$round.$i") &
    pids+=($!)
  done
  for i in 1 2 3 4; do
    rc=0
    wait "${pids[$((i - 1))]}" || rc=$?
    if [ "$rc" -ne 0 ]; then
      echo "round $round: init $i exited $rc" >&2
      cat "$t/err.$round.$i" >&2
      exit 1
    fi
  done
  not grep -l 'truncated' "$t"/err."$round".*
  [ "$(grep -l '^Initialised' "$t"/out."$round".* | wc -l)" -ge 1 ]
  (cd "$dir" && "$MAILROOM" agents add -q bob && "$MAILROOM" send bob -s "round $round" -m x -q)
  [ "$(cd "$dir" && "$MAILROOM" --as bob --json count | jq .total)" -eq 1 ]
  [ -z "$(find "$dir" -name 'mailroom.toml.*.tmp')" ]
done
