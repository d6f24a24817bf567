#!/usr/bin/env bash
# integration/postgres_failures.sh: a server that refuses, one that never answers, a wrong
# password, a missing database, a statement timeout and a connection dropped mid-command are each
# exit 5 with one line naming the host (never the password), within the connect timeout; check
# --inject stays silent and exits 0; a write that fails leaves nothing half-stored.
. "$(dirname "$0")/common.sh"
. "$integration_dir/pg_common.bash"

mailroom init --db "$MAILROOM_DB" > /dev/null
mailroom agents add alice bob > /dev/null
mailroom --as alice send bob "before the trouble" > /dev/null

# fails_cleanly URL HOST_TEXT [SECRET]: count is exit 5 with one error line (and at most a hint)
# naming HOST_TEXT and not SECRET; check --inject prints nothing and exits 0.
fails_cleanly() {
  local url=$1 host=$2 secret=${3:-}
  expect_exit 5 mailroom --db "$url" --as bob count > "$t/out" 2> "$t/err"
  [ ! -s "$t/out" ]
  grep -q "^mailroom count: .*$host" "$t/err" || { cat "$t/err" >&2; return 1; }
  [ "$(grep -vc '^hint: ' "$t/err")" -eq 1 ] || { cat "$t/err" >&2; return 1; }
  if [ -n "$secret" ] && grep -q "$secret" "$t/err"; then
    echo "the password shows: $(cat "$t/err")" >&2
    return 1
  fi
  mailroom --db "$url" --as bob check --inject > "$t/out" 2> /dev/null
  [ ! -s "$t/out" ]
}

# elapsed CMD...: runs CMD (any exit status) and prints how long it took, in whole seconds.
elapsed() {
  local start=$SECONDS
  "$@" > /dev/null 2>&1 || true
  echo $((SECONDS - start))
}

# A port nothing listens on: refused at once.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
fails_cleanly "postgresql://mail:hunter2@127.0.0.1:$port/mail" "127.0.0.1:$port/mail" hunter2

# A server that accepts and never answers: exit 5 within the URL's connect_timeout.
python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16)
print(s.getsockname()[1], flush=True); sys.stdout.close(); time.sleep(60)' > "$t/silent.port" &
silent=$!
while [ ! -s "$t/silent.port" ]; do sleep 0.05; done
silent_url="postgresql://mail:hunter2@127.0.0.1:$(cat "$t/silent.port")/mail?connect_timeout=2"
[ "$(elapsed mailroom --db "$silent_url" --as bob count)" -le 4 ]
fails_cleanly "$silent_url" "127.0.0.1:$(cat "$t/silent.port")/mail" hunter2
kill "$silent"

# Wrong password (password_user must give one over the socket; see pg-test-server.sh).
pg_sql "CREATE ROLE password_user LOGIN PASSWORD 'right-one'; GRANT ALL ON ALL TABLES IN SCHEMA public TO password_user"
fails_cleanly "postgresql://password_user:wr0ng-one@/mail?host=$pg_dir" "$pg_dir:5432/mail" wr0ng-one
grep -q "password authentication failed" "$t/err"
[ "$(mailroom --db "postgresql://password_user:right-one@/mail?host=$pg_dir" --as bob --json count | jq .unread)" -eq 1 ]

# A database that does not exist.
fails_cleanly "$(pg_url nosuch)" "$pg_dir:5432/nosuch"
grep -q 'database "nosuch" does not exist' "$t/err"

# A statement timeout (the URL sets it): count waits on a lock past it.
psql -X -q -h "$pg_dir" -U postgres -d mail -c "BEGIN; LOCK TABLE deliveries; SELECT pg_sleep(30)" > /dev/null 2>&1 &
locker=$!
until [ "$(pg_sql "SELECT count(*) FROM pg_locks WHERE relation = 'deliveries'::regclass AND mode = 'AccessExclusiveLock' AND granted")" -eq 1 ]; do sleep 0.05; done
timeout_url="$MAILROOM_DB&options=-c%20statement_timeout%3D300"
[ "$(elapsed mailroom --db "$timeout_url" --as bob count)" -le 2 ]
fails_cleanly "$timeout_url" "$pg_dir:5432/mail"
grep -qi "statement timeout" "$t/err"

# A connection dropped mid-command: a send waits on the lock (its message row already inserted in
# its transaction), then its backend is terminated. Exit 5, and no part of the message is stored.
before=$(pg_sql "SELECT count(*) FROM beads")
{ "$MAILROOM" --as alice send bob "never half stored" > "$t/out" 2> "$t/err" && echo 0 || echo $?; } > "$t/status" &
sender=$!
until [ "$(pg_sql "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'mailroom' AND wait_event_type = 'Lock'")" -eq 1 ]; do sleep 0.05; done
pg_sql "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'mailroom'" > /dev/null
wait "$sender"
[ "$(cat "$t/status")" -eq 5 ]
grep -q "^mailroom send: .*$pg_dir:5432/mail" "$t/err"
[ "$(grep -vc '^hint: ' "$t/err")" -eq 1 ]
kill "$locker" 2> /dev/null || true
wait "$locker" 2> /dev/null || true
pg_sql "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'psql' AND pid <> pg_backend_pid()" > /dev/null
[ "$(pg_sql "SELECT count(*) FROM beads")" -eq "$before" ]
[ "$(pg_sql "SELECT count(*) FROM deliveries")" -eq "$before" ]
[ "$(mailroom --as bob --json count | jq .unread)" -eq 1 ]
