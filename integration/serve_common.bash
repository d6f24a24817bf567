#!/usr/bin/env bash
# integration/serve_common.bash: sourced (after common.sh) by the integration/*serve_*.sh scripts.
# Starts `mailroom serve --listen 127.0.0.1:0` in the background and talks to it with curl.
#
#   serve_start [ARGS...]   starts a server (extra serve arguments); sets serve_pid, serve_port,
#                           serve_code (the login code), serve_base (http://127.0.0.1:PORT)
#   serve_stop [SIGNAL]     stops it (default TERM); its exit status is then in serve_status
#   serve_token             the API token from the token file
#   api METHOD PATH [CURL ARGS...]   a request with the API token; the body goes to $t/body,
#                           the headers to $t/headers; prints the status
#   jq_body FILTER          jq on the last body
#   wait_for FILE PATTERN   until FILE holds a line matching PATTERN (10 s, 60 s under the sanitizers)

command -v curl > /dev/null || { echo "curl is missing: run make deps" >&2; exit 1; }
# A failed test leaves no server running (pg_common.bash's own trap already stops every job).
if [ -z "${pg_dir:-}" ]; then
  trap 'status=$?; jobs -p | xargs -r kill 2> /dev/null || true; if [ "$status" -eq 0 ]; then rm -rf "$t"; fi' EXIT
fi
serve_wait=10
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && serve_wait=60

serve_start() {
  local out="$t/serve.$RANDOM.out"
  "$MAILROOM" serve --listen 127.0.0.1:0 "$@" > "$out" 2> "$out.err" &
  serve_pid=$!
  local i
  for ((i = 0; i < serve_wait * 20; i++)); do
    if grep -q '^http://' "$out" 2> /dev/null; then
      break
    fi
    if ! kill -0 "$serve_pid" 2> /dev/null; then
      echo "serve exited early:" >&2
      cat "$out.err" >&2
      return 1
    fi
    sleep 0.05
  done
  local url
  url=$(grep -m1 '^http://' "$out") || { echo "serve printed no URL" >&2; cat "$out.err" >&2; return 1; }
  serve_port=$(sed -E 's|^http://127\.0\.0\.1:([0-9]+)/.*|\1|' <<< "$url")
  serve_code=${url##*#c=}
  serve_base="http://127.0.0.1:$serve_port"
  serve_out=$out
}

serve_stop() {
  serve_status=0
  kill "-${1:-TERM}" "$serve_pid"
  wait "$serve_pid" || serve_status=$?
}

serve_token() { cat "$XDG_STATE_HOME"/mailroom/serve/*.token; }

api() {
  local method=(-X "$1") path=$2
  [ "$1" = HEAD ] && method=(--head) # curl then reads no body after the headers
  shift 2
  curl -sS -o "$t/body" -D "$t/headers" -w '%{http_code}' "${method[@]}" \
    -H "Authorization: Bearer $(serve_token)" "$@" "$serve_base$path"
}

jq_body() { jq -r "$1" "$t/body"; }

wait_for() {
  local i
  for ((i = 0; i < serve_wait * 10; i++)); do
    grep -q -- "$2" "$1" 2> /dev/null && return 0
    sleep 0.1
  done
  echo "no \"$2\" in $1:" >&2
  cat "$1" >&2
  return 1
}

# expect_status WANT METHOD PATH [CURL ARGS...]
expect_status() {
  local want=$1 got
  shift
  got=$(api "$@")
  if [ "$got" != "$want" ]; then
    echo "expected HTTP $want, got $got: $*" >&2
    cat "$t/body" >&2
    return 1
  fi
}
