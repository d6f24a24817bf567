#!/usr/bin/env bash
# integration/invalid_recipient.sh: foreign and malformed addresses are rejected with exit 2; nothing stored
. "$(dirname "$0")/common.sh"
workspace bob gpt
for bad in 'AGENT:gpt' 'AGENT:*' 'bob smith' '-x' ''; do
  expect_exit 2 mailroom --json send --to "$bad" "hello" 2> "$t/err"
  jq -e '.error.code == "invalid_recipient" and .error.valid_shapes == ["name","rig/name","@all","@group"]' "$t/err" > /dev/null
done
mailroom send 'AGENT:gpt' "hello" 2> "$t/err" || true
expect_golden "$t/err" err
[ "$(mailroom --as bob --json count | jq .total)" = 0 ]
[ "$(mailroom --as gpt --json count | jq .total)" = 0 ]
