#!/usr/bin/env bash
# integration/health_peers.sh: `peers` shows my channel to each mailbox I exchanged mail with,
# stale peers first; `peers <name>` one; a stranger is exit 3; the JSON shape of the contract
. "$(dirname "$0")/common.sh"
workspace alice bob carol dave
sed -i 's/^stale_after = .*/stale_after = "1s"/' mailroom.toml
[ "$(mailroom --as alice peers)" = "No peers for alice" ]
late=$(send_id --as alice bob "a task" --type task_request)
done_=$(send_id --as alice carol "another task" --type task_request)
mailroom --as carol reply "$done_" "done" > /dev/null
mailroom --as dave send alice "hello" > /dev/null
sleep 1.2

mailroom --as alice peers > "$t/out"
head -1 "$t/out" | grep -Eq '^PEER +STATE +PENDING +OLDEST +ESCALATED +LAST SENT +LAST ACKED +LAST INBOUND +LAST SEEN +STALE$'
sed -n 2p "$t/out" | grep -Eq '^bob +dark +1 +[0-9]+s +0 .* stale$'      # stale first; never seen, owes
sed -n 3p "$t/out" | grep -Eq '^carol +active +0 +- +0 '
sed -n 4p "$t/out" | grep -Eq '^dave +active +0 +- +0 +- +- +(just now|[0-9]+[mhd] ago)'  # inbound only
[ "$(wc -l < "$t/out")" = 4 ]

mailroom --as alice --json peers > "$t/json"
jq -e '.schema_version == 1 and .mailbox == "alice" and .stale_count == 1 and (.peers | map(.peer)) == ["bob", "carol", "dave"]
  and ([.peers[].state] == ["dark", "active", "active"])
  and (.peers[0] | .pending_count == 1 and .oldest_pending_age_ms >= 1000 and .escalated_count == 0 and .stale == true
                   and .last_acked_at == null and .last_inbound_at == null and (.last_sent_at | test("Z$")))
  and (.peers[1] | .pending_count == 0 and .oldest_pending_age_ms == null and .last_acked_at != null and .stale == false)
  and (.peers[2] | .last_sent_at == null and .last_inbound_at != null and .last_seen_at != null)
  and (.peers[0] | keys) == ["escalated_count","last_acked_at","last_inbound_at","last_seen_at","last_sent_at",
                             "oldest_pending_age_ms","peer","pending_count","stale","state"]' "$t/json" > /dev/null

mailroom --as alice --json peers carol | jq -e '.stale_count == 0 and (.peers | length) == 1 and .peers[0].peer == "carol"' > /dev/null
expect_exit 3 mailroom --as carol peers dave 2> "$t/err"
grep -q 'no mail between carol and "dave"' "$t/err"
expect_exit 3 mailroom --as alice peers alice
expect_exit 2 mailroom --as alice peers '@all'
# bob acks: no longer stale.
mailroom --as bob ack "$late" > /dev/null
mailroom --as alice --json peers bob | jq -e '.stale_count == 0 and .peers[0].pending_count == 0 and .peers[0].last_acked_at != null' > /dev/null
