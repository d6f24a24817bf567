#!/usr/bin/env bash
# integration/idempotency.sh: a retried send with the same key stores one message; other content is a conflict
. "$(dirname "$0")/common.sh"
workspace bob
a=$(send_id bob "deploy done" --idempotency-key k1)
b=$(MAILROOM_IDEMPOTENCY_KEY=k1 send_id bob "deploy done")
[ "$a" = "$b" ]
[ "$(mailroom --as bob --json count | jq .total)" = 1 ]
expect_exit 4 mailroom send bob "something else" --idempotency-key k1
