#!/usr/bin/env bash
# integration/common.sh: sourced by every test script. Gives a fresh HOME, XDG dirs, working
# directory and store per test, and the helpers mailroom, not, skip, expect_exit, expect_golden.
set -Eeuo pipefail
export TZ=UTC LC_ALL=C.UTF-8

: "${MAILROOM:?set MAILROOM to the mailroom binary}"
test_name=$(basename "$0" .sh)
integration_dir=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-it-$test_name.XXXXXX")

export HOME="$t/home"
export XDG_CONFIG_HOME="$HOME/.config" XDG_DATA_HOME="$HOME/.local/share"
export XDG_STATE_HOME="$HOME/.local/state" XDG_CACHE_HOME="$HOME/.cache"
unset MAILROOM_IDENTITY MAILROOM_CONFIG MAILROOM_PROVIDER MAILROOM_IDEMPOTENCY_KEY \
  GC_ALIAS GC_AGENT GC_SESSION_ID NO_COLOR
# A fresh store per test; workspace() switches to the workspace's own store instead. Only `init`
# creates a store, so it is made here, from a directory of its own.
export MAILROOM_DB="$t/mail.db"
mkdir -p "$HOME" "$t/work" "$t/setup"
(cd "$t/setup" && "$MAILROOM" init > /dev/null)
cd "$t/work"

trap 'echo "FAIL: $test_name.sh line $LINENO: $BASH_COMMAND (kept $t)" >&2' ERR
trap 'status=$?; if [ -n "${KEEP:-}" ]; then exit; fi; if [ "$status" -eq 0 ]; then rm -rf "$t"; fi' EXIT

# The binary under test.
mailroom() { "$MAILROOM" "$@"; }

# Succeeds when the command fails (any non-zero status).
not() {
  if "$@"; then
    echo "expected failure: $*" >&2
    return 1
  fi
}

# Ends the test as skipped (CTest SKIP_RETURN_CODE).
skip() {
  echo "SKIP: $test_name: $*" >&2
  exit 125
}

# expect_exit N cmd...: runs cmd and fails unless it exits with N.
expect_exit() {
  local want=$1 got=0
  shift
  "$@" || got=$?
  if [ "$got" -ne "$want" ]; then
    echo "expected exit $want, got $got: $*" >&2
    return 1
  fi
}

# Replaces ids, times and temp paths so golden files are stable.
normalise() {
  sed -E -e "s|$t|{tmp}|g" \
    -e 's/\b(mr|thread)-[0-9a-f]{4,}\b/{id}/g' \
    -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?Z?/{time}/g' \
    -e 's/\b[0-9]+[mhd] ago\b/{age}/g' -e 's/\bjust now\b/{age}/g'
}

# expect_golden FILE [KIND]: compares FILE, normalised, with expected/<test>.<KIND> (default out).
# UPDATE_GOLDEN=1 rewrites the expected file instead.
expect_golden() {
  local file=$1 kind=${2:-out}
  local golden="$integration_dir/expected/$test_name.$kind"
  if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
    normalise < "$file" > "$golden"
    return 0
  fi
  if [ ! -f "$golden" ]; then
    echo "missing golden file $golden (run with UPDATE_GOLDEN=1)" >&2
    return 1
  fi
  if ! diff -u "$golden" <(normalise < "$file") >&2; then
    echo "output differs from $golden" >&2
    return 1
  fi
}

# workspace NAME...: mailroom init here (its store is .mailroom/mail.db, found by discovery) and
# register the given mailboxes.
workspace() {
  unset MAILROOM_DB
  mailroom init > /dev/null
  if [ "$#" -gt 0 ]; then
    mailroom agents add "$@" > /dev/null
  fi
}

# interrupt SIG PID: sends SIG to PID until it is gone (at most 20 s). A background job of a
# non-interactive shell starts with SIGINT ignored until the program installs its own handler, so
# a single early SIGINT (a slow start, as under ASan on a loaded machine) would be lost.
interrupt() {
  local sig=$1 pid=$2
  for _ in $(seq 1 200); do
    kill -"$sig" "$pid" 2> /dev/null || return 0
    sleep 0.1
  done
  echo "interrupt: $pid outlived 200 SIG$sig" >&2
  return 1
}

# send_id ARGS...: runs `mailroom send ARGS...` and prints the new message id.
send_id() {
  mailroom --json send "$@" | jq -r .id
}

command -v jq > /dev/null || skip "jq is not installed"
