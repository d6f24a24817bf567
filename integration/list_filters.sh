#!/usr/bin/env bash
# integration/list_filters.sh: --from --to --type --priority --since --until --unread --archived
# --thread narrow inbox and sent; a cut list says "Showing N of M"; bad values are exit 2
. "$(dirname "$0")/common.sh"
workspace alice bob carol dave
m1=$(send_id --as alice bob -s alpha -m one)
m2=$(send_id --as carol bob -s beta -m two --type task_request --urgent)
m3=$(send_id --as alice bob --cc dave -s gamma -m three --priority low)
send_id --as alice dave -s delta -m four > /dev/null

ids() { mailroom --json "$@" | jq -r '.messages[].id' | sort | tr '\n' ' '; }
sorted() { printf '%s\n' "$@" | sort | tr '\n' ' '; }
[ "$(ids --as bob inbox --from alice)" = "$(sorted "$m1" "$m3")" ]
[ "$(ids --as bob inbox --to dave)" = "$m3 " ]
[ "$(ids --as bob inbox --type task_request)" = "$m2 " ]
[ "$(ids --as bob inbox --priority urgent)" = "$m2 " ]
[ "$(ids --as bob inbox --since 1h)" = "$(sorted "$m1" "$m2" "$m3")" ]
[ "$(ids --as bob inbox --until 1h)" = "" ]
[ "$(ids --as bob inbox --since 2000-01-01 --until 2999-01-01T00:00:00Z)" = "$(sorted "$m1" "$m2" "$m3")" ]
# --thread takes a thread id, a message id or a unique prefix of one.
thread=$(mailroom --as bob --json peek "$m1" | jq -r .message.thread_id)
[ "$(ids --as bob inbox --thread "$thread")" = "$m1 " ]
[ "$(ids --as bob inbox --thread "${m1:3:6}")" = "$m1 " ]
# Read and archived state.
mailroom --as bob read "$m1" > /dev/null
mailroom --as bob archive "$m2" > /dev/null
[ "$(ids --as bob inbox --from alice)" = "$m3 " ]
[ "$(ids --as bob inbox --all --from alice)" = "$(sorted "$m1" "$m3")" ]
[ "$(ids --as bob inbox --all --unread)" = "$m3 " ]
[ "$(ids --as bob inbox --archived)" = "$m2 " ]
[ "$(ids --as alice sent --unread)" != "" ]

# A cut list says so, in text and in JSON.
mailroom --as bob inbox --all --limit 1 > "$t/out"
tail -1 "$t/out" | grep -qx 'Showing 1 of 2; --limit to see more'
mailroom --as bob --json inbox --all --limit 1 | jq -e '.total == 2 and .unread == 1 and .has_more == true' > /dev/null
mailroom --as bob inbox --from carol > "$t/out"
mailroom --as bob inbox --archived --from alice >> "$t/out"
expect_golden "$t/out"

expect_exit 2 mailroom --as bob inbox --priority hurry
expect_exit 2 mailroom --as bob inbox --since yesterday 2> "$t/err"
grep -q 'invalid time "yesterday" for --since' "$t/err"
expect_exit 2 mailroom --as bob inbox --type task_requst 2> "$t/err"
grep -q 'task_request' "$t/err"
expect_exit 2 mailroom --as bob inbox --from @all
expect_exit 3 mailroom --as bob inbox --thread thread-000000000000
