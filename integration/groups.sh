#!/usr/bin/env bash
# integration/groups.sh: @group expands from the config; an unknown group is exit 2 with a suggestion
. "$(dirname "$0")/common.sh"
workspace alice bob carol
sed -i 's/^# reviewers = .*/reviewers = ["alice", "bob"]/' mailroom.toml
mailroom send @reviewers "please review" | grep -q "to @reviewers (2 mailboxes)$"
[ "$(mailroom --as alice --json inbox | jq -r '.messages[0].to | join(",")')" = "alice,bob" ]
[ "$(mailroom --as carol --json count | jq .total)" = 0 ]
expect_exit 2 mailroom send @reviewer "x" 2> "$t/err"
grep -q 'did you mean "@reviewers"' "$t/err"
# A member that is not a registered mailbox is refused, naming the group that brought it in;
# nothing is sent to the others.
sed -i 's/^reviewers = .*/reviewers = ["alice", "zed"]/' mailroom.toml
expect_exit 2 mailroom send @reviewers "again" 2> "$t/err"
grep -q 'unknown recipient "zed" (a member of group @reviewers)' "$t/err"
[ "$(mailroom --as alice --json count | jq .total)" = 1 ]
