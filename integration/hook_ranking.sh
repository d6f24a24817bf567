#!/usr/bin/env bash
# integration/hook_ranking.sh: what reaches an agent (contract "What reaches an agent"). The hook
# names the mailbox, counts the requests awaiting it, and lists them first (oldest first), then
# urgent, then inbox order, in all four hook forms; `inbox` keeps its order. A hook whose identity
# fell through to the default `human` stays quiet (exit 0, one stderr line naming
# MAILROOM_IDENTITY); an explicit `human` works.
. "$(dirname "$0")/common.sh"
workspace lead news builder
send_id --as news builder -s "fyi one" -m "standup at 10" > /dev/null
send_id --as news builder --urgent -s "fyi urgent" -m "the build is red" > /dev/null
send_id --as news builder -s "fyi two" -m "lunch" > /dev/null
task=$(send_id --as lead builder --type task_request -s "review PR 7" -m "please review")
send_id --as news builder -s "fyi three" -m "party" > /dev/null

# The text form: mailbox line, class line, the request first, then the urgent one.
MAILROOM_IDENTITY=builder mailroom check --inject > "$t/text"
sed -n 2,4p "$t/text" > "$t/head"
printf '%s\n' "You have 5 unread message(s)." "For mailbox builder:" \
  "1 request awaits your reply; 1 urgent; 3 more" | diff - "$t/head"
grep '^- ' "$t/text" | head -2 > "$t/first"
grep -q "^- $task from lead " <(sed -n 1p "$t/first")
grep -q "^- \[urgent\] .* from news " <(sed -n 2p "$t/first")

# The same order in the JSON form and in every agent's hook JSON.
[ "$(MAILROOM_IDENTITY=builder mailroom --json check --inject | jq -r .reminder)" = "$(cat "$t/text")" ]
for agent in claude codex gemini; do
  MAILROOM_IDENTITY=builder mailroom check --hook-format "$agent" < /dev/null |
    jq -r .hookSpecificOutput.additionalContext > "$t/$agent"
  [ "$(cat "$t/$agent")" = "$(cat "$t/text")" ]
done

# inbox order is unchanged: urgent first, then arrival.
mailroom --json --as builder inbox | jq -r '.messages[].subject' > "$t/inbox"
printf '%s\n' "fyi urgent" "fyi one" "fyi two" "review PR 7" "fyi three" | diff - "$t/inbox"

# Once replied to, the request leaves the class and the head.
mailroom --as builder reply "$task" -m "done" > /dev/null
MAILROOM_IDENTITY=builder mailroom check --inject > "$t/after"
sed -n 4p "$t/after" | grep -qx "1 urgent; 3 more"

# No identity: nothing on stdout, exit 0, one stderr line naming MAILROOM_IDENTITY, every form.
send_id --as lead human -s "for the operator" -m "hello" > /dev/null
for form in "--inject" "--hook-format claude" "--hook-format codex" "--hook-format gemini"; do
  # shellcheck disable=SC2086
  mailroom check $form < /dev/null > "$t/quiet" 2> "$t/quiet.err"
  [ ! -s "$t/quiet" ]
  [ "$(wc -l < "$t/quiet.err")" -eq 1 ]
  grep -q MAILROOM_IDENTITY "$t/quiet.err"
done
mailroom --json check --inject < /dev/null > "$t/quiet.json" 2> /dev/null
[ ! -s "$t/quiet.json" ] || [ "$(jq -r '.reminder // empty' "$t/quiet.json")" = "" ]
# An explicit human works, from the flag and from the environment.
mailroom --as human check --inject | grep -q "^For mailbox human:$"
MAILROOM_IDENTITY=human mailroom check --inject | grep -q "^For mailbox human:$"
# Naming the mailbox is explicit too.
mailroom check --inject human | grep -q "^For mailbox human:$"
