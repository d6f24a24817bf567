#!/usr/bin/env bash
# integration/discovery_subdir.sh: a sub-directory of the workspace finds its mailroom.toml and store
. "$(dirname "$0")/common.sh"
workspace mayor
send_id mayor "hi" > /dev/null
mkdir -p deep/er/still
(cd deep/er/still && [ "$(mailroom --as mayor --json count | jq .unread)" = 1 ])
(cd deep/er && mailroom config | grep -E '^store.path' | grep -q "$t/work/.mailroom/mail.db")
# Outside any workspace the store is under XDG_DATA_HOME; a read never creates it.
mkdir -p "$t/elsewhere"
(cd "$t/elsewhere" && expect_exit 5 mailroom --as mayor count 2> "$t/err")
grep -q "no store at $XDG_DATA_HOME/mailroom/mail.db (run 'mailroom init')" "$t/err"
[ ! -e "$XDG_DATA_HOME/mailroom" ]
# MAILROOM_DB and --db pick another store (which init creates).
(cd deep && MAILROOM_DB="$t/other.db" expect_exit 5 mailroom --as mayor count 2> /dev/null)
[ ! -e "$t/other.db" ]
