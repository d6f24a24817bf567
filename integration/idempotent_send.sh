#!/usr/bin/env bash
# integration/idempotent_send.sh: a retried send with the same key replays the original; the same
# key with other content is a conflict (exit 4); the environment variable works too.
. "$(dirname "$0")/common.sh"
mailroom agents add bob > /dev/null

first=$(mailroom --json send bob "deploy finished" --idempotency-key deploy-42)
id=$(jq -r .id <<< "$first")
[ "$(jq .replayed <<< "$first")" = false ]

again=$(mailroom --json send bob "deploy finished" --idempotency-key deploy-42)
[ "$(jq -r .id <<< "$again")" = "$id" ]
[ "$(jq .replayed <<< "$again")" = true ]
[ "$(mailroom --as bob --json count | jq .total)" -eq 1 ]

expect_exit 4 mailroom send bob "something else" --idempotency-key deploy-42 2> "$t/err"
grep -q '^mailroom send: ' "$t/err"
[ "$(mailroom --as bob --json count | jq .total)" -eq 1 ]

MAILROOM_IDEMPOTENCY_KEY=env-key mailroom send bob "from env" > /dev/null
MAILROOM_IDEMPOTENCY_KEY=env-key mailroom send bob "from env" > /dev/null
[ "$(mailroom --as bob --json count | jq .total)" -eq 2 ]
