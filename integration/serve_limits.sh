#!/usr/bin/env bash
# mailroom serve: the limits. An oversized request line (414), headers (431) and body (413); a
# slowloris client disconnected after the 5 s header deadline while a normal client is answered
# at once beside it; 256 open connections and one more (closed at once).
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

# 256 open connections, then one more: that one is closed at once, unanswered.
fds=()
for _ in $(seq 256); do
  exec {fd}<> "/dev/tcp/127.0.0.1/$serve_port"
  fds+=("$fd")
done
sleep 0.5
exec {extra}<> "/dev/tcp/127.0.0.1/$serve_port"
rc=0
read -r -t 3 -u "$extra" line || rc=$?
[ "$rc" -eq 1 ]
exec {extra}>&-
for fd in "${fds[@]}"; do exec {fd}>&-; done
sleep 0.5
expect_status 200 GET /api/v1/team
serve_stop && [ "$serve_status" = 143 ]
echo ok
