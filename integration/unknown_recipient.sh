#!/usr/bin/env bash
# integration/unknown_recipient.sh: an unregistered mailbox is unknown_recipient with did-you-mean; nothing stored
. "$(dirname "$0")/common.sh"
workspace mayor
expect_exit 2 mailroom send mayr "hello" 2> "$t/err"
grep -q 'unknown recipient "mayr"' "$t/err"
grep -q 'did you mean "mayor"' "$t/err"
expect_exit 2 mailroom --json send --to mayor --to mayr "hello" 2> "$t/err"
jq -e '.error.code == "unknown_recipient" and (.error.suggestions | index("mayor") != null)' "$t/err" > /dev/null
[ "$(mailroom --as mayor --json count | jq .total)" = 0 ]
