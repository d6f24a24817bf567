#!/usr/bin/env bash
# integration/operator_views.sh: the operator's read surface — `trace --recent` lists the newest
# traces with their root, size and open requests; `peers --all` the sender x recipient matrix,
# stale first; both are views: running them as any agent moves nobody's presence.
. "$(dirname "$0")/common.sh"
workspace lead worker ghost
sed -i -e 's/^stale_after = .*/stale_after = "1s"/' mailroom.toml

[ "$(mailroom trace --recent)" = "No traces" ]
[ "$(mailroom peers --all)" = "No mail between mailboxes yet" ]
mailroom --json trace --recent | jq -e '. == {"schema_version":1,"traces":[]}' > /dev/null
mailroom --json peers --all | jq -e '. == {"schema_version":1,"stale_count":0,"pairs":[]}' > /dev/null

to_worker=$(send_id --as lead worker "build it" --type task_request)
mailroom --as worker reply "$to_worker" "built" > /dev/null
sleep 0.01
to_ghost=$(send_id --as lead ghost "ship it" --type task_request)
sleep 1.2

seen() { mailroom --json agents | jq -c '[.agents[] | [.name, .last_seen]]'; }
before=$(seen)
for who in lead worker ghost; do
  mailroom --as "$who" trace --recent > /dev/null
  mailroom --as "$who" peers --all > /dev/null
  mailroom --as "$who" --json peers --all > /dev/null
done
[ "$(seen)" = "$before" ]

mailroom --json trace --recent > "$t/json"
jq -e --arg w "$to_worker" --arg g "$to_ghost" '(.traces | length) == 2
  and (.traces[0] | .root_id == $g and .from == "lead" and .subject == "ship it" and .message_count == 1
                    and .open_requests == 1 and (.started_at | test("Z$")))
  and (.traces[1] | .root_id == $w and .message_count == 2 and .open_requests == 0)
  and (.traces[0] | keys) == ["from","last_at","message_count","open_requests","root_id","started_at","subject","trace_id"]' \
  "$t/json" > /dev/null
mailroom --json trace --recent --limit 1 | jq -e '(.traces | length) == 1' > /dev/null
mailroom trace --recent > "$t/out"
head -1 "$t/out" | grep -Eq '^TRACE +ROOT +FROM +SUBJECT +STARTED +MESSAGES +OPEN$'
sed -n 2p "$t/out" | grep -Eq "^[0-9a-f]{32} +$to_ghost +lead +ship it +.* +1 +1$"
expect_exit 2 mailroom trace --recent --limit 0
expect_exit 2 mailroom trace --recent "$to_ghost"
expect_exit 2 mailroom trace --limit 3 "$to_ghost"

mailroom --json peers --all > "$t/json"
jq -e '.stale_count == 1 and ([.pairs[] | [.sender, .recipient, .stale]] ==
         [["lead","ghost",true],["lead","worker",false],["worker","lead",false]])
  and (.pairs[0] | .pending_count == 1 and .oldest_pending_age_ms >= 1000 and .escalated_count == 0
                   and .failed_count == 0 and .last_acked_at == null and (.last_sent_at | test("Z$")))
  and (.pairs[1] | .pending_count == 0 and .last_acked_at != null)
  and (.pairs[0] | keys) == ["escalated_count","failed_count","last_acked_at","last_sent_at","oldest_pending_age_ms",
                             "pending_count","recipient","sender","stale"]' "$t/json" > /dev/null
mailroom peers --all > "$t/out"
head -1 "$t/out" | grep -Eq '^SENDER +RECIPIENT +PENDING +OLDEST +ESCALATED +FAILED +LAST SENT +LAST ACKED +STALE$'
sed -n 2p "$t/out" | grep -Eq '^lead +ghost +1 +[0-9]+s +0 +0 .* stale$'
[ "$(wc -l < "$t/out")" = 4 ]
expect_exit 2 mailroom peers --all worker
# The per-peer state beside stale.
mailroom --as lead --json peers | jq -e '[.peers[] | [.peer, .state]] == [["ghost","dark"],["worker","active"]]' > /dev/null
