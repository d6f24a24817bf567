#!/usr/bin/env bash
# integration/postgres_init.sh: init --db URL creates the schema, once; other commands need it;
# --version lists the store; a schema newer than this build is exit 5 with a clear line.
. "$(dirname "$0")/common.sh"
. "$integration_dir/pg_common.bash"

mailroom --version | grep -q "postgresql"

# Before init: exit 5, naming the URL and init; check says "no mail"; check --inject is silent.
expect_exit 5 mailroom --as human count 2> "$t/err"
grep -q "no store at postgresql:///mail?host=$pg_dir&user=postgres (run 'mailroom init --db " "$t/err"
[ "$(wc -l < "$t/err")" -le 2 ]
expect_exit 1 mailroom --as human check
mailroom --as human check --inject > "$t/out" 2> /dev/null
[ ! -s "$t/out" ]
[ "$(pg_sql "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")" -eq 0 ]

mkdir "$t/ws" && cd "$t/ws"
mailroom init --db "$MAILROOM_DB" > "$t/init.out"
grep -q "store postgresql:///mail" "$t/init.out"
[ "$(pg_sql "SELECT version FROM mailroom_schema")" -eq 10 ]
migrated=$(pg_sql "SELECT migrated_at FROM mailroom_schema")
mailroom init --db "$MAILROOM_DB" > /dev/null # again: nothing to do
[ "$(pg_sql "SELECT migrated_at FROM mailroom_schema")" = "$migrated" ]

mailroom agents add alice bob > /dev/null
mailroom --as alice send bob "hello from postgres" > /dev/null
[ "$(mailroom --as bob --json count | jq .unread)" -eq 1 ]

# A later, additive schema is still used; one that needs a newer mailroom is refused.
pg_sql "UPDATE mailroom_schema SET version = 11"
[ "$(mailroom --as bob --json count | jq .unread)" -eq 1 ]
pg_sql "UPDATE mailroom_schema SET version = 12, min_version = 12, min_mailroom = '9.1.0'"
expect_exit 5 mailroom --as bob count 2> "$t/err"
grep -q "has schema version 12, which needs mailroom 9.1.0 or newer" "$t/err"
grep -q "hint: upgrade mailroom on this host" "$t/err"
expect_exit 5 mailroom init --db "$MAILROOM_DB" > /dev/null 2>&1
mailroom --as bob check --inject > "$t/out" 2> /dev/null
[ ! -s "$t/out" ]
