#!/usr/bin/env bash
# integration/watch_two_watchers.sh: two watchers on one mailbox share 200 messages; each message
# is handled exactly once and every one ends read.
. "$(dirname "$0")/common.sh"
mailroom agents add boss worker > /dev/null
count=200
if [ "${MAILROOM_SANITIZED:-0}" = 1 ]; then count=40; fi
for i in $(seq 1 "$count"); do
  mailroom --as boss send worker "job $i" > /dev/null
done
export LOG="$t/handled.log"
handler=(sh -c 'printf "%s %s\n" "$MAILROOM_ID" "$WATCHER" >> "$LOG"')
WATCHER=a "$MAILROOM" --as worker watch --once --exec "${handler[@]}" > "$t/a.out" &
a=$!
WATCHER=b "$MAILROOM" --as worker watch --once --exec "${handler[@]}" > "$t/b.out" &
b=$!
wait "$a"
wait "$b"
[ "$(wc -l < "$LOG")" = "$count" ]
[ "$(cut -d' ' -f1 "$LOG" | sort -u | wc -l)" = "$count" ]
[ "$(mailroom --as worker --json count | jq .unread)" = 0 ]
mailroom --as worker --json inbox --all --no-limit | jq -r '.messages[].id' | sort > "$t/all.ids"
cut -d' ' -f1 "$LOG" | sort > "$t/handled.ids"
diff "$t/all.ids" "$t/handled.ids"
echo "watcher a handled $(grep -c ' a$' "$LOG"), b handled $(grep -c ' b$' "$LOG")" >&2
