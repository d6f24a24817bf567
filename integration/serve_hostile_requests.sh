#!/usr/bin/env bash
# mailroom serve against hostile requests (reliability round 4, findings 10 and 11): a second Host,
# Origin, Authorization or Last-Event-ID header is 400 and changes nothing; an unknown key in a
# POST body (a typo'd "priorty") or an unknown query parameter is 400 naming it and sends nothing;
# a Last-Event-ID past the newest event gets a reset, one that is not a seq a 400. A stop with
# connections open ends cleanly.
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/serve_common.bash"

mailroom agents add alice bob carol > /dev/null
serve_start
token=$(serve_token)

# raw REQUEST: sends REQUEST (\n becomes CRLF) on a new connection; prints the status line's code
# (the whole answer is in $t/raw).
raw() {
  local fd
  exec {fd}<> "/dev/tcp/127.0.0.1/$serve_port"
  printf '%s' "${1//$'\n'/$'\r\n'}" >&"$fd"
  timeout 10 cat <&"$fd" > "$t/raw" || true
  exec {fd}>&-
  sed -n '1s/^HTTP\/1\.1 \([0-9]*\) .*/\1/p' "$t/raw"
}

body='{"to":"bob","body":"two origins"}'
# Finding 10: two Host headers (good, then evil) and two Origin headers (good, then evil).
[ "$(raw "GET /api/v1/team HTTP/1.1
Host: 127.0.0.1:$serve_port
Host: evil.example
Authorization: Bearer $token
Connection: close

")" = 400 ]
grep -q '"code":"usage"' "$t/raw"
grep -q 'the request has more than one Host header' "$t/raw"
[ "$(raw "POST /api/v1/messages HTTP/1.1
Host: 127.0.0.1:$serve_port
Origin: http://127.0.0.1:$serve_port
Origin: http://evil.example
Authorization: Bearer $token
Content-Type: application/json
Content-Length: ${#body}
Connection: close

$body")" = 400 ]
[ "$(raw "GET /api/v1/team HTTP/1.1
Host: 127.0.0.1:$serve_port
Authorization: Bearer $token
Authorization: Bearer wrong
Connection: close

")" = 400 ]
# One evil Origin stays 403; one good Host and Origin still work.
[ "$(raw "POST /api/v1/messages HTTP/1.1
Host: 127.0.0.1:$serve_port
Origin: http://evil.example
Authorization: Bearer $token
Content-Type: application/json
Content-Length: ${#body}
Connection: close

$body")" = 403 ]
[ "$(mailroom --as bob count --json | jq .total)" = 0 ] # none of them sent anything
expect_status 200 GET /api/v1/team -H "Origin: http://127.0.0.1:$serve_port"

# Finding 11: unknown keys in a POST body are refused, naming the key and the closest one.
expect_status 400 POST /api/v1/messages \
  -d '{"to":"bob","body":"x","priorty":"urgent","subjct":"deploy","from":"carol"}'
[ "$(jq_body .error.code)" = usage ]
[ "$(jq_body .error.message)" = 'unknown arguments "from", "priorty", "subjct"' ]
[ "$(jq_body .error.hint)" = 'did you mean "priority" (not "priorty"), "subject" (not "subjct")?' ]
expect_status 400 POST /api/v1/messages -d '{"to":"bob","body":"x","priorty":"urgent"}'
[ "$(jq_body .error.message)" = 'unknown argument "priorty"' ]
[ "$(jq_body .error.hint)" = 'did you mean "priority"?' ]
expect_status 400 POST /api/v1/messages -d '{"to":"bob","body":"x","from":"carol"}'
[ "$(jq_body .error.message)" = 'unknown argument "from"' ]
expect_status 400 POST /api/v1/messages -d '{"to":"bob","body":"x","priority":"hi"}'
id=$(mailroom --as alice send bob "hello" "x" --json | jq -r .id)
expect_status 400 POST "/api/v1/messages/$id/reply" -d '{"body":"x","to":"carol"}'
expect_status 400 POST "/api/v1/messages/$id/read" -d '{"for":"bob","fro":"x"}'
expect_status 400 POST /api/v1/session -d '{"code":"x","token":"y"}'
[ "$(mailroom --as bob count --json | jq .total)" = 1 ] # only alice's
[ "$(mailroom --as bob count --json | jq .unread)" = 1 ] # the typo'd read changed nothing
# ... and so are unknown query parameters (?mailbx= would silently show the operator's view).
expect_status 400 GET "/api/v1/messages/$id?mailbx=bob"
[ "$(jq_body .error.hint)" = 'did you mean "mailbox"?' ]
expect_status 400 GET "/api/v1/team?verbose=1"
expect_status 200 GET "/api/v1/messages/$id?mailbox=bob"
# The keys the page sends pass; null is a key not given.
expect_status 200 POST /api/v1/messages -d '{"to":["bob"],"cc":null,"subject":"s","body":"b","priority":"urgent","ack":true}'
[ "$(mailroom --as bob inbox --json | jq -r '.messages[0].priority')" = 0 ]

# Last-Event-ID: past the newest (another store's id) is a reset, then the stream goes on; a
# value that is no seq is 400; two of them are 400.
stream() { # stream LAST_EVENT_ID...: the first 2 s of GET /api/v1/events
  local headers=()
  for v in "$@"; do headers+=(-H "Last-Event-ID: $v"); done
  curl -sS -N --max-time 2 -o "$t/stream" -w '%{http_code}' -H "Authorization: Bearer $token" "${headers[@]}" \
    "$serve_base/api/v1/events" || true
}
[ "$(stream 9223372036854775807)" = 200 ]
grep -q '^event: reset' "$t/stream"
[ "$(stream 1000000)" = 200 ]
grep -q '^event: reset' "$t/stream"
[ "$(stream 0)" = 200 ]
not grep -q '^event: reset' "$t/stream"
grep -q '^event: mail.sent' "$t/stream"
for bad in -1 abc 1e9 99999999999999999999 ' 7x' "$(printf '\xff\xfe')"; do
  [ "$(stream "$bad")" = 400 ] || { echo "Last-Event-ID '$bad' was not refused" >&2; exit 1; }
done
[ "$(stream 1 2)" = 400 ]
grep -q 'more than one Last-Event-ID header' "$t/stream"
expect_status 200 GET /api/v1/team # the server is fine

# Stopped with connections open (an event stream, an idle keep-alive, one that sent half a
# header): each is closed, and no handler outlives what it counts itself in (under the
# sanitizers, a use after free fails the stop's status).
curl -sS -N -o "$t/open_stream" -H "Authorization: Bearer $token" "$serve_base/api/v1/events" &
wait_for "$t/open_stream" '^: stream'
exec {idle}<> "/dev/tcp/127.0.0.1/$serve_port"
exec {half}<> "/dev/tcp/127.0.0.1/$serve_port"
printf 'GET /api/v1/team HTTP/1.1\r\nHost: 127.0.0.1\r\n' >&"$half"
serve_stop && [ "$serve_status" = 143 ]
exec {idle}>&- {half}>&-
not grep -q 'AddressSanitizer' "$serve_out.err"
echo ok
