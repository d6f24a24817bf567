#!/usr/bin/env bash
# integration/identity.sh: --as beats MAILROOM_IDENTITY beats GC_ALIAS beats GC_AGENT beats config beats human
. "$(dirname "$0")/common.sh"
workspace mayor witness alias agent
id=$(send_id mayor "from human")
[ "$(mailroom --as mayor --json peek "$id" | jq -r .message.from)" = human ]
id=$(GC_AGENT=agent send_id mayor "x")
[ "$(mailroom --as mayor --json peek "$id" | jq -r .message.from)" = agent ]
id=$(GC_AGENT=agent GC_ALIAS=alias send_id mayor "x")
[ "$(mailroom --as mayor --json peek "$id" | jq -r .message.from)" = alias ]
id=$(GC_ALIAS=alias MAILROOM_IDENTITY=witness send_id mayor "x")
[ "$(mailroom --as mayor --json peek "$id" | jq -r .message.from)" = witness ]
id=$(MAILROOM_IDENTITY=witness send_id --as alias mayor "x")
[ "$(mailroom --as mayor --json peek "$id" | jq -r .message.from)" = alias ]
id=$(send_id --from agent mayor "x")
[ "$(mailroom --as mayor --json peek "$id" | jq -r .message.from)" = agent ]
[ "$(GC_ALIAS=mayor mailroom --json count | jq -r .mailbox)" = mayor ]
[ "$(GC_ALIAS='  ' mailroom --json count | jq -r .mailbox)" = human ]
# gc's own order puts GC_SESSION_ID after GC_ALIAS (round 2).
[ "$(GC_SESSION_ID=mayor mailroom --json count | jq -r .mailbox)" = mayor ]
[ "$(GC_SESSION_ID=mayor GC_ALIAS=alias mailroom --json count | jq -r .mailbox)" = alias ]
sed -i 's/^# identity = "mayor"/identity = "mayor"/' mailroom.toml
[ "$(mailroom --json count | jq -r .mailbox)" = mayor ]
expect_exit 2 env MAILROOM_IDENTITY='bad name' "$MAILROOM" count
