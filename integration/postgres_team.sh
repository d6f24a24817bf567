#!/usr/bin/env bash
# integration/postgres_team.sh: `team` on PostgreSQL (the server's clock): states, seen_via, and
# views that leave presence alone.
. "$(dirname "$0")/common.sh"
. "$integration_dir/pg_common.bash"
mailroom init --db "$MAILROOM_DB" > /dev/null
mailroom agents add lead worker poller ghost > /dev/null
to_worker=$(send_id --as lead worker "build it" --type task_request)
send_id --as lead poller "test it" --type task_request > /dev/null
to_ghost=$(send_id --as lead ghost "ship it" --type task_request)
mailroom --as worker reply "$to_worker" "built" > /dev/null
mailroom --as poller check > /dev/null || true
before=$(mailroom --json team | jq -c '[.mailboxes[] | [.mailbox, .last_seen_at, .seen_via]]')
for who in lead worker poller ghost; do
  mailroom --as "$who" peers > /dev/null || true
  mailroom --as "$who" status "$to_ghost" > /dev/null
  mailroom --as "$who" team > /dev/null
done
[ "$(mailroom --json team | jq -c '[.mailboxes[] | [.mailbox, .last_seen_at, .seen_via]]')" = "$before" ]
mailroom --json team | jq -e '[.mailboxes[] | [.mailbox, .state, .seen_via, .owed_count]] ==
  [["lead","active","command",0],["poller","active","check",1],["worker","active","command",0],["ghost","idle",null,1]]
  and .mailboxes[0].awaiting_others_count == 2' > /dev/null
