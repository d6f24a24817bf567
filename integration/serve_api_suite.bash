#!/usr/bin/env bash
# integration/serve_api_suite.bash: the API suite of serve_api.sh (SQLite) and
# postgres_serve_api.sh (PostgreSQL), sourced after common.sh and serve_common.bash with the store
# in $MAILROOM_DB.

mailroom agents add alice bob rig/carol > /dev/null
id=$(mailroom --as alice send bob "hello bob" "first" --json | jq -r .id)
mailroom --as alice send rig/carol "hello carol" "second" > /dev/null
serve_start

# The CLI's JSON, byte for byte: GET messages/{id} is peek --json; GET team is team --json.
expect_status 200 GET "/api/v1/messages/$id?mailbox=bob"
diff <(jq -S 'del(.mailbox)' "$t/body") <(mailroom --as bob peek "$id" --json | jq -S 'del(.mailbox)')
expect_status 200 GET /api/v1/mailboxes
diff <(jq -S . "$t/body") <(mailroom agents --json | jq -S .)

# Boxes: in, out, all; a percent-encoded mailbox.
expect_status 200 GET "/api/v1/mailboxes/bob/messages?box=in"
[ "$(jq_body '.messages[0].id')" = "$id" ]
[ "$(jq_body '.messages[0].read')" = false ]
[ "$(jq_body .has_more)" = false ]
expect_status 200 GET "/api/v1/mailboxes/alice/messages?box=out"
[ "$(jq_body '.messages | length')" = 2 ]
expect_status 200 GET "/api/v1/mailboxes/rig%2Fcarol/messages?box=all"
[ "$(jq_body '.messages[0].subject')" = "hello carol" ]
[ "$(jq_body .mailbox)" = rig/carol ]

# A view changed nothing: bob was not seen (team is a view too), and his message is unread.
mailroom team --json > "$t/team"
[ "$(jq -r '.mailboxes[] | select(.mailbox == "bob") | .last_seen_at' "$t/team")" = null ]
[ "$(mailroom --as bob count --json | jq .unread)" = 1 ]
expect_status 200 HEAD "/api/v1/messages/$id"
grep -qi "^Content-Length: [1-9]" "$t/headers" # the length of the GET, with no body

# Changes through the API, seen by the CLI.
expect_status 200 POST "/api/v1/messages/$id/read" -d '{"for":"bob"}'
[ "$(mailroom --as bob count --json | jq .unread)" = 0 ]
expect_status 200 POST "/api/v1/messages/$id/unread" -d '{"for":"bob"}'
[ "$(mailroom --as bob count --json | jq .unread)" = 1 ]
expect_status 200 POST "/api/v1/messages/$id/archive" -d '{"for":"bob"}'
[ "$(mailroom --as bob inbox --all --json | jq '.messages | length')" = 0 ]
expect_status 200 POST "/api/v1/messages/$id/unarchive" -d '{"for":"bob"}'
[ "$(mailroom --as bob inbox --json | jq '.messages | length')" = 1 ]

# A send as the operator, with the MCP tool's argument names.
expect_status 200 POST /api/v1/messages -d '{"to":["bob"],"subject":"from the page","body":"hi","priority":"urgent"}'
sent=$(jq_body .id)
mailroom --as bob inbox --json > "$t/inbox"
[ "$(jq -r '.messages[0].id' "$t/inbox")" = "$sent" ]
[ "$(jq -r '.messages[0].from' "$t/inbox")" = human ]
[ "$(jq -r '.messages[0].priority' "$t/inbox")" = 0 ] # urgent
reply=$(mailroom --as bob reply "$sent" "thanks" --json | jq -r .id)
expect_status 200 POST "/api/v1/messages/$reply/reply" -d '{"body":"you are welcome"}'
[ "$(mailroom --as bob inbox --json | jq -r '.messages[] | select(.body == "you are welcome") | .from')" = human ]
expect_status 200 GET "/api/v1/threads/$sent"
[ "$(jq_body '.messages | length')" = 3 ]
expect_status 200 GET "/api/v1/status/$sent"
[ "$(jq_body '.recipients[0].recipient')" = bob ]

# gc's verbs for floods: a deduplicated send, and a filtered archive of bob's matching mail.
expect_status 200 POST /api/v1/messages -d '{"to":"bob","body":"disk full","dedup":"disk"}'
disk=$(jq_body .id)
expect_status 200 POST /api/v1/messages -d '{"to":"bob","body":"disk still full","dedup":"disk"}'
[ "$(jq_body .id)" = null ]
[ "$(jq_body '.suppressed[0].id')" = "$disk" ]
expect_status 200 POST /api/v1/archive -d '{"to":"bob","subject_prefix":"DISK","dry_run":true}'
[ "$(jq_body '.matches | length')" = 1 ]
expect_status 200 POST /api/v1/archive -d '{"to":"bob","subject_prefix":"disk","limit":5}'
[ "$(jq_body '.ids[0]')" = "$disk" ]
[ "$(mailroom --json status "$disk" | jq -r '.recipients[0].archived_at != null')" = true ]
expect_status 400 POST /api/v1/archive -d '{"to":"bob"}'
[ "$(jq_body .error.code)" = usage ]
expect_status 405 GET /api/v1/archive

# Schedules: add as the operator for alice, list and show as the CLI does, pause, run-now, cancel.
expect_status 200 POST /api/v1/schedules -d '{"name":"standup","for":"alice","to":"bob","every":"1h","body":"standup"}'
[ "$(jq_body .schedule.name)" = standup ]
expect_status 200 GET "/api/v1/schedules?mailbox=alice"
diff <(jq -S . "$t/body") <(mailroom --as alice schedule list --json | jq -S .)
expect_status 200 GET /api/v1/schedules/alice/standup
[ "$(jq_body .from)" = alice ] # show: the schedule's keys at the top level (docs/schedules.md "JSON")
expect_status 200 POST /api/v1/schedules/alice/standup/pause
[ "$(mailroom --as alice --json schedule list | jq '.schedules[0].paused')" = true ]
expect_status 200 POST /api/v1/schedules/alice/standup/run-now
expect_status 200 POST /api/v1/schedules/alice/standup/cancel -d '{"and_open":true}'
[ "$(mailroom --as alice --json schedule list | jq '.schedules | length')" = 0 ]
expect_status 400 POST /api/v1/schedules -d '{"name":"x","to":"bob","every":"1h","body":"b","evry":"2h"}'
[ "$(jq_body .error.code)" = usage ]
expect_status 400 POST /api/v1/schedules -d '{"to":"bob","in":"1h","for":"alice","body":"b"}'
expect_status 404 GET /api/v1/schedules/alice/nosuch
expect_status 405 GET /api/v1/schedules/alice/standup/pause

# peers --all and trace --recent, byte for byte.
expect_status 200 GET /api/v1/peers
diff <(jq -S . "$t/body") <(mailroom peers --all --json | jq -S .)
[ "$(jq_body '[.pairs[] | select(.sender == "alice" and .recipient == "bob")] | length')" = 1 ]
expect_status 200 GET "/api/v1/traces?limit=2"
diff <(jq -S . "$t/body") <(mailroom trace --recent --limit 2 --json | jq -S .)
[ "$(jq_body '.traces | length')" = 2 ]
expect_status 400 GET "/api/v1/traces?limit=0"

# The life of a request: the verbs as the operator (for a recipient), cancel for the sender; the
# states in the message and status views; who may is the CLI's rule (403 not_sender).
task=$(mailroom --as alice send bob --type task_request -s "index" -m "please" --json | jq -r .id)
expect_status 200 POST "/api/v1/messages/$task/ask" -d '{"for":"bob","question":"which part?"}'
[ "$(jq_body .request_state)" = input_required ]
expect_status 200 GET "/api/v1/messages/$task?mailbox=bob"
[ "$(jq_body .message.request_state)" = input_required ]
expect_status 409 POST "/api/v1/messages/$task/ask" -d '{"for":"bob","question":"and?"}'
expect_status 400 POST "/api/v1/messages/$task/ask" -d '{"for":"bob"}'
expect_status 403 POST "/api/v1/messages/$task/cancel" -d '{}'
[ "$(jq_body .error.code)" = not_sender ]
expect_status 200 POST "/api/v1/messages/$task/cancel" -d '{"for":"alice","reason":"done elsewhere"}'
[ "$(jq_body '.canceled[0]')" = bob ]
expect_status 200 GET "/api/v1/status/$task"
[ "$(jq_body '.recipients[0].request_state')" = canceled ]
expect_status 409 POST "/api/v1/messages/$task/decline" -d '{"for":"bob"}'
expect_status 400 POST "/api/v1/messages/$id/fail" -d '{"for":"bob"}' # expects no reply
expect_status 405 GET "/api/v1/messages/$task/cancel"

# Errors: the CLI's error object and the contract's status.
expect_status 404 GET /api/v1/messages/mr-ffffffffffff
[ "$(jq_body .error.code)" = not_found ]
[ "$(jq_body .error.exit_code)" = 3 ]
expect_status 400 POST /api/v1/messages -d '{"to":"nobody","body":"x"}'
[ "$(jq_body .error.code)" = unknown_recipient ]
expect_status 400 POST /api/v1/messages -d 'not json'
expect_status 400 GET "/api/v1/mailboxes/bob/messages?box=nowhere"
expect_status 405 GET "/api/v1/messages/$id/archive"
expect_status 400 GET "/api/v1/search"
expect_status 200 GET "/api/v1/search?q=carol&mailbox=alice"
[ "$(jq_body '.messages[0].subject')" = "hello carol" ]
serve_stop && [ "$serve_status" = 143 ]
echo ok
