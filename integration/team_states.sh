#!/usr/bin/env bash
# integration/team_states.sh: a scripted team (a worker that answers, one that polls but never
# acks, one that never runs): `team` shows each state, dark first; views run as each agent never
# change anyone's presence; what the agent did is recorded with its source (seen_via).
. "$(dirname "$0")/common.sh"
workspace lead worker poller ghost quiet hooky
sed -i -e 's/^stale_after = .*/stale_after = "1s"/' -e 's/^presence_after = .*/presence_after = "1h"/' mailroom.toml
grep -q '^presence_after = "1h"' mailroom.toml  # init writes the new key

to_worker=$(send_id --as lead worker "build it" --type task_request)
to_poller=$(send_id --as lead poller "test it" --type task_request)
to_ghost=$(send_id --as lead ghost "ship it" --type task_request)
mailroom --as worker check > /dev/null || true
mailroom --as worker reply "$to_worker" "built" > /dev/null
sleep 1.2
mailroom --as poller check > /dev/null || true

seen() { mailroom --json team | jq -c '[.mailboxes[] | [.mailbox, .last_seen_at, .seen_via]]'; }
before=$(seen)
# Every view, as every agent: nobody's presence moves (ghost and quiet were never seen).
for who in lead worker poller ghost quiet hooky; do
  mailroom --as "$who" team > /dev/null
  mailroom --as "$who" peers > /dev/null || true
  mailroom --as "$who" status "$to_ghost" > /dev/null
  mailroom --as "$who" trace "$to_ghost" > /dev/null || true
  mailroom --as "$who" thread "$to_ghost" > /dev/null || true
  mailroom --as "$who" peek "$to_ghost" > /dev/null || true
  mailroom --as "$who" agents > /dev/null
  mailroom --as "$who" config > /dev/null
  [ "$who" = worker ] || mailroom --as "$who" inbox worker > /dev/null
  [ "$who" = worker ] || mailroom --as "$who" count worker > /dev/null
  [ "$who" = worker ] || mailroom --as "$who" check worker > /dev/null || true
done
[ "$(seen)" = "$before" ]

mailroom --json team > "$t/json"
jq -e '.schema_version == 1 and .presence_after_ms == 3600000 and .stale_after_ms == 1000
  and ([.mailboxes[] | [.mailbox, .state]] ==
       [["ghost","dark"],["poller","not_acking"],["lead","active"],["worker","active"],
        ["hooky","idle"],["quiet","idle"]])
  and (.mailboxes[0] | .last_seen_at == null and .seen_via == null and .owed_count == 1 and .overdue_count == 1
                      and .unread == 1 and .claims == [] and .set_aside_count == 0 and .retired_at == null)
  and (.mailboxes[1] | .seen_via == "check" and .owed_count == 1 and .overdue_count == 1)
  and (.mailboxes[2] | .seen_via == "command" and .awaiting_others_count == 2 and .unread == 1)
  and (.mailboxes[0] | keys) == ["awaiting_others_count","claims","last_seen_at","mailbox","overdue_count",
                                 "owed_count","retired_at","seen_via","set_aside_count","state","unread","wake",
                                 "wake_failed"]
  and (.mailboxes[0] | .wake == null and .wake_failed == false)' "$t/json" > /dev/null

# What the agent did counts: an inbox of its own, a hook; a retired mailbox goes last.
mailroom --as quiet inbox > /dev/null
mailroom --as hooky check --inject > /dev/null
mailroom agents remove poller > /dev/null 2>&1
mailroom --json team | jq -e '[.mailboxes[] | [.mailbox, .state, .seen_via]] ==
  [["ghost","dark",null],["hooky","active","hook"],["lead","active","command"],["quiet","active","command"],
   ["worker","active","command"],["poller","retired","check"]]' > /dev/null

mailroom team > "$t/out"
head -1 "$t/out" | grep -Eq '^MAILBOX +STATE +LAST SEEN +UNREAD +OWED +OVERDUE +AWAITING +CLAIMS +SET ASIDE$'
sed -n 2p "$t/out" | grep -Eq '^ghost +dark +- +1 +1 +1 +0 +- +0$'
sed -n 3p "$t/out" | grep -Eq '^hooky +active +.* via hook '

# A write through the MCP server is the agent acting through MCP: seen_via "mcp", not "command"
# (reliability round 4, finding 06), as a view through it is.
mailroom agents add mcpwriter > /dev/null
{
  printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}' \
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"send","arguments":{"to":"lead","body":"hi"}}}'
  sleep 1 # the answer comes before stdin closes
} | mailroom mcp --as mcpwriter > "$t/mcp.out"
grep -q '"id":2' "$t/mcp.out"
[ "$(mailroom --json team | jq -r '.mailboxes[] | select(.mailbox == "mcpwriter") | .seen_via')" = mcp ]
