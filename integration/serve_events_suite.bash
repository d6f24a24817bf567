#!/usr/bin/env bash
# integration/serve_events_suite.bash: the event stream suite of serve_events.sh (SQLite) and
# postgres_serve_events.sh (PostgreSQL: LISTEN wakes the stream), sourced after common.sh and
# serve_common.bash with the store in $MAILROOM_DB.

mailroom agents add alice bob > /dev/null
serve_start
token=$(serve_token)
stream() { # stream FILE [CURL ARGS...]: an open stream into FILE, in the background
  local file=$1
  shift
  curl -sN -H "Authorization: Bearer $token" "$@" "$serve_base/api/v1/events" > "$file" &
}

[ "$(curl -s -o /dev/null -w '%{http_code}' "$serve_base/api/v1/events")" = 401 ]

stream "$t/live"
live=$!
wait_for "$t/live" '^: stream'
id=$(mailroom --as alice send bob "over the stream" --json | jq -r .id)
wait_for "$t/live" "\"id\":\"$id\""
grep -q '^event: mail.sent$' "$t/live"
data=$(grep -m1 "^data: .*\"$id\"" "$t/live" | sed 's/^data: //')
[ "$(jq -r .type <<< "$data")" = mail.sent ]
[ "$(jq -r .mailbox <<< "$data")" = bob ]
[ "$(jq -r .actor <<< "$data")" = alice ]
[ "$(jq -c 'keys' <<< "$data")" = '["actor","at","id","mailbox","seq","type"]' ]
seq=$(jq -r .seq <<< "$data")
grep -q "^id: $seq$" "$t/live"
mailroom --as bob read "$id" > /dev/null
wait_for "$t/live" '^event: mail.read$'
last=$(grep '^id: ' "$t/live" | tail -1 | sed 's/^id: //')
kill "$live"

# A restart: what happens while the server is down reaches a stream resumed with Last-Event-ID.
serve_stop && [ "$serve_status" = 143 ]
mailroom --as alice send bob "while down 1" > /dev/null
mailroom --as alice send bob "while down 2" > /dev/null
mailroom --as bob archive "$id" > /dev/null
serve_start
stream "$t/resumed" -H "Last-Event-ID: $last"
wait_for "$t/resumed" '^event: mail.archived$'
[ "$(grep -c '^event: ' "$t/resumed")" = 3 ]
grep '^id: ' "$t/resumed" | sed 's/^id: //' > "$t/ids"
[ "$(head -1 "$t/ids")" -gt "$last" ]
sort -n -c "$t/ids"
stream "$t/after" "-G" --data "after=$last"
wait_for "$t/after" '^event: mail.archived$'
[ "$(grep -c '^event: ' "$t/after")" = 3 ]
expect_status 400 GET /api/v1/events -H "Last-Event-ID: yesterday"

# 64 streams are served; one more is 503 too_many_streams. (Two are open already.)
for i in $(seq 3 64); do stream "$t/s$i"; done
for i in $(seq 3 64); do wait_for "$t/s$i" '^: stream'; done
expect_status 503 GET /api/v1/events
[ "$(jq_body .error.code)" = too_many_streams ]
mailroom --as alice send bob "to all 64" > /dev/null
wait_for "$t/s64" 'event: mail.sent'
serve_stop && [ "$serve_status" = 143 ]
echo ok
