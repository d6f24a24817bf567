#!/usr/bin/env bash
# integration/hook_ranking.sh: the hook's order (contract "Three surfaces, one truth", and "What
# reaches an agent"). The hook names the mailbox, counts the classes, and lists urgent mail (an
# escalation is urgent by default) first, then the requests awaiting the agent's reply (oldest first, marked
# `[reply expected]`, `[urgent] [reply expected]` when both), then inbox order, in all four hook
# forms; its last line names the first listed request in `mailroom reply <id> …`; `inbox` keeps
# its order. A hook whose identity fell through to the default `human` stays quiet (exit 0, one
# stderr line naming MAILROOM_IDENTITY); an explicit `human` works.
. "$(dirname "$0")/common.sh"
workspace lead news builder
send_id --as news builder -s "fyi one" -m "standup at 10" > /dev/null
send_id --as news builder --urgent -s "fyi urgent" -m "the build is red" > /dev/null
send_id --as news builder -s "fyi two" -m "lunch" > /dev/null
task=$(send_id --as lead builder --type task_request -s "review PR 7" -m "please review")
send_id --as news builder -s "fyi three" -m "party" > /dev/null
task2=$(send_id --as lead builder --type task_request -s "review PR 8" -m "and this one")
hurry=$(send_id --as lead builder --urgent --type task_request -s "fix prod" -m "now please")
escalation=$(send_id --as news builder --type escalation -s "lead is dark" -m "no ack for 1h")

# The text form: mailbox line, class line, then urgent mail and the escalation (inbox order), the
# requests (oldest first), the rest (inbox order), and the line that says how to answer.
MAILROOM_IDENTITY=builder mailroom check --inject --limit 10 > "$t/text"
sed -n 2,4p "$t/text" > "$t/head"
printf '%s\n' "You have 8 unread message(s)." "For mailbox builder:" \
  "3 urgent; 2 requests await your reply; 3 more" | diff - "$t/head"
# Each line as its markers, sender and subject: "[urgent] [reply expected] lead: fix prod".
grep '^- ' "$t/text" | sed -E 's/^- ((\[[a-z ]+\] )*)[^ ]+ from ([a-z]+) \[([^]]*)\].*/\1\3: \4/' > "$t/order"
printf '%s\n' "[urgent] news: fyi urgent" "[urgent] [reply expected] lead: fix prod" "[urgent] news: lead is dark" \
  "[reply expected] lead: review PR 7" "[reply expected] lead: review PR 8" "news: fyi one" "news: fyi two" \
  "news: fyi three" | diff - "$t/order"
tail -2 "$t/text" | head -1 | grep -qx "To answer, run 'mailroom reply $hurry <your reply>'\."
# The default limit shows the head of that order; its answer line names a listed request.
MAILROOM_IDENTITY=builder mailroom check --inject > "$t/three"
[ "$(grep -c '^- ' "$t/three")" -eq 3 ]
grep -q "reply $hurry <your reply>" "$t/three"

# The same order in the JSON form and in every agent's hook JSON.
[ "$(MAILROOM_IDENTITY=builder mailroom --json check --inject | jq -r .reminder)" = "$(cat "$t/three")" ]
for agent in claude codex gemini; do
  MAILROOM_IDENTITY=builder mailroom check --hook-format "$agent" < /dev/null |
    jq -r .hookSpecificOutput.additionalContext > "$t/$agent"
  [ "$(cat "$t/$agent")" = "$(cat "$t/three")" ]
done

# inbox order is unchanged: urgent first (the escalation is urgent by default), then arrival.
mailroom --json --as builder inbox | jq -r '.messages[].subject' > "$t/inbox"
printf '%s\n' "fyi urgent" "fix prod" "lead is dark" "fyi one" "fyi two" "review PR 7" "fyi three" \
  "review PR 8" | diff - "$t/inbox"

# Once replied to, a request leaves its class and the head; the answer line moves on.
mailroom --as builder reply "$hurry" -m "on it" > /dev/null
mailroom --as builder reply "$task" -m "done" > /dev/null
MAILROOM_IDENTITY=builder mailroom check --inject > "$t/after"
sed -n 4p "$t/after" | grep -qx "2 urgent; 1 request awaits your reply; 3 more"
grep -q "reply $task2 <your reply>" "$t/after"

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
