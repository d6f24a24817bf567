#!/usr/bin/env bash
# integration/serve_surfaces.sh: the rules decided below the surfaces, over serve's HTTP API
# (contract Round 4, "Three surfaces, one truth"): an empty message is refused as the CLI refuses
# it; the server's MAILROOM_IDEMPOTENCY_KEY and TRACEPARENT never reach a request's send.
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/serve_common.bash"

mailroom agents add alice bob > /dev/null
id=$(send_id --as alice human 'for the operator')
parent=0af7651916cd43dd8448eb211c80319c
MAILROOM_IDEMPOTENCY_KEY=server-key TRACEPARENT="00-$parent-b7ad6b7169203331-01" serve_start

# team is a view: asking records nothing.
unread() { mailroom team --json | jq -r --arg m "$1" '.mailboxes[] | select(.mailbox == $m) | .unread'; }

# An empty message: refused by the operation, as on the CLI; nothing stored.
expect_status 400 POST /api/v1/messages -d '{"to":"bob","body":""}'
[ "$(jq_body .error.code)" = usage ]
[ "$(jq_body .error.message)" = "the message is empty: no subject and no body" ]
expect_status 400 POST /api/v1/messages -d '{"to":"bob","subject":""}'
expect_status 400 POST /api/v1/messages -d '{"to":"bob"}'
expect_status 400 POST "/api/v1/messages/$id/reply" -d '{"body":""}'
[ "$(jq_body .error.message)" = "the message is empty: no subject and no body" ]
[ "$(unread bob)" = 0 ]
[ "$(unread alice)" = 0 ]

# The server's own key and trace stay out: the same content twice is two messages, each a new trace.
expect_status 200 POST /api/v1/messages -d '{"to":"bob","subject":"same","body":"twice"}'
first=$(jq_body .id)
[ "$(jq_body .replayed)" = false ]
expect_status 200 POST /api/v1/messages -d '{"to":"bob","subject":"same","body":"twice"}'
second=$(jq_body .id)
[ "$(jq_body .replayed)" = false ]
[ "$first" != "$second" ]
[ "$(unread bob)" = 2 ]
mailroom --as bob --json peek "$first" > "$t/first"
[ "$(jq -r .message.trace_id "$t/first")" != "$parent" ]
[ "$(jq -r .message.parent_span_id "$t/first")" = null ]

serve_stop && [ "$serve_status" = 143 ]
echo ok
