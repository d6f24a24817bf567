#!/usr/bin/env bash
# integration/watch_sigterm.sh: SIGTERM to watch mid-handler asks the handler to stop (SIGTERM to
# its process group), releases the claim and exits 143; the next watcher takes the message at once,
# with no attempt counted against it.
. "$(dirname "$0")/common.sh"
mailroom agents add boss worker > /dev/null
id=$(send_id --as boss worker "job")
export T="$t"
cat > "$t/slow.sh" <<'SH'
#!/bin/sh
trap 'echo stopped >> "$T/log"; exit 1' TERM
echo started >> "$T/log"
while :; do sleep 0.05; done
SH
chmod +x "$t/slow.sh"
"$MAILROOM" --as worker watch --exec "$t/slow.sh" > /dev/null &
watcher=$!
for _ in $(seq 1 200); do grep -q started "$t/log" 2> /dev/null && break; sleep 0.05; done
kill -TERM "$watcher"
status=0
wait "$watcher" || status=$?
[ "$status" = 143 ]
grep -q stopped "$t/log"
mailroom --as worker --json watch --once --exec true > "$t/next.out"
jq -s -e '.[0].event == "claimed" and .[0].attempt == 1 and .[1].event == "done"' "$t/next.out" > /dev/null
