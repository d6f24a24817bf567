#!/usr/bin/env bash
# integration/postgres_keyword_string.sh: a libpq keyword string (host=... dbname=...) names a
# PostgreSQL store wherever a store is accepted (--db, MAILROOM_DB, [store] url and path), and no
# form of connection text is ever printed with its password: errors, config, --verbose, export.
. "$(dirname "$0")/common.sh"
. "$integration_dir/pg_common.bash"
secret=SuperSecret
# Nothing listens there: the command fails as a PostgreSQL one (exit 5) and never echoes the secret.
for location in \
  "host=/nonexistent port=5432 dbname=mail user=pwuser password=$secret" \
  "password='$secret two' host=/nonexistent dbname=mail" \
  "host=/nonexistent dbname=mail password=$secret sslpassword=$secret" \
  "postgresql://pwuser:$secret@/mail?host=/nonexistent" \
  "postgresql://pwuser:$secret@a:1,b:2/mail?host=/nonexistent&connect_timeout=1" \
  "postgres:///mail?host=/nonexistent&password=$secret" \
  "postgres:///mail?host=/nonexistent&pass%77ord=$secret"; do
  for how in flag env; do
    rc=0
    if [ "$how" = flag ]; then
      mailroom --verbose --db "$location" --as bob count > "$t/out" 2> "$t/err" || rc=$?
    else
      MAILROOM_DB="$location" mailroom --verbose --as bob count > "$t/out" 2> "$t/err" || rc=$?
    fi
    [ "$rc" -eq 5 ] || { echo "$location ($how): expected exit 5, got $rc" >&2; cat "$t/err" >&2; exit 1; }
    not grep -q "$secret" "$t/out" "$t/err" || { cat "$t/err" >&2; exit 1; }
    grep -qi 'postgres' "$t/err" || { cat "$t/err" >&2; exit 1; }
    not grep -q 'no store at /' "$t/err" # never taken as a file path
    MAILROOM_DB="$location" mailroom config > "$t/config" 2>&1 || true
    not grep -q "$secret" "$t/config"
  done
done

# In a config file, as [store] url and as [store] path.
mkdir -p "$t/ws" && cd "$t/ws"
for key in url path; do
  printf '[store]\n%s = "host=/nonexistent dbname=mail password=%s"\n' "$key" "$secret" > mailroom.toml
  (unset MAILROOM_DB; expect_exit 5 mailroom --as bob count 2> "$t/err")
  not grep -q "$secret" "$t/err"
  (unset MAILROOM_DB; mailroom config > "$t/config")
  grep -q 'host=/nonexistent dbname=mail' "$t/config"
  not grep -q "$secret" "$t/config"
done
rm mailroom.toml
cd "$t/work"

# A keyword string reaches a real server: init, send, read, export (whose header shows no password).
pg_sql "ALTER USER postgres PASSWORD '$secret'"
keywords="host=$pg_dir user=postgres dbname=mail password=$secret"
# init records its location, so a password there is exit 2 with the ~/.pgpass hint (contract
# "One project, one mailroom (round 3)"); the same string without it, the password from libpq's
# own PGPASSWORD, initialises the store.
expect_exit 2 mailroom --db "$keywords" init > "$t/init" 2>&1
not grep -q "$secret" "$t/init"
grep -q pgpass "$t/init"
(cd "$t/setup" && PGPASSWORD=$secret mailroom --db "host=$pg_dir user=postgres dbname=mail" init > "$t/init" 2>&1)
not grep -q "$secret" "$t/init"
mailroom --db "$keywords" agents add bob > /dev/null
mailroom --db "$keywords" send bob -s "over keywords" -m hi -q
[ "$(MAILROOM_DB="$keywords" mailroom --as bob --json count | jq .total)" -eq 1 ]
mailroom --db "$keywords" export > "$t/export.jsonl"
head -1 "$t/export.jsonl" | jq -e '.store | test("host=") and (test("SuperSecret") | not)' > /dev/null
# The same store through its URL.
[ "$(mailroom --db "$(pg_url)" --as bob --json count | jq .total)" -eq 1 ]
