#!/usr/bin/env bash
# integration/acting_for.sh: --for acts on a recipient's delivery and says so; a non-recipient without
# --for is exit 4 naming the recipients; [compat] gc acts for a sole recipient only; gc's --city and
# --rig flags.
. "$(dirname "$0")/common.sh"
workspace mayor polecat witness
id=$(mailroom --as mayor --json send polecat "fix the build" | jq -r '.id')
bcast=$(mailroom --as mayor --json send --to polecat --to witness "two of you" | jq -r '.id')

# Not a recipient, no --for: exit 4, the hint names the recipient and --for; nothing changed.
expect_exit 4 mailroom --as witness archive "$id" 2> "$t/err"
grep -q "is not a recipient" "$t/err"
grep -q "hint: its recipients are polecat; an operator acts for one with --for NAME" "$t/err"
[ "$(mailroom --as polecat --json count | jq .unread)" = 2 ]

# --for: the recipient's delivery changes, stderr says who, status records the caller.
mailroom --as witness mark-read --for polecat "$id" > "$t/out" 2> "$t/err"
grep -q "acting for polecat" "$t/err"
[ "$(mailroom --as polecat --json count | jq .unread)" = 1 ]
[ "$(mailroom --json status "$id" | jq -r '.recipients[0].acted_by')" = witness ]
mailroom --as human read --for polecat "$bcast" > /dev/null 2> "$t/err"
grep -q "acting for polecat" "$t/err"
[ "$(mailroom --as polecat --json count | jq .unread)" = 0 ]
[ "$(mailroom --as witness --json count | jq .unread)" = 1 ]
# --for a mailbox that is not a recipient is still exit 4.
expect_exit 4 mailroom --as human archive --for mayor "$id"
expect_exit 2 mailroom mark-read --all --for polecat

# [compat] gc: a sole recipient's delivery changes for a non-recipient; several recipients stay exit 4.
sed -i 's/^gc = false/gc = true/' mailroom.toml
mailroom --as human archive "$id" > /dev/null 2> "$t/err"
grep -q "acting for polecat" "$t/err"
[ "$(mailroom --as polecat --json inbox --all | jq '.messages | length')" = 1 ]
expect_exit 4 mailroom --as human archive "$bcast"

# gc's --city DIR runs as if in DIR; --rig is refused with what to use instead.
cd /
[ "$(mailroom --city "$t/work" --as witness --json count | jq .unread)" = 1 ]
expect_exit 2 mailroom --city /no/such/dir count
expect_exit 2 mailroom --city "$t/work" --rig myrig count 2> "$t/err"
grep -q "hint: qualify the mailbox as rig/name" "$t/err"
