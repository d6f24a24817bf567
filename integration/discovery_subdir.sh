#!/usr/bin/env bash
# integration/discovery_subdir.sh: a sub-directory of the workspace finds its mailroom.toml and store
. "$(dirname "$0")/common.sh"
workspace mayor
send_id mayor "hi" > /dev/null
mkdir -p deep/er/still
(cd deep/er/still && [ "$(mailroom --as mayor --json count | jq .unread)" = 1 ])
(cd deep/er && mailroom config | grep -E '^store.path' | grep -q "$t/work/.mailroom/mail.db")
# Outside any workspace the store is under XDG_DATA_HOME.
mkdir -p "$t/elsewhere"
(cd "$t/elsewhere" && [ "$(mailroom --as mayor --json count | jq .total)" = 0 ])
[ -f "$XDG_DATA_HOME/mailroom/mail.db" ]
# MAILROOM_DB and --db pick another store.
(cd deep && MAILROOM_DB="$t/other.db" mailroom --as mayor --json count | jq -e '.total == 0' > /dev/null)
[ -f "$t/other.db" ]
