#!/usr/bin/env bash
# integration/schedule_cli.sh: schedule add/list/show/pause/resume/cancel/run-now/run-due and
# send --at/--in on the command line: bad input is exit 2 naming the part and stores nothing, an
# unknown name exit 3 with did-you-mean, a second run-now within a minute exit 4; a firing's
# message carries its schedule and slot; cancel --and-open cancels an earlier firing's open request;
# no_firer until a firer ran (contract "Schedules")
. "$(dirname "$0")/common.sh"
workspace alice bob qa

# Bad input: exit 2, the offending part named, nothing stored.
bad() {
  local want=$1
  shift
  expect_exit 2 mailroom --as alice "$@" 2> "$t/err"
  grep -qF -- "$want" "$t/err" || { cat "$t/err" >&2; return 1; }
}
bad "needs --every DUR or --cron EXPR" schedule add nightly qa -m hi
bad 'minute "61" is out of range 0-59' schedule add nightly qa --cron "61 * * * *" -m hi
bad 'it has 6 fields, not 5' schedule add nightly qa --cron "0 0 9 * * *" -m hi
bad 'day-of-week "funday"' schedule add nightly qa --cron "0 9 * * funday" -m hi
bad 'the schedule never fires' schedule add nightly qa --cron "0 0 30 2 *" -m hi
bad 'must be whole seconds, at least 1s' schedule add nightly qa --every 1500ms -m hi
bad 'invalid duration "soon"' schedule add nightly qa --every soon -m hi
bad 'unknown time zone "Mars/Base"' schedule add nightly qa --every 1h --tz Mars/Base -m hi
bad '--every and --cron cannot be combined' schedule add nightly qa --every 1h --cron @daily -m hi
bad 'invalid schedule name' schedule add "no good" qa --every 1h -m hi
bad 'unknown recipient "qq"' schedule add nightly qq --every 1h -m hi
bad 'invalid --catch-up "later"' schedule add nightly qa --every 1h --catch-up later -m hi
bad '--until is before --start' schedule add nightly qa --every 1h --start 2h --until 1h -m hi
TZ='CET-1CEST,M3.5.0,M10.5.0/3' bad 'does not name an IANA time zone' schedule add nightly qa --every 1h -m hi
bad 'is in the past' send bob --at "2020-01-01 09:00" hi
bad 'does not exist in Europe/Berlin: the clocks jump from 2030-03-31 02:00 to 2030-03-31 03:00 at 2030-03-31T01:00:00Z' \
  send bob --at "2030-03-31 02:30" --tz Europe/Berlin hi
bad 'is ambiguous in Europe/Berlin' send bob --at "2030-10-27 02:30" --tz Europe/Berlin hi
bad '--wait-reply cannot wait' send bob --in 5m --wait-reply hi
[ "$(mailroom --as alice --json schedule list --ended | jq '.schedules | length')" = 0 ]

# Made: told when nothing fires it, listed, a second of the name refused.
mailroom --as alice schedule add nightly qa --cron "0 9 * * mon-fri" --tz Europe/Berlin \
  -s "nightly report" -m "Send the nightly report" > "$t/out" 2> "$t/err"
grep -q '^Scheduled nightly: cron 0 9 \* \* mon-fri in Europe/Berlin, next 20[0-9-]* 09:00 CES\?T$' "$t/out"
grep -q 'warning: no firer has run in the last 5 minutes' "$t/err"
expect_exit 4 mailroom --as alice schedule add nightly qa --every 1h -m again
mailroom --as alice --json schedule list | jq -e '.schedules | length == 1 and (.[0] |
  .name == "nightly" and .from == "alice" and .to == ["qa"] and .type == "cron_task" and
  .rule.cron == "0 9 * * mon-fri" and .rule.tz == "Europe/Berlin" and .paused == false and
  .last == null and .subject == "nightly report" and .catch_up == "latest" and .overlap == "skip")' > /dev/null
mailroom --as alice schedule list | grep -q '^nightly  *alice  *qa  *cron 0 9 \* \* mon-fri  *Europe/Berlin'
expect_exit 3 mailroom --as alice schedule show nigthly 2> "$t/err"
grep -q 'did you mean "nightly"' "$t/err"
[ "$(mailroom --as bob --json schedule list | jq '.schedules | length')" = 0 ] # only yours
[ "$(mailroom --as bob --json schedule list --all | jq '.schedules | length')" = 1 ]

# Pause and resume.
[ "$(mailroom --as alice schedule pause nightly)" = "Paused schedule nightly" ]
mailroom --as alice --json schedule list | jq -e '.schedules[0].paused' > /dev/null
mailroom --as alice schedule resume nightly | grep -q '^Resumed schedule nightly (next '

# A recurring schedule fired by run-due: its message says which schedule and slot (a TTL longer
# than the 1 s period, so the request is still open when shown).
mailroom --as alice schedule add tick bob --every 1s --ttl 1h --overlap send -s tick -m tock > /dev/null 2>&1
sleep 1.2
mailroom --json schedule run-due > "$t/fired"
jq -e '.ok and (.fired | map(select(.name == "tick" and .outcome == "sent")) | length) == 1' "$t/fired" > /dev/null
mailroom --as bob --json inbox | jq -e '.messages[0] | .schedule == "tick" and (.slot | test("Z$"))
  and .type == "cron_task" and .subject == "tick" and .expires_at != null' > /dev/null
mailroom --as alice schedule show tick | grep -q '^History:'
mailroom --as alice --json schedule show tick | jq -e '.firings[0] | .outcome == "sent" and .kind == "slot"
  and .request_states.bob == "submitted" and .lateness_ms >= 0' > /dev/null
# cancel --and-open also cancels the firing's open request, as `cancel` does (bob gets the notice).
tick_id=$(jq -r '.fired[] | select(.name == "tick" and .outcome == "sent") | .message_id' "$t/fired")
mailroom --as alice schedule cancel tick --and-open | grep -q '^Canceled schedule tick$'
mailroom --as alice --json status "$tick_id" | jq -e '.recipients[0].request_state == "canceled"' > /dev/null
mailroom --as bob --json inbox | jq -e --arg id "$tick_id" 'any(.messages[]; .type == "canceled" and .reply_to == $id)' > /dev/null

# One-shots: --in, then run-due; it leaves the list once fired.
mailroom --as alice --json send bob --in 1s "later, please" > "$t/once"
jq -e '.scheduled and .id == null and .ids == [] and .recipients == ["bob"]
  and (.schedule | test("^once-[0-9a-f]{4}$"))' "$t/once" > /dev/null
name=$(jq -r .schedule "$t/once")
mailroom --as alice send bob --at 23:59 --tz UTC "at midnight, almost" | grep -q '^Scheduled message to bob at 20[0-9-]* 23:59 UTC (schedule once-[0-9a-f]*)$'
sleep 1.2
mailroom schedule run-due | grep -q "^Fired $name for .*: sent mr-"
mailroom --as bob inbox | grep -q 'later, please'
[ "$(mailroom --as alice --json schedule list | jq --arg n "$name" '[.schedules[] | select(.name == $n)] | length')" = 0 ]
# Its key keys the one-shot: a replay prints the one already scheduled.
mailroom --as alice send bob --in 1h --idempotency-key k1 "keyed" > /dev/null
mailroom --as alice send bob --in 1h --idempotency-key k1 "keyed" | grep -q '^Already scheduled message to bob'

# run-now, and a second within a minute.
mailroom --as alice schedule run-now nightly | grep -q '^Fired nightly for .*: sent mr-'
expect_exit 4 mailroom --as alice schedule run-now nightly 2> "$t/err"
grep -q 'was already run now' "$t/err"
mailroom --as qa --json inbox | jq -e '.messages[0].schedule == "nightly"' > /dev/null

# A firer ran: no warning any more, doctor agrees; an operator acts for the owner.
mailroom --as alice schedule add weekly qa --cron @weekly -m hi > /dev/null 2> "$t/err"
[ ! -s "$t/err" ]
mailroom --json doctor | jq -e '.checks[] | select(.check == "firer") | .ok' > /dev/null
mailroom --as qa schedule pause weekly --for alice | grep -q '^Paused schedule weekly$'
mailroom --as alice --json schedule cancel nightly weekly | jq -e '.ok and .ids == ["nightly", "weekly"]' > /dev/null
[ "$(mailroom --as alice --json schedule list | jq '.schedules | length')" = 2 ] # the one-shots at 23:59 and keyed
