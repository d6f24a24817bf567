#!/usr/bin/env bash
# integration/exec_end_to_end.sh: the whole CLI on the exec provider with the reference script
# testdata/exec/stateful.sh: send, inbox, read, reply, thread, count, check --inject, archive twice,
# and clear refusals for what the protocol cannot carry.
. "$(dirname "$0")/common.sh"
: "${MAILROOM_TESTDATA:?set MAILROOM_TESTDATA to the testdata directory}"
command -v flock > /dev/null || skip "flock (util-linux) not installed"
export MAILROOM_PROVIDER="exec:$MAILROOM_TESTDATA/exec/stateful.sh"
export MAILROOM_EXEC_STATE="$t/state"
mkdir -p "$MAILROOM_EXEC_STATE"

out=$(mailroom --as alice send bob -s "Deploy" -m "Can you deploy after lunch?")
[[ "$out" =~ ^Sent\ message\ ([^ ]+)\ to\ bob$ ]]
id=${BASH_REMATCH[1]}

mailroom --as bob inbox > "$t/inbox"
grep -q "^$id .*alice.*Deploy" "$t/inbox"
[ "$(mailroom --as bob check)" = "1 unread message(s) for bob" ]
[ "$(mailroom --as bob count)" = "1 total, 1 unread for bob" ]

mailroom --as bob check --inject > "$t/inject"
head -1 "$t/inject" | grep -qx '<system-reminder>'
grep -qx -- "- $id from alice \[Deploy\]: Can you deploy after lunch?" "$t/inject"

mailroom --as bob read "$id" > "$t/read"
grep -qx "From:     alice" "$t/read"
grep -qx "Body:     Can you deploy after lunch?" "$t/read"
[ "$(mailroom --as bob count)" = "1 total, 0 unread for bob" ]
expect_exit 1 mailroom --as bob check

reply=$(mailroom --as bob reply "$id" "Will do.")
[[ "$reply" =~ ^Replied\ to\ $id\ —\ sent\ message\ ([^ ]+)\ to\ alice$ ]]
reply_id=${BASH_REMATCH[1]}
# The wire carries the subject as gc sends it, empty without -s; the script names the reply.
[ "$(mailroom --as alice --json peek "$reply_id" | jq -r .message.subject)" = "" ]
[ "$(mailroom --as alice --json thread "$id" | jq '.messages | length')" = 2 ]

[ "$(mailroom --as bob archive "$id")" = "Archived message $id" ]
[ "$(mailroom --as bob archive "$id")" = "Already archived $id" ]
[ "$(mailroom --as bob count)" = "0 total, 0 unread for bob" ]

# Several recipients: one script send each, one line each.
mailroom --as alice send bob,carol "hi" > /dev/null 2>&1 && exit 1
mailroom --as alice send --to bob --to carol -m "standup in 5" > "$t/multi"
[ "$(grep -c '^Sent message .* to \(bob\|carol\)$' "$t/multi")" = 2 ]

# What the protocol cannot carry is refused, never dropped.
expect_exit 5 mailroom --as alice send @all "hello everyone" 2> "$t/err"
grep -q '^mailroom send: ' "$t/err"
expect_exit 5 mailroom --as alice send bob --cc carol -m "cc me" 2> /dev/null
expect_exit 5 mailroom --as alice send bob --urgent "now" 2> /dev/null
expect_exit 3 mailroom --as bob peek no-such-id 2> /dev/null
