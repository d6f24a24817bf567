#!/usr/bin/env bash
# integration/wake_argv.sh: an urgent send wakes a recipient whose target is an argv, once, in a
# detached child; a hostile subject reaches the argv only as data; a non-urgent send does not
# wake, --wake does (deferred within the cooldown); agents list and team show it. Mail read before
# its wake ran is skipped: the contract suite's Wake_MailReadArchivedOrCanceledBeforeTheWakeIsSkipped
# shellcheck disable=SC2016 # single quotes keep the hostile text literal on purpose
. "$(dirname "$0")/common.sh"
workspace alice bob carol
cat > "$t/wake.sh" <<SH
#!/bin/sh
printf '%s|' "\$@" >> "$t/woken"
echo >> "$t/woken"
SH
chmod +x "$t/wake.sh"
# until CMD: runs CMD every 0.1 s until it succeeds, at most 10 s.
until_true() {
  for _ in $(seq 1 100); do
    if "$@"; then return 0; fi
    sleep 0.1
  done
  echo "until_true: $* never held" >&2
  return 1
}
is_outcome() { [ "$(outcome "$1")" = "$2" ]; } # MAILBOX OUTCOME: read anew at every try
outcome() { mailroom --json team | jq -r --arg m "$1" '.mailboxes[] | select(.mailbox == $m) | .wake.outcome'; }
woken_lines() { [ -f "$t/woken" ] && wc -l < "$t/woken" || echo 0; }

expect_exit 2 mailroom agents set bob --wake "$t/wake.sh" '{nope}'
expect_exit 2 mailroom agents set bob --wake
expect_exit 2 mailroom agents set bob --wake @missing
mailroom agents set bob --wake "$t/wake.sh" '{to}' '{from}' '{subject}' '{count}' > "$t/out"
grep -q '^bob wakes with ' "$t/out"
mailroom --json agents | jq -e '.agents[] | select(.name == "bob") | .wake.target | test("wake.sh")' > /dev/null
mailroom --json agents | jq -e '.agents[] | select(.name == "carol") | .wake == null' > /dev/null

# Not urgent, no reply expected: no wake.
mailroom --as alice send bob "just so you know" > /dev/null
sleep 0.5
[ "$(woken_lines)" = 0 ]

hostile='$(touch '"$t"'/pwned); "q" `id` ;{to}'
mailroom --as alice send bob --urgent -s "$hostile" -m body > "$t/sent"
grep -q '^Sent message ' "$t/sent"
until_true is_outcome bob sent
[ "$(cat "$t/woken")" = "bob|alice|$hostile|1|" ]
[ ! -e "$t/pwned" ]
mailroom --json team | jq -e '.mailboxes[] | select(.mailbox == "bob") | .wake_failed == false' > /dev/null
mailroom team | grep -q '^wake: bob -> .*last sent'

# Within the cooldown the next wake is recorded with the send and left for later: no child starts.
mailroom --as carol send bob --wake "again" > /dev/null
is_outcome bob pending
sleep 0.5
[ "$(woken_lines)" = 1 ]
is_outcome bob pending

# A wake pass by hand runs nothing: the cooldown defers the wake (it waits for the cooldown's end).
mailroom --json wake-run | jq -e '.ran == [] and ([.settled[].outcome] == ["deferred"])' > /dev/null
is_outcome bob deferred

mailroom agents set bob --no-wake > /dev/null
mailroom --json agents | jq -e '.agents[] | select(.name == "bob") | .wake.target == null' > /dev/null
