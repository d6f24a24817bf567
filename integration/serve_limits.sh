#!/usr/bin/env bash
# mailroom serve: the limits. An oversized request line (414), headers (431) and body (413); a
# slowloris client disconnected after the 5 s header deadline, and a body with the token that
# never comes after its 5 s, while a normal client is answered at once beside them; a body without
# a token refused at its headers (401; the login's body at most 4 KiB, 413); idle connections
# without a token pushing each other out at 64 while a client with the token is answered.
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/serve_common.bash"

serve_start
token=$(serve_token)

long=$(head -c 9000 /dev/zero | tr '\0' a)
expect_status 414 GET "/api/v1/team?x=$long"
[ "$(jq_body .error.code)" = payload_too_large ]
big=$(head -c 40000 /dev/zero | tr '\0' b)
expect_status 431 GET /api/v1/team -H "X-Big: $big"
head -c $((16 * 1024 * 1024 + 1)) /dev/zero > "$t/big.json"
expect_status 413 POST /api/v1/messages --data-binary @"$t/big.json"
expect_status 200 GET /api/v1/team # the server is fine

# A slowloris client: a request line, then a header byte now and then, never the blank line.
exec {slow}<> "/dev/tcp/127.0.0.1/$serve_port"
printf 'GET /api/v1/team HTTP/1.1\r\nHost: 127.0.0.1:%s\r\n' "$serve_port" >&"$slow"
start=$(date +%s%N)
# A normal client beside it is answered at once (well before the slow one's 5 s are up).
expect_status 200 GET /api/v1/team
prompt=2000
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && prompt=4000
[ $(( ($(date +%s%N) - start) / 1000000 )) -lt "$prompt" ]
for _ in 1 2 3; do printf 'X-Slow: 1\r\n' >&"$slow" 2> /dev/null || break; sleep 1; done
# The server ends it once 5 s have passed since it connected: its read sees the end.
rc=0
read -r -t 15 -u "$slow" line || rc=$?
[ "$rc" -eq 1 ] # end of file, not a timeout (>128)
elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$elapsed" -ge 4000 ] && [ "$elapsed" -lt 15000 ]
exec {slow}>&-

# A body with the token must arrive within 5 s (plus its length at 256 KiB/s): one that never comes
# is disconnected; the server answers others meanwhile.
exec {slow}<> "/dev/tcp/127.0.0.1/$serve_port"
printf 'POST /api/v1/messages HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{' \
  "$serve_port" "$token" >&"$slow"
start=$(date +%s%N)
expect_status 200 GET /api/v1/team
rc=0
read -r -t 15 -u "$slow" line || rc=$?
[ "$rc" -eq 1 ] # closed, unanswered
elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$elapsed" -ge 4000 ] && [ "$elapsed" -lt 15000 ]
exec {slow}>&-
# Without a token, a body is refused before it is read: a POST that would trickle one is answered
# 401 at its headers; the login's body is at most 4 KiB.
exec {slow}<> "/dev/tcp/127.0.0.1/$serve_port"
printf 'POST /api/v1/messages HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n' \
  "$serve_port" >&"$slow"
read -r -t 5 -u "$slow" line
[[ "$line" == "HTTP/1.1 401 "* ]]
exec {slow}>&-
head -c 5000 /dev/zero | tr '\0' ' ' > "$t/login.json"
[ "$(curl -sS -o "$t/body" -w '%{http_code}' -H 'Content-Type: application/json' --data-binary @"$t/login.json" \
  "$serve_base/api/v1/session")" = 413 ]

# 200 idle connections from one client without a token: at most 64 are kept (the oldest make room
# for the newest), and a client with the token is answered at once beside them.
fds=()
for _ in $(seq 200); do
  exec {fd}<> "/dev/tcp/127.0.0.1/$serve_port"
  fds+=("$fd")
done
expect_status 200 GET /api/v1/team
open_ones=0
for fd in "${fds[@]}"; do
  rc=0
  read -r -t 0.05 -u "$fd" line || rc=$?
  [ "$rc" -gt 128 ] && open_ones=$((open_ones + 1)) # a timeout: still open
done
[ "$open_ones" -le 64 ] && [ "$open_ones" -ge 40 ]
for fd in "${fds[@]}"; do exec {fd}>&-; done
expect_status 200 GET /api/v1/team
serve_stop && [ "$serve_status" = 143 ]
echo ok
