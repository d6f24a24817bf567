#!/usr/bin/env bash
# integration/hosts_pooler.sh: PgBouncer (Debian's, transaction pooling) in front of the server,
# on a database host in its own network namespace (netns_common.bash); an agent host reaches the
# store only through it, with pooler=transaction in the URL (then [store] pooler in the config).
# Every command that does not wait works; `wait` says once that notifications are unavailable
# (warning no_listen) and finds the mail by polling. On a direct connection the private
# LISTEN/NOTIFY round trip succeeds and no warning is given.
. "$(dirname "$0")/common.sh"
. "$integration_dir/netns_common.bash"
net_add db 1
net_add a1 11
pg_start db 5432
on db psql -X -q -h "$(net_addr 1)" -U postgres -d postgres -c "CREATE DATABASE mail" > /dev/null
pgbouncer_start db 6432 5432 transaction
pooled="postgresql://postgres@$(net_addr 1):6432/mail?pooler=transaction"
direct="postgresql://postgres@$(net_addr 1):5432/mail"
unset MAILROOM_DB
m() { on a1 "$MAILROOM" --db "$pooled" "$@"; }

m init > /dev/null
m agents add alice bob > /dev/null
for i in 1 2 3; do m --as alice send bob -s "pooled $i" -m "body $i" --idempotency-key "p-$i" > /dev/null; done
[ "$(m --as alice --json send bob -s "pooled 1" -m "body 1" --idempotency-key p-1 | jq .replayed)" = true ]
[ "$(m --as bob --json count | jq .unread)" = 3 ]
id=$(m --as bob --json inbox | jq -r '.messages[0].id')
m --as bob read "$id" > /dev/null
m --as bob reply "$id" -m "thanks" > /dev/null
m --as bob mark-read --all > /dev/null
m --as bob archive "$id" > /dev/null
m --as alice --json search body | jq -e '.messages | length >= 1' > /dev/null
m --as bob check > /dev/null || [ $? = 1 ]
m --as alice check --inject < /dev/null > "$t/hook.out"
grep -q "mail" "$t/hook.out"
m --as alice team > /dev/null
m --as alice peers > /dev/null
m export > "$t/export.jsonl"
[ "$(wc -l < "$t/export.jsonl")" -gt 4 ]
# Many short commands at once through the pool: no session state leaks between them.
for i in $(seq 1 20); do m --as alice send bob -s "burst $i" -m x > /dev/null & done
wait
[ "$(on db psql -X -At -h "$(net_addr 1)" -U postgres -d mail -c "SELECT count(*) FROM beads WHERE subject LIKE 'burst %'")" = 20 ]

# wait through the pooler: the warning once, then polling finds the mail.
m --as bob wait --type notification --timeout 30s > "$t/wait.out" 2> "$t/wait.err" &
waiter=$!
sleep 1
m --as alice send bob --type notification -s "polled" -m x > /dev/null
wait "$waiter"
grep -q "polled" "$t/wait.out"
[ "$(grep -c "notifications unavailable (pooled connection); polling every 2s" "$t/wait.err")" = 1 ]
m --as bob --json wait --type cron_task --timeout 1s > /dev/null 2> "$t/wait.json" || true
jq -e 'select(.warning) | .warning.code == "no_listen"' "$t/wait.json" > /dev/null || { cat "$t/wait.json" >&2; exit 1; }

# [store] pooler in the configuration instead of the URL.
mkdir -p "$t/cfg"
printf '[store]\nurl = "postgresql://postgres@%s:6432/mail"\npooler = "transaction"\n' "$(net_addr 1)" > "$t/cfg/mailroom.toml"
(cd "$t/cfg" && on a1 "$MAILROOM" --as bob --json count | jq -e '.unread >= 0' > /dev/null)

# Direct to the server: the round trip succeeds, no warning.
on a1 "$MAILROOM" --db "$direct" --as bob wait --type notification --timeout 1s > /dev/null 2> "$t/direct.err" || true
not grep -q "notifications unavailable" "$t/direct.err"
