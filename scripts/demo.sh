#!/usr/bin/env bash
# scripts/demo.sh <mailroom binary>: a guided tour in a throw-away workspace (make demo): the hook's
# reminder, a request answered by a `watch --exec` handler, a schedule firing, the team view and
# `serve`'s login link.
# Every command is printed the way a person would type it, followed by its output. Whatever it
# starts in the background (the watcher, the server) it stops before it exits.
set -euo pipefail

bin=${1:?usage: scripts/demo.sh <path to mailroom>}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
workspace=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-demo.XXXXXX")
background=()
finish() {
  local pid
  for pid in "${background[@]}"; do
    kill -TERM "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
  done
  rm -rf "$workspace"
}
trap finish EXIT
cd "$workspace"
# A clean slate: no identity or store from the caller's environment leaks in.
unset MAILROOM_IDENTITY MAILROOM_CONFIG MAILROOM_DB MAILROOM_PROVIDER GC_ALIAS GC_AGENT GC_SESSION_ID
export HOME="$workspace/home" XDG_CONFIG_HOME="$workspace/home/.config" \
  XDG_DATA_HOME="$workspace/home/.local/share" XDG_STATE_HOME="$workspace/home/.local/state"
mkdir -p "$HOME"
export PATH="$(dirname "$bin"):$PATH"

mailroom() { "$bin" "$@"; }

# shown ARG...: prints the arguments as a person would type them (quoted where the shell needs it).
shown() {
  local arg
  for arg in "$@"; do
    if [[ $arg =~ ^[A-Za-z0-9_./@:=-]+$ ]]; then
      printf ' %s' "$arg"
    else
      printf " '%s'" "${arg//\'/\'\\\'\'}"
    fi
  done
}

# step CMD...: shows `mailroom CMD...`, then runs it (a non-zero exit is shown, not fatal).
step() {
  printf '\n$ mailroom%s\n' "$(shown "$@")"
  local status=0
  mailroom "$@" || status=$?
  [ "$status" -eq 0 ] || printf '(exit %d)\n' "$status"
}

# say LINE...: a heading for the next steps, one comment line per argument.
say() {
  printf '\n'
  printf '\n# %s' "$@"
  printf '\n'
}

# wait_for FILE PATTERN: waits up to 10 s for a line matching PATTERN in FILE.
wait_for() {
  local i
  for i in $(seq 100); do
    grep -q -E "$2" "$1" 2> /dev/null && return 0
    sleep 0.1
  done
  echo "demo: gave up waiting for '$2' in $1" >&2
  return 1
}

echo "# A throw-away workspace: $workspace"
say "A workspace with a lead and a worker, each an agent with its own mailbox."
step init
step agents add lead worker

say "Mail for the worker. Its coding agent's hook runs 'check --inject' before every prompt," \
  "so on its next prompt the agent is told (urgent first, then requests, then the rest):"
step --as lead send worker --urgent "The staging database is full"
step --as lead send worker -s "Deploy" -m "Deploy the auth fix after lunch, please."
step --as worker check --inject

say "A request answered by a program: 'watch --exec' runs the handler once per message," \
  "the body on its standard input, and sends its output back as the reply."
cat > handle.sh << 'EOF'
#!/bin/sh
# $MAILROOM_ID, $MAILROOM_FROM, $MAILROOM_SUBJECT and $MAILROOM_TYPE describe the message.
echo "done: $(cat) (handled by $MAILROOM_MAILBOX's watcher)"
EOF
chmod +x handle.sh
printf '\n$ cat handle.sh\n'
cat handle.sh
watch_args=(--as worker watch --type task_request --exec ./handle.sh)
printf '\n$ mailroom%s &\n' "$(shown "${watch_args[@]}")"
"$bin" "${watch_args[@]}" > watch.log 2>&1 &
background+=($!)
step --as lead send worker --type task_request --wait-reply --timeout 30s -s "Build the docs" -m "make docs"
request=$(mailroom --as lead --json sent --limit 1 | sed -n 's/.*"id": *"\(mr-[0-9a-f]*\)".*/\1/p' | head -n 1)
step --as lead trace "$request"

say "Schedules: mail that is due later or again, fired once per slot by any firer (cron, serve, sweep)."
step --as lead send worker --in 1s "Stand-up in 15 minutes"
step --as lead schedule add nightly worker --cron "0 2 * * *" --tz UTC -m "Run the nightly checks"
sleep 1.2
step schedule run-due
step --as worker inbox
step --as lead schedule list

say "Who is working, who is idle, who owes an answer:"
step team

say "The dashboard: 'serve' prints a single-use login link (valid 5 minutes) and serves until stopped."
printf '\n$ mailroom serve --listen 127.0.0.1:0 &\n'
"$bin" serve --listen 127.0.0.1:0 > serve.log 2>&1 &
background+=($!)
wait_for serve.log 'http://127\.0\.0\.1:[0-9]+/login#c='
cat serve.log
echo "(open the link in a browser while the server runs; the demo stops it now)"

echo
echo "# Done. The server and the watcher are stopped and the workspace is removed on exit."
