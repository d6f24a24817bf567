#!/usr/bin/env bash
# integration/sender_read.sh: a sender's `read` of a message it sent and does not receive shows it
# as peek does, changes nothing, exits 0 and says whose copy it left (`sender_read`); anyone else
# who is not a recipient is still exit 4; with `[compat] gc` the sender acts for the one recipient.
. "$(dirname "$0")/common.sh"
workspace alice bob carol
id=$(send_id --as alice bob -s Hi -m hello)
mailroom --as alice read "$id" > "$t/out" 2> "$t/err"
grep -qx 'Body:     hello' "$t/out"
[ "$(cat "$t/err")" = "mailroom read: warning: you sent $id; bob's copy is unchanged (use --for bob)" ]
[ "$(mailroom --as bob count)" = "1 total, 1 unread for bob" ]
mailroom --as alice --json read "$id" > "$t/out" 2> "$t/err"
jq -e ".message.id == \"$id\"" "$t/out" > /dev/null
jq -e '.warning.code == "sender_read"' "$t/err" > /dev/null
[ "$(mailroom --as bob count)" = "1 total, 1 unread for bob" ]
expect_exit 4 mailroom --as carol read "$id" 2> /dev/null
# Several recipients: each copy is named.
both=$(send_id --as alice --to bob --to carol -s Two -m both)
mailroom --as alice read "$both" > /dev/null 2> "$t/err"
grep -q "you sent $both; bob's and carol's copies are unchanged (use --for NAME)" "$t/err"
# --for acts for the recipient: no note.
mailroom --as alice read --for bob "$id" > /dev/null 2> "$t/err"
not grep -q 'you sent' "$t/err"
[ "$(mailroom --as bob count)" = "2 total, 1 unread for bob" ]
# [compat] gc: the sender's read is gc's read of the one state, for the one recipient.
id=$(send_id --as alice bob -s Three -m three)
if grep -q '^gc = false' mailroom.toml; then
  sed -i 's/^gc = false/gc = true/' mailroom.toml # init's template has the key
else
  printf '\n[compat]\ngc = true\n' >> mailroom.toml
fi
mailroom --as alice read "$id" > /dev/null 2> "$t/err"
grep -q 'acting for bob' "$t/err"
[ "$(mailroom --as bob count)" = "3 total, 1 unread for bob" ]
