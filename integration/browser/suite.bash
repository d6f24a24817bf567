#!/usr/bin/env bash
# integration/browser/suite.bash: sourced by the browser_*.sh scripts after common.sh (and
# pg_common.bash). Skips (exit 125, with the reason) without node >= 20, without `make deps`
# (npm ci here, Debian's chromium) or with a Chromium major outside the tested range; under
# CI=true an untested (or unreadable) Chromium fails the test instead, so CI never passes without
# the page having run. Then
#   start_serve        runs `mailroom serve --listen 127.0.0.1:0` on the test's store and sets
#                      LOGIN_URL from what it prints; it is stopped when the test ends
#   run_suite FILE     runs integration/browser/FILE under node (screenshots go to
#                      build/browser-artifacts/<test>/)
suite="$integration_dir/browser"
# The Chromium majors this suite was run against (Debian 12's chromium moves in security updates;
# a new major is tried, then added here). browser_untested_chromium.sh sets them beforehand.
chromium_tested_min=${chromium_tested_min:-150}
chromium_tested_max=${chromium_tested_max:-160}

command -v node > /dev/null || skip "no node on PATH (playwright-core needs node >= 20)"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || skip "node $(node --version) is older than 20"
[ -d "$suite/node_modules/playwright-core" ] || skip "run 'make deps' (npm ci in integration/browser)"
[ -x /usr/bin/chromium ] || skip "no /usr/bin/chromium: run 'make deps' (Debian's chromium)"
chromium_version=$(/usr/bin/chromium --version 2> /dev/null | grep -o 'Chromium [0-9.]*' | head -1 || true)
chromium_major=$(echo "$chromium_version" | grep -o '[0-9]*' | head -1 || true)
# Skips here, fails under CI=true: a browser nobody ran the suite on must not pass CI unseen.
untested_chromium() {
  if [ "${CI:-}" = true ]; then
    echo "FAIL: $1 (CI=true: an untested Chromium fails; add its major to integration/browser/suite.bash once the suite passes on it)" >&2
    exit 1
  fi
  skip "$1"
}
[ -n "$chromium_major" ] || untested_chromium "cannot read the version of /usr/bin/chromium"
if [ "$chromium_major" -lt "$chromium_tested_min" ] || [ "$chromium_major" -gt "$chromium_tested_max" ]; then
  untested_chromium "$chromium_version is outside the tested range $chromium_tested_min-$chromium_tested_max (integration/browser/suite.bash)"
fi

export ARTIFACTS="${MAILROOM_ARTIFACTS:-$(dirname "$MAILROOM")/browser-artifacts}/$test_name"
rm -rf "$ARTIFACTS"
mkdir -p "$ARTIFACTS"
export MAILROOM MAILROOM_SANITIZED="${MAILROOM_SANITIZED:-0}"

serve_pid=""
stop_serve() {
  if [ -n "$serve_pid" ]; then
    kill "$serve_pid" 2> /dev/null || true
    wait "$serve_pid" 2> /dev/null || true
    serve_pid=""
  fi
}
# The test's EXIT trap (common.sh's or pg_common.bash's) runs after serve is stopped, with the
# test's status.
eval "set -- $(trap -p EXIT)"
trap "status=\$?; stop_serve; (exit \$status); ${3:-}" EXIT

start_serve() {
  # The binary itself, not the mailroom function: $! is then serve's own pid, which stop_serve ends.
  "$MAILROOM" serve --listen 127.0.0.1:0 "$@" > "$t/serve.out" 2> "$t/serve.err" &
  serve_pid=$!
  local waited=0 limit=100
  [ "$MAILROOM_SANITIZED" = 1 ] && limit=600
  LOGIN_URL=""
  while [ -z "$LOGIN_URL" ]; do
    LOGIN_URL=$(grep -aoE 'http://127\.0\.0\.1:[0-9]+/login#c=[A-Za-z0-9_-]+' "$t/serve.out" "$t/serve.err" 2> /dev/null |
      head -1 | sed 's/^[^:]*:http/http/' || true)
    [ -n "$LOGIN_URL" ] && break
    if ! kill -0 "$serve_pid" 2> /dev/null; then
      echo "mailroom serve ended before printing its login address:" >&2
      cat "$t/serve.out" "$t/serve.err" >&2
      return 1
    fi
    waited=$((waited + 1))
    if [ "$waited" -ge "$limit" ]; then
      echo "mailroom serve printed no login address within $((limit / 10)) s:" >&2
      cat "$t/serve.out" "$t/serve.err" >&2
      return 1
    fi
    sleep 0.1
  done
  export LOGIN_URL
}

run_suite() {
  local limit=120
  [ "$MAILROOM_SANITIZED" = 1 ] && limit=300
  timeout "$limit" node "$suite/$1"
}
