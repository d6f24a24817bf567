#!/usr/bin/env bash
# mailroom serve login: a fresh single-use login link from the server running for this store, for
# a new tab without restarting serve. No server for this store: exit 3, before it starts, after it
# stopped, and after it was killed (its address file left behind). A session token cannot ask for
# a link; the link works once.
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/serve_common.bash"

expect_exit 3 mailroom serve login
mailroom serve login 2> "$t/err" || true
grep -q 'no mailroom serve is running for this store' "$t/err"
grep -q 'hint: start one with mailroom serve' "$t/err"
expect_exit 3 mailroom --json serve login
mailroom --json serve login 2> "$t/err.json" || true
[ "$(jq -r .error.code "$t/err.json")" = not_found ]

serve_start
portfile=$(ls "$XDG_STATE_HOME"/mailroom/serve/*.port)
[ "$(stat -c %a "$portfile")" = 600 ]
[ "$(jq -r .port "$portfile")" = "$serve_port" ]
link=$(mailroom serve login)
[[ "$link" =~ ^http://127\.0\.0\.1:$serve_port/login#c=[0-9a-f]{32}$ ]]
code=${link##*#c=}
[ "$code" != "$serve_code" ] # a fresh one, not the one serve printed
# The link works once, in a new tab as in the first.
token=$(curl -sS -H 'Content-Type: application/json' -d "{\"code\":\"$code\"}" "$serve_base/api/v1/session" | jq -r .token)
[ -n "$token" ] && [ "$token" != null ]
[ "$(curl -sS -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "$serve_base/api/v1/team")" = 200 ]
[ "$(curl -sS -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -d "{\"code\":\"$code\"}" \
  "$serve_base/api/v1/session")" = 401 ]
# The page's session token may not ask for a link; the token may, under the usual Host/Origin rules.
[ "$(curl -sS -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $token" \
  "$serve_base/api/v1/login-codes")" = 401 ]
expect_status 200 POST /api/v1/login-codes
expect_status 403 POST /api/v1/login-codes -H 'Origin: http://evil.example'
expect_status 403 POST /api/v1/login-codes -H 'Host: evil.example'
grep -q "^Content-Security-Policy: default-src 'none'" "$t/headers"
# Two logins, two codes.
[ "$(mailroom serve login)" != "$(mailroom serve login)" ]

serve_stop && [ "$serve_status" = 143 ]
[ ! -e "$portfile" ] # removed when it stops
expect_exit 3 mailroom serve login

# Killed: its address file stays, but nothing answers there.
serve_start
kill -9 "$serve_pid"
wait "$serve_pid" || true
[ -e "$portfile" ]
expect_exit 3 mailroom serve login
mailroom serve login 2> "$t/err" || true
grep -q "no mailroom serve for this store answers at 127.0.0.1:$serve_port" "$t/err"
echo ok
