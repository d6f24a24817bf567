#!/usr/bin/env bash
# integration/surfaces_cli.sh: the rules decided below the surfaces, on the CLI (contract Round 4,
# "Three surfaces, one truth"): an empty message is refused by the operation (send and reply); a
# mistyped command names the command meant; a read naming no known mailbox is exit 2 with a
# did-you-mean (the hook stays silent; retired, human, mailroom and recipients = "any" pass); a
# timed-out wait says so; inbox --awaiting lists what is owed; trace --recent --open and
# --min-messages narrow the recent traces.
. "$(dirname "$0")/common.sh"
mailroom agents add alice bob carol > /dev/null

# An empty message: no subject and an empty body, however it is written.
expect_exit 2 mailroom --as alice send bob -m '' 2> "$t/err"
grep -q 'the message is empty: no subject and no body' "$t/err"
expect_exit 2 mailroom --as alice send bob -s '' -m '' 2> "$t/err"
grep -q 'the message is empty' "$t/err"
expect_exit 2 mailroom --as alice --json send --to bob -m '' 2> "$t/err"
jq -e '.error.code == "usage"' "$t/err" > /dev/null
expect_exit 2 mailroom --as alice send bob < /dev/null 2> "$t/err" # nothing given at all: gc's usage line
grep -q 'usage: mailroom send' "$t/err"
[ "$(mailroom --as bob --json count | jq .total)" = 0 ]
mailroom --as alice send bob -s 'subject only' > /dev/null # a subject alone is a message
id=$(send_id --as alice bob 'a body alone')
expect_exit 2 mailroom --as bob reply "$id" -m '' 2> "$t/err"
grep -q 'the message is empty' "$t/err"
[ "$(mailroom --as alice --json count | jq .total)" = 0 ]

# A mistyped command is named as such, with the command meant, not as an unknown option.
expect_exit 2 mailroom --as alice sned bob -m x 2> "$t/err"
grep -q 'unknown command "sned"' "$t/err"
grep -q 'did you mean "send"' "$t/err"
not grep -q 'option' "$t/err"
[ "$(mailroom --as bob --json count | jq .total)" = 2 ]

# The read side: a mailbox the team does not know is a typo, on every read.
for cmd in "inbox --from bbo" "inbox --to bbo" "sent --to bbo" "search body --from bbo" "count bbo" \
  "check bbo" "inbox bbo" "sent bbo" "wait --from bbo --timeout 5s"; do
  # shellcheck disable=SC2086
  expect_exit 2 mailroom --as alice $cmd 2> "$t/err"
  grep -q '"bbo"' "$t/err"
  grep -q 'did you mean "bob"' "$t/err"
done
expect_exit 2 mailroom --as alice --json inbox --from bbo 2> "$t/err"
jq -e '.error.code == "unknown_recipient" and (.error.suggestions | index("bob") != null)' "$t/err" > /dev/null
# The hook stays silent, exit 0.
mailroom --as alice check --inject bbo > "$t/hook.out" 2> "$t/hook.err"
[ ! -s "$t/hook.err" ]
# Known names pass: registered, retired, human, mailroom.
mailroom agents remove carol > /dev/null
for name in bob carol human mailroom; do
  mailroom --as alice inbox --from "$name" > /dev/null
  mailroom --as alice count "$name" > /dev/null
done
# Under recipients = "any" every name passes.
mkdir -p "$t/any"
printf '[mail]\nrecipients = "any"\n' > "$t/any/mailroom.toml"
(cd "$t/any" && mailroom --as alice inbox --from nobody-at-all > /dev/null)

# A timed-out wait says so on stderr, in one line.
expect_exit 1 mailroom --as alice wait --timeout 200ms > /dev/null 2> "$t/err"
[ "$(cat "$t/err")" = "mailroom wait: timed out after 200ms" ]
expect_exit 1 mailroom --as alice --json wait --timeout 100ms > "$t/out" 2> "$t/err"
jq -e '.timed_out == true' "$t/out" > /dev/null
[ ! -s "$t/err" ] # the JSON says it

# inbox --awaiting: what awaits bob's reply or ack, read or not.
mailroom --as bob mark-read --all > /dev/null
request=$(send_id --as alice bob --type task_request 'please do it')
acked=$(send_id --as alice bob --ack 'ack this')
send_id --as alice bob 'just news' > /dev/null
mailroom --as bob --json inbox --awaiting > "$t/awaiting"
[ "$(jq -r '[.messages[].id] | sort | join(" ")' "$t/awaiting")" = "$(printf '%s\n' "$request" "$acked" | sort | paste -sd' ')" ]
[ "$(jq .total "$t/awaiting")" = 2 ]
mailroom --as bob read "$request" > /dev/null # working: still owed, although read
[ "$(mailroom --as bob --json inbox --awaiting | jq -r '[.messages[].id] | index("'"$request"'") != null')" = true ]
mailroom --as bob reply "$request" 'done' > /dev/null
mailroom --as bob ack "$acked" > /dev/null
[ "$(mailroom --as bob --json inbox --awaiting | jq .total)" = 0 ]
mailroom --as bob inbox --awaiting | grep -q 'Nothing awaits a reply or an ack from bob'

# trace --recent --open, --min-messages.
open_id=$(send_id --as alice bob --type task_request 'still open')
open_trace=$(mailroom --as bob --json peek "$open_id" | jq -r .message.trace_id)
mailroom --json trace --recent --open > "$t/open"
[ "$(jq -r '[.traces[].trace_id] | join(" ")' "$t/open")" = "$open_trace" ]
request_trace=$(mailroom --as bob --json peek "$request" | jq -r .message.trace_id)
mailroom --json trace --recent --min-messages 2 > "$t/big"
[ "$(jq -r '[.traces[].trace_id] | join(" ")' "$t/big")" = "$request_trace" ]
expect_exit 2 mailroom trace --recent --min-messages 0
expect_exit 2 mailroom trace "$open_id" --open
