#!/usr/bin/env bash
# integration/status.sh: the sender (OS user and host) and each recipient's delivered, read and archived times
. "$(dirname "$0")/common.sh"
workspace alice bob carol
id=$(send_id --as alice --to bob --cc carol "report")
mailroom --as bob read "$id" > /dev/null
mailroom --as carol archive "$id" > /dev/null
mailroom --as alice status "$id" > "$t/out"
# The sender as recorded: the OS user and host the send ran as.
[ "$(head -n 1 "$t/out")" = "From alice (uid $(id -u) on $(uname -n))" ]
tail -n +2 "$t/out" > "$t/table"
expect_golden "$t/table"
mailroom --as alice --json status "$id" | jq -e '.recipients[0].read_at != null and .recipients[0].archived_at == null and .recipients[1].kind == "cc" and .recipients[1].archived_at != null' > /dev/null
# Watch's side of each delivery: handler attempts, the claim while a lease holds, set aside.
mailroom --as alice --json status "$id" | jq -e '.recipients[0] | .handler_attempts == 0 and .claim == null and .set_aside_at == null' > /dev/null
