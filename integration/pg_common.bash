#!/usr/bin/env bash
# integration/pg_common.bash: sourced (after common.sh) by the integration/postgres_*.sh scripts.
# Starts a throwaway PostgreSQL server for this test (scripts/pg-test-server.sh: its own cluster,
# reachable only through a Unix socket in a short directory), stops and removes it when the test
# ends however it ends (a watchdog does it if this shell is killed), and creates the database
# `mail`. Skips (exit 125) only when MAILROOM_PG_TESTS=skip.
#
#   pg_url [DB]     the URL of DB (default mail) as the postgres user
#   pg_sql SQL...   runs SQL in `mail` with psql (stops at the first error)
#   pg_halt | pg_resume   a crash (immediate stop, no checkpoint) and a start on the same data
#   pg_fast_restart       pg_ctl restart -m fast (clients told the server is shutting down)
#   host_dir NAME   a directory with its own mailroom.toml pointing at the store: one "host"

[ "${MAILROOM_PG_TESTS:-}" = skip ] && skip "PostgreSQL tests are off (MAILROOM_PG_TESTS=skip)"
pg_script="$integration_dir/../scripts/pg-test-server.sh"
# Run from / : the server's user cannot enter this test's private directories.
pg_ctl_script() { (cd / && "$pg_script" "$@"); }
command -v psql > /dev/null || { echo "psql is missing: run make deps" >&2; exit 1; }
# Short: a socket path has at most 107 bytes.
pg_dir="/tmp/mrpg-it-$$"
pg_ctl_script start "$pg_dir" "$$" || { echo "cannot start the PostgreSQL test server" >&2; exit 1; }
# On any exit: background jobs stopped (a failed test leaves no sender running), the server gone.
trap 'status=$?; jobs -p | xargs -r kill 2> /dev/null || true; pg_ctl_script stop "$pg_dir" > /dev/null 2>&1 || true
  if [ "$status" -eq 0 ]; then rm -rf "$t"; fi' EXIT

pg_url() { echo "postgresql:///${1:-mail}?host=$pg_dir&user=postgres"; }
pg_sql() { psql -X -q -v ON_ERROR_STOP=1 -h "$pg_dir" -U postgres -d mail -At -c "$*"; }
pg_halt() { pg_ctl_script halt "$pg_dir"; }
pg_resume() { pg_ctl_script resume "$pg_dir"; }
pg_fast_restart() { pg_ctl_script fast-restart "$pg_dir"; }

psql -X -q -h "$pg_dir" -U postgres -d postgres -c "CREATE DATABASE mail" > /dev/null

host_dir() {
  local dir="$t/$1"
  mkdir -p "$dir"
  printf '[store]\nurl = "%s"\n' "$(pg_url)" > "$dir/mailroom.toml"
  echo "$dir"
}

# Every command talks to PostgreSQL unless a test says otherwise.
export MAILROOM_DB
MAILROOM_DB=$(pg_url)
