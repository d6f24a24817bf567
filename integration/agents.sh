#!/usr/bin/env bash
# integration/agents.sh: agents add/list/remove; config [agents] names are registered on first use
. "$(dirname "$0")/common.sh"
workspace
mailroom agents add alice rig/bob > "$t/out"
mailroom agents add alice >> "$t/out"
mailroom agents remove alice >> "$t/out"
expect_golden "$t/out"
expect_exit 2 mailroom send alice "x"
expect_exit 2 mailroom agents add 'bad name'
expect_exit 3 mailroom agents remove nobody
sed -i 's/^# names = .*/names = ["mayor", "polecat"]/' mailroom.toml
mailroom send polecat "welcome" > /dev/null
mailroom --json agents | jq -e '[.agents[].name] | (index("mayor") != null) and (index("rig/bob") != null)' > /dev/null
# Presence: a check (what a hook runs) counts as being seen.
mailroom agents add carol > /dev/null
[ "$(mailroom --json agents | jq -r '.agents[] | select(.name == "carol") | .last_seen')" = null ]
mailroom --as carol check > /dev/null || true
[ "$(mailroom --json agents | jq -r '.agents[] | select(.name == "carol") | .last_seen')" != null ]
# `agents rm` is `agents remove`, and removing a mailbox with unread mail warns about it.
mailroom --as mayor send carol "still here?" > /dev/null
mailroom agents rm carol > "$t/rm" 2> "$t/rm.err"
grep -qx "Removed carol" "$t/rm"
grep -q "carol still had 1 unread message(s); they stay readable with 'mailroom inbox carol' and --for carol" "$t/rm.err"
[ "$(mailroom --json agents | jq -r '.agents[0] | (.last_seen_at == .last_seen)')" = true ]
# Both ways the warning names work on the retired mailbox.
[ "$(mailroom --json inbox carol | jq -r '.messages[0].subject // .messages[0].body')" != null ]
rid=$(mailroom --json inbox carol | jq -r '.messages[0].id')
mailroom --as mayor mark-read --for carol "$rid" > /dev/null
[ "$(mailroom --json count carol | jq .unread)" = 0 ]
