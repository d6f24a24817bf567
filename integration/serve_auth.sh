#!/usr/bin/env bash
# mailroom serve: who may call it. No token, a wrong token, a used login code; a foreign Host,
# Host 127.0.0.1:9999, a foreign Origin; OPTIONS; the security headers and no cookie or CORS
# header; the session token surviving a restart and --new-token ending it; ps never showing the
# token; two servers on two stores keeping separate sessions; signals' exit codes; a port in use.
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/serve_common.bash"

serve_start
token=$(serve_token)
[ ${#token} -eq 64 ]
[ "$(stat -c %a "$XDG_STATE_HOME"/mailroom/serve/*.token)" = 600 ]
[ "$(stat -c %a "$XDG_STATE_HOME"/mailroom/serve)" = 700 ]
# The token is in no process's command line, nor in what serve printed (grep reads it from a
# file, so its own command line does not hold it either).
printf '%s\n' "$token" > "$t/pattern"
ps -eo args > "$t/ps"
not grep -qFf "$t/pattern" "$t/ps" "$serve_out" "$serve_out.err"

status() { curl -sS -o "$t/body" -D "$t/headers" -w '%{http_code}' "$@"; }

# No bearer, a wrong one, the wrong scheme.
[ "$(status "$serve_base/api/v1/team")" = 401 ]
[ "$(jq -r .error.code "$t/body")" = unauthorized ]
wrong=$(tr '0-9a-f' '1-9a-f0' <<< "$token") # every digit changed
[ "$(status -H "Authorization: Bearer $wrong" "$serve_base/api/v1/team")" = 401 ]
[ "$(status -H "Authorization: Basic $token" "$serve_base/api/v1/team")" = 401 ]
[ "$(status -H "Authorization: Bearer $token" "$serve_base/api/v1/team")" = 200 ]

# Every response carries the headers; none sets a cookie or a CORS header.
grep -qi "^Content-Security-Policy: default-src 'none'; script-src 'self'" "$t/headers"
grep -qi '^X-Content-Type-Options: nosniff' "$t/headers"
grep -qi '^Referrer-Policy: no-referrer' "$t/headers"
grep -qi '^Cache-Control: no-store' "$t/headers"
grep -qi '^Cross-Origin-Opener-Policy: same-origin' "$t/headers"
grep -qi '^Cross-Origin-Resource-Policy: same-origin' "$t/headers"
[ "$(status "$serve_base/api/v1/nothing")" = 404 ]
grep -qi '^Content-Security-Policy:' "$t/headers"
not grep -qi '^Set-Cookie\|^Access-Control-' "$t/headers"

# The login code: once. It is never the token.
[ "$serve_code" != "$token" ]
[ "$(status -X POST -d "{\"code\":\"$serve_code\"}" "$serve_base/api/v1/session")" = 200 ]
not grep -qi '^Set-Cookie' "$t/headers"
session=$(jq -r .token "$t/body")
[ ${#session} -eq 64 ] && [ "$session" != "$token" ]
[ "$(status -H "Authorization: Bearer $session" "$serve_base/api/v1/mailboxes")" = 200 ]
[ "$(status -X POST -d "{\"code\":\"$serve_code\"}" "$serve_base/api/v1/session")" = 401 ]
[ "$(jq -r .error.code "$t/body")" = unauthorized ]

# Host and Origin, whatever the method, before authentication.
[ "$(status -H "Host: evil.example:$serve_port" -H "Authorization: Bearer $token" "$serve_base/api/v1/team")" = 403 ]
[ "$(jq -r .error.code "$t/body")" = forbidden_host ]
[ "$(status -H "Host: 127.0.0.1:9999" -H "Authorization: Bearer $token" "$serve_base/api/v1/team")" = 403 ]
[ "$(status -H "Host: localhost:$serve_port" -H "Authorization: Bearer $token" "$serve_base/api/v1/team")" = 200 ]
[ "$(status -H "Origin: http://127.0.0.1:9999" -H "Authorization: Bearer $token" "$serve_base/api/v1/team")" = 403 ]
[ "$(jq -r .error.code "$t/body")" = forbidden_origin ]
[ "$(status -X POST -H "Origin: http://evil.example" -d "{\"code\":\"x\"}" "$serve_base/api/v1/session")" = 403 ]
[ "$(status -H "Origin: $serve_base" -H "Authorization: Bearer $token" "$serve_base/api/v1/team")" = 200 ]
[ "$(status -X OPTIONS -H "Authorization: Bearer $token" "$serve_base/api/v1/team")" = 405 ]
not grep -qi '^Access-Control-' "$t/headers"

# A restart keeps the session (same token file); --new-token ends it.
serve_stop TERM && [ "$serve_status" = 143 ]
serve_start
[ "$(status -H "Authorization: Bearer $session" "$serve_base/api/v1/team")" = 200 ]
serve_stop INT && [ "$serve_status" = 130 ]
serve_start --new-token
[ "$(serve_token)" != "$token" ]
[ "$(status -H "Authorization: Bearer $session" "$serve_base/api/v1/team")" = 401 ]

# The port in use: exit 2 naming it.
expect_exit 2 mailroom serve --listen "127.0.0.1:$serve_port" 2> "$t/err"
grep -q "127.0.0.1:$serve_port" "$t/err"
first_base=$serve_base first_pid=$serve_pid first_code=$serve_code

# A second store, a second server: its own token, its own sessions and codes.
mkdir -p "$t/other" && (cd "$t/other" && env -u MAILROOM_DB "$MAILROOM" init > /dev/null)
(
  cd "$t/other"
  unset MAILROOM_DB
  serve_start
  other_token=$(ls "$XDG_STATE_HOME"/mailroom/serve/*.token | wc -l)
  [ "$other_token" = 2 ]
  [ "$(status -X POST -d "{\"code\":\"$first_code\"}" "$serve_base/api/v1/session")" = 401 ]
  [ "$(status -X POST -d "{\"code\":\"$serve_code\"}" "$serve_base/api/v1/session")" = 200 ]
  other_session=$(jq -r .token "$t/body")
  [ "$(status -H "Authorization: Bearer $other_session" "$first_base/api/v1/team")" = 401 ]
  [ "$(status -H "Authorization: Bearer $other_session" "$serve_base/api/v1/team")" = 200 ]
  serve_stop && [ "$serve_status" = 143 ]
)
serve_pid=$first_pid
serve_stop && [ "$serve_status" = 143 ]

# Not on the exec provider, and not on a non-loopback address without --allow-host.
expect_exit 2 mailroom serve --listen 0.0.0.0:0
expect_exit 2 mailroom serve --listen nonsense
MAILROOM_PROVIDER="exec:$MAILROOM_TESTDATA/exec/stateful.sh" expect_exit 5 mailroom serve --listen 127.0.0.1:0
echo ok
