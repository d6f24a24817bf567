#!/usr/bin/env bash
# integration/presence_surfaces.sh: presence is a property of the operation, recorded by each
# surface with its source (contract "Three surfaces, one truth", Round 4 "Surfaces"): the CLI as
# `command` (`check` as itself), serve's non-GET requests as `http` for the acting mailbox, and a
# GET never. (MCP's `mcp`: integration/mcp_client_presence.sh.)
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/serve_common.bash"

mailroom agents add alice bob carol dave > /dev/null
# team is a view: asking records nothing.
via() { mailroom --json team | jq -r --arg m "$1" '.mailboxes[] | select(.mailbox == $m) | .seen_via'; }
seen() { mailroom --json team | jq -r --arg m "$1" '.mailboxes[] | select(.mailbox == $m) | .last_seen_at'; }

# The CLI: a write and a read of one's own mail are `command`, check is `check`; views nothing.
id=$(send_id --as alice bob 'for bob')
[ "$(via alice)" = command ]
[ "$(via bob)" = null ]
mailroom --as bob peers > /dev/null
mailroom --as bob peek "$id" > /dev/null
mailroom --as bob thread "$id" > /dev/null
[ "$(via bob)" = null ]
mailroom --as bob inbox > /dev/null
[ "$(via bob)" = command ]
mailroom --as carol check > /dev/null || [ $? = 1 ] # 1: no new mail
[ "$(via carol)" = check ]

# serve, acting as dave: a GET reads without being seen, a POST is dave acting through HTTP.
to_dave=$(send_id --as alice dave 'for dave')
MAILROOM_IDENTITY=dave serve_start
expect_status 200 GET /api/v1/mailboxes/dave/messages
expect_status 200 GET "/api/v1/messages/$to_dave"
expect_status 200 GET /api/v1/team
[ "$(via dave)" = null ]
[ "$(seen dave)" = null ]
expect_status 200 POST "/api/v1/messages/$to_dave/read" -d '{}'
[ "$(via dave)" = http ]
[ "$(seen dave)" != null ]
# A send through serve is the acting mailbox's write, recorded for it alone.
expect_status 200 POST /api/v1/messages -d '{"to":"bob","body":"from the page"}'
[ "$(via dave)" = http ]
[ "$(via bob)" = command ]
# A refused POST changes nothing, presence included.
before=$(seen dave)
expect_status 400 POST /api/v1/messages -d '{"to":"bob","body":""}'
[ "$(seen dave)" = "$before" ]
serve_stop && [ "$serve_status" = 143 ]
echo ok
