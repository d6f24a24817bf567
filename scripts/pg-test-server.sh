#!/usr/bin/env bash
# scripts/pg-test-server.sh: a throwaway PostgreSQL server for tests, reachable only through a
# Unix socket in its own directory.
#
#   pg-test-server.sh start DIR [OWNER_PID]  a new cluster in DIR/data, started; socket in DIR
#   pg-test-server.sh stop DIR               immediate stop, then DIR is removed
#   pg-test-server.sh halt DIR               immediate stop (a crash: no checkpoint), data kept
#   pg-test-server.sh resume DIR             starts the server on the data in DIR again
#   pg-test-server.sh restart DIR            halt, then resume (crash recovery runs)
#   pg-test-server.sh fast-restart DIR       pg_ctl restart -m fast (a clean shutdown, then a start)
#
# Connect with postgresql:///postgres?host=DIR&user=postgres (trust authentication; only a role
# named password_user, which tests create, has to give a password). DIR must be
# short (a socket path has at most 107 bytes) and reachable by the postgres user. As root the
# server runs as postgres (it refuses root); as anyone else it runs as that user.
#
# With OWNER_PID, a watchdog stops the server and removes DIR once that process has exited, so a
# test binary that crashes or is killed leaves no postmaster behind. A failed start stops
# whatever it started and removes DIR. The default collation is ICU's en-US, not bytewise, so a
# query that needs bytewise order and lacks COLLATE "C" shows up in tests.
#
# Exit status: 0 done, 1 failed (reason on stderr), 2 usage, 3 the server binaries are missing.
set -euo pipefail

script=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")

usage() {
  echo "usage: pg-test-server.sh start DIR [OWNER_PID] | stop DIR | halt DIR | resume DIR | restart DIR | fast-restart DIR" >&2
  exit 2
}

die() {
  echo "pg-test-server: $*" >&2
  exit 1
}

# Sets $bindir to the newest /usr/lib/postgresql/*/bin holding initdb and pg_ctl
# ($MAILROOM_PG_BINDIR overrides), or exits 3.
find_bindir() {
  if [ -n "${MAILROOM_PG_BINDIR:-}" ]; then
    bindir=$MAILROOM_PG_BINDIR
  else
    bindir=$(printf '%s\n' /usr/lib/postgresql/*/bin | grep -v '\*' | sort -V | tail -n 1 || true)
  fi
  if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ] || [ ! -x "$bindir/pg_ctl" ]; then
    echo "pg-test-server: no PostgreSQL server binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin; run make deps" >&2
    exit 3
  fi
}

# Runs a command as the server's owner: postgres when we are root, else ourselves.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# True when a postmaster is running on DIR/data.
running() {
  [ -f "$1/data/postmaster.pid" ] && as_owner "$bindir/pg_ctl" -D "$1/data" status > /dev/null 2>&1
}

# Immediate stop of the postmaster on DIR/data, if any; succeeds when none is left running.
halt_server() {
  local dir=$1
  [ -d "$dir/data" ] || return 0
  if running "$dir"; then
    as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w -t 30 stop > /dev/null 2>&1 || true
  fi
  if running "$dir"; then
    # pg_ctl could not stop it: kill the postmaster by the pid in its lock file.
    local pid
    pid=$(head -n 1 "$dir/data/postmaster.pid" 2> /dev/null || true)
    if [[ $pid =~ ^[0-9]+$ ]]; then
      kill -KILL "$pid" 2> /dev/null || true
    fi
    sleep 0.2
  fi
  ! running "$dir"
}

# Stops the server on DIR and removes DIR. A backend orphaned by a killed postmaster may still be
# writing (a CREATE DATABASE copying files) until it notices; rm is tried again until it exits.
remove_dir() {
  halt_server "$1" || die "cannot stop the server in $1"
  local tries=0
  until rm -rf -- "$1" 2> /dev/null; do
    tries=$((tries + 1))
    [ "$tries" -lt 20 ] || die "cannot remove $1"
    sleep 0.5
  done
}

# Starts the postmaster on the existing DIR/data, logging to DIR/server.log.
start_server() {
  local dir=$1
  as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-k $dir -c listen_addresses='' -c fsync=off" \
    start > /dev/null
}

show_log_tail() {
  if [ -f "$1/server.log" ]; then
    tail -n 20 "$1/server.log" >&2
  fi
}

# Stops the server and removes DIR once process OWNER_PID has exited, or ends when DIR is gone.
start_watchdog() {
  local dir=$1 owner=$2
  # shellcheck disable=SC2016 # the inner script reads its own positional parameters
  setsid bash -c '
    while kill -0 "$2" 2> /dev/null; do
      [ -d "$1" ] || exit 0
      sleep 0.5
    done
    [ -d "$1" ] && "$3" stop "$1"
  ' pg-test-server-watchdog "$dir" "$owner" "$script" < /dev/null > /dev/null 2>&1 &
}

# A new cluster in DIR/data, started. Every step is checked, so the caller can clean up.
create_and_start() {
  local dir=$1
  mkdir -p -- "$dir" && chmod 0700 "$dir" || return 1
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$dir" || return 1
  fi
  as_owner test -w "$dir" ||
    { echo "pg-test-server: the postgres user cannot write $dir (is a parent directory private?)" >&2; return 1; }
  as_owner "$bindir/initdb" -D "$dir/data" --no-sync -A trust -U postgres -E UTF8 --locale=C.UTF-8 \
    --locale-provider=icu --icu-locale=en-US > "$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; return 1; }
  # Role password_user (created by tests that need it) must give its password: scram-sha-256.
  as_owner sed -i '1i local all password_user scram-sha-256' "$dir/data/pg_hba.conf" || return 1
  start_server "$dir" || { show_log_tail "$dir"; return 1; }
}

cmd_start() {
  local dir=$1 owner=${2:-}
  [ -z "$owner" ] || [[ $owner =~ ^[0-9]+$ ]] || usage
  case "$dir" in /*) ;; *) die "DIR must be an absolute path: $dir" ;; esac
  [ ${#dir} -le 90 ] || die "DIR is too long for a Unix socket path: $dir"
  if [ "$(id -u)" -eq 0 ] && ! id postgres > /dev/null 2>&1; then
    die "no postgres user (install the postgresql package: make deps)"
  fi
  remove_dir "$dir" # leftovers of an earlier run with the same DIR
  if ! create_and_start "$dir"; then
    remove_dir "$dir" || true
    die "cannot start a server in $dir"
  fi
  [ -z "$owner" ] || start_watchdog "$dir" "$owner"
}

[ $# -ge 2 ] || usage
command=$1
dir=${2%/}
find_bindir
case "$command" in
  start)
    [ $# -le 3 ] || usage
    cmd_start "$dir" "${3:-}"
    ;;
  stop)
    [ $# -eq 2 ] || usage
    remove_dir "$dir"
    ;;
  halt)
    [ $# -eq 2 ] || usage
    halt_server "$dir" || die "cannot stop the server in $dir"
    ;;
  resume)
    [ $# -eq 2 ] || usage
    [ -d "$dir/data" ] || die "no cluster in $dir"
    start_server "$dir" || { show_log_tail "$dir"; die "cannot start the server in $dir"; }
    ;;
  fast-restart)
    # pg_ctl restart -m fast: clients are told the server is shutting down, then it starts again.
    [ $# -eq 2 ] || usage
    [ -d "$dir/data" ] || die "no cluster in $dir"
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -m fast \
      -o "-k $dir -c listen_addresses='' -c fsync=off" restart > /dev/null ||
      { show_log_tail "$dir"; die "cannot restart the server in $dir"; }
    ;;
  restart)
    [ $# -eq 2 ] || usage
    [ -d "$dir/data" ] || die "no cluster in $dir"
    halt_server "$dir" || die "cannot stop the server in $dir"
    start_server "$dir" || { show_log_tail "$dir"; die "cannot start the server in $dir"; }
    ;;
  *) usage ;;
esac
