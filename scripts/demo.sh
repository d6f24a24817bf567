#!/usr/bin/env bash
# scripts/demo.sh <mailroom binary>: a guided tour in a throw-away workspace. Every step is printed
# the way a person would type it, followed by its output.
set -euo pipefail

bin=${1:?usage: scripts/demo.sh <path to mailroom>}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
workspace=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-demo.XXXXXX")
trap 'rm -rf "$workspace"' EXIT
cd "$workspace"
# A clean slate: no identity or store from the caller's environment leaks in.
unset MAILROOM_IDENTITY MAILROOM_CONFIG MAILROOM_DB MAILROOM_PROVIDER GC_ALIAS GC_AGENT
export HOME="$workspace/home" XDG_CONFIG_HOME="$workspace/home/.config" XDG_DATA_HOME="$workspace/home/.local/share"
mkdir -p "$HOME"

mailroom() { "$bin" "$@"; }

# step CMD...: shows the command as typed, then runs it (a non-zero exit is shown, not fatal).
step() {
  printf '\n$ mailroom'
  local arg
  for arg in "$@"; do
    if [[ $arg =~ ^[A-Za-z0-9_./@:=-]+$ ]]; then
      printf ' %s' "$arg"
    else
      printf " '%s'" "${arg//\'/\'\\\'\'}"
    fi
  done
  printf '\n'
  local status=0
  mailroom "$@" || status=$?
  if [ "$status" -ne 0 ]; then
    printf '(exit %d%s)\n' "$status" "$([ "$*" = "--as bob check" ] && echo ': no unread mail')"
  fi
}

echo "# A throw-away workspace: $workspace"
step init
step agents add alice bob
step --as alice send bob -s "Deploy" -m "Can you deploy the auth fix after lunch?"
step --as alice send bob --urgent "The staging database is full"
step --as bob inbox
step --as bob check
step --as bob check --inject
id=$(mailroom --as bob --json inbox | jq -r '.messages[] | select(.subject == "Deploy") | .id' 2> /dev/null ||
  mailroom --as bob inbox | awk '/Deploy/ {print $1; exit}')
step --as bob read "$id"
step --as bob reply "$id" "Will do, around 2pm."
step --as alice inbox
step --as alice thread "$id"
step --as alice status "$id"
step --as bob count
step --as bob mark-read --all
step --as bob check
step config
echo
echo "# Done. The workspace is removed on exit."
