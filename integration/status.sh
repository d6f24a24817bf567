#!/usr/bin/env bash
# integration/status.sh: the sender sees each recipient's delivered, read and archived times
. "$(dirname "$0")/common.sh"
workspace alice bob carol
id=$(send_id --as alice --to bob --cc carol "report")
mailroom --as bob read "$id" > /dev/null
mailroom --as carol archive "$id" > /dev/null
mailroom --as alice status "$id" > "$t/out"
expect_golden "$t/out"
mailroom --as alice --json status "$id" | jq -e '.recipients[0].read_at != null and .recipients[0].archived_at == null and .recipients[1].kind == "cc" and .recipients[1].archived_at != null' > /dev/null
