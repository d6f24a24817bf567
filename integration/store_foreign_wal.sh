#!/usr/bin/env bash
# integration/store_foreign_wal.sh: a -wal copied from another database is refused before SQLite
# opens the store (exit 5 naming the -wal, reason foreign_wal): nothing is shown, nothing is
# replayed, and the store stays intact. The store's own WAL, left by a killed writer, still opens.
. "$(dirname "$0")/common.sh"
command -v sqlite3 > /dev/null || skip "sqlite3 shell not installed"
unset MAILROOM_DB
a="$t/a" b="$t/b"
mkdir -p "$a" "$b"
for d in "$a" "$b"; do (cd "$d" && "$MAILROOM" init -q > /dev/null && "$MAILROOM" agents add -q alice bob carol); done
(cd "$a" && "$MAILROOM" --as alice send bob -s "A mail" -m a -q)
(cd "$b" && for i in 1 2 3; do "$MAILROOM" --as carol send alice -s "B mail" -m b -q; done)

# A WAL holding a transaction of B, left by a writer killed before it checkpointed.
wal_of() { # dir: writes a committed, never checkpointed transaction into the dir's -wal
  mkfifo "$1/in"
  sqlite3 "$1/.mailroom/mail.db" < "$1/in" > /dev/null &
  local shell=$!
  exec 7> "$1/in"
  echo "PRAGMA wal_autocheckpoint=0; UPDATE beads SET subject='FORGED FROM OTHER DB';" >&7
  for _ in $(seq 100); do [ "$(stat -c %s "$1/.mailroom/mail.db-wal")" -gt 32 ] && break; sleep 0.05; done
  kill -9 "$shell" 2> /dev/null || true
  wait "$shell" 2> /dev/null || true
  exec 7>&-
  rm -f "$1/in"
}
wal_of "$b"
cp "$b/.mailroom/mail.db-wal" "$a/.mailroom/mail.db-wal"
cd "$a"
for command in "--as bob inbox" "--as bob count" "--as alice send bob -m after -q" "--as bob check --inject"; do
  rc=0
  # shellcheck disable=SC2086
  "$MAILROOM" $command > "$t/out" 2> "$t/err" || rc=$?
  if [ "$command" = "--as bob check --inject" ]; then
    [ "$rc" -eq 0 ] && [ ! -s "$t/out" ] # the hook stays silent
    continue
  fi
  [ "$rc" -eq 5 ] || { echo "$command: expected exit 5, got $rc" >&2; cat "$t/err" >&2; exit 1; }
  grep -q "\"$a/.mailroom/mail.db-wal\" does not belong to the store" "$t/err" || { cat "$t/err" >&2; exit 1; }
  not grep -q FORGED "$t/out"
done
expect_exit 5 "$MAILROOM" --json --as bob inbox 2> "$t/err"
jq -e '.error.reason == "foreign_wal"' "$t/err" > /dev/null
# Nothing was replayed: without the foreign WAL the store is A's, intact, with A's one message.
mv .mailroom/mail.db-wal "$t/foreign-wal"
[ "$(sqlite3 .mailroom/mail.db 'PRAGMA integrity_check')" = ok ]
[ "$("$MAILROOM" --as bob --json inbox | jq -r '[.messages[].subject] | join(",")')" = "A mail" ]

# The store's own WAL from a killed writer belongs: it opens and its transaction is there.
wal_of "$a"
[ "$("$MAILROOM" --as bob --json inbox | jq -r '[.messages[].subject] | join(",")')" = "FORGED FROM OTHER DB" ]
[ "$(sqlite3 .mailroom/mail.db 'PRAGMA integrity_check')" = ok ]
