#!/usr/bin/env bash
# integration/views_cc.sh: Cc is shown apart from To in the views (read, peek, thread), also when
# a group is among the addresses: the addresses as written, each line with the mailboxes it
# reached; the JSON keeps "to" and "cc" apart.
. "$(dirname "$0")/common.sh"
mailroom agents add alice bob carol dave > /dev/null
printf '[groups]\nops = ["alice", "carol"]\n' >> mailroom.toml

# field ID LABEL: the header line LABEL of alice's view of ID (peek).
field() { mailroom --as alice peek "$1" | sed -n "s/^$2 *//p"; }
sent_id() { sed -n 's/^Sent message \([^ ]*\) .*/\1/p'; }

plain=$(mailroom --as bob send alice --cc carol -s plain -m body | sent_id)
[ "$(field "$plain" To:)" = alice ]
[ "$(field "$plain" Cc:)" = carol ]

to_group=$(mailroom --as bob send --to @ops --cc dave -s to-group -m body | sent_id)
[ "$(field "$to_group" To:)" = "@ops (2 mailboxes)" ]
[ "$(field "$to_group" Cc:)" = dave ]

cc_group=$(mailroom --as bob send --to dave --cc @ops -s cc-group -m body | sent_id)
[ "$(field "$cc_group" To:)" = dave ]
[ "$(field "$cc_group" Cc:)" = "@ops (2 mailboxes)" ]

# read and thread show the same lines; the JSON has to and cc apart.
mailroom --as alice read "$cc_group" > "$t/read"
grep -qx 'To:       dave' "$t/read"
grep -qx 'Cc:       @ops (2 mailboxes)' "$t/read"
mailroom --as alice thread "$to_group" > "$t/thread"
grep -qx 'To:       @ops (2 mailboxes)' "$t/thread"
grep -qx 'Cc:       dave' "$t/thread"
mailroom --as alice --json peek "$to_group" |
  jq -e '.message | .to == ["alice","carol"] and .cc == ["dave"]' > /dev/null
