#!/usr/bin/env bash
# integration/serve_degraded_suite.bash: the degraded view of serve_degraded.sh (SQLite) and
# postgres_serve_degraded.sh (PostgreSQL), sourced after common.sh and serve_common.bash with the
# store in $MAILROOM_DB and `store_away` / `store_back` defined: while the store does not answer,
# every API request says so (503 store_error, never an empty all-clear) and every event stream
# gets `event: store` {"ok":false,…} (a new one at once); when it answers again, {"ok":true}, the
# requests answer again and the stream goes on.

mailroom agents add alice bob > /dev/null
mailroom --as alice send bob "before" "x" > /dev/null
serve_start
token=$(serve_token)

curl -sS -N -H "Authorization: Bearer $token" "$serve_base/api/v1/events" > "$t/events" &
wait_for "$t/events" '^: stream'
expect_status 200 GET /api/v1/team

store_away
wait_for "$t/events" '^data: {"error":{.*"code":"store_error".*},"ok":false}'
grep -B1 '"ok":false' "$t/events" | grep -q '^event: store'
for path in /api/v1/team /api/v1/mailboxes "/api/v1/mailboxes/bob/messages?box=in" /api/v1/peers; do
  expect_status 503 GET "$path"
  [ "$(jq_body .error.code)" = store_error ]
  [ -n "$(jq_body .error.message)" ]
done
expect_status 503 POST /api/v1/messages -d '{"to":"bob","body":"while away"}'
# A stream opened now learns of it at once.
curl -sS -N --max-time 3 -H "Authorization: Bearer $token" "$serve_base/api/v1/events" > "$t/late" || true
grep -q '"ok":false' "$t/late"

store_back
wait_for "$t/events" '^data: {"ok":true}'
expect_status 200 GET /api/v1/team
[ "$(jq_body '.mailboxes | length')" -ge 2 ]
mailroom --as alice send bob "after" "y" > /dev/null
wait_for "$t/events" '^event: mail.sent'
serve_stop && [ "$serve_status" = 143 ]
