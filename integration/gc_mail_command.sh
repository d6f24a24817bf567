#!/usr/bin/env bash
# integration/gc_mail_command.sh: `mailroom gc-mail <op> [<arg>]`, the script side of gc's exec
# mail protocol over mailroom's store, spoken to directly as gc does: the JSON it prints, the
# markers gc looks for, exit 1 (never 2) for every failure, the acting mailbox, registration of
# the send JSON's `from`, and the `mailroom-gc-mail` name (argv[0]).
. "$(dirname "$0")/common.sh"
command -v jq > /dev/null || skip "jq not installed"
mkdir -p "$t/bin"
ln -s "$MAILROOM" "$t/bin/mailroom-gc-mail"
gcm() { "$t/bin/mailroom-gc-mail" "$@"; }
# fails_1 CMD...: exit 1 exactly (gc reads 2 as success), the stderr kept in $t/err.
fails_1() { expect_exit 1 "$@" 2> "$t/err"; }

# ensure-running and capabilities need no store; unknown ops are exit 1, not gc's 2.
gcm ensure-running < /dev/null
gcm capabilities < /dev/null | jq -e '.protocol == 1 and (.ops | index("delete")) and (.ops | index("all"))' > /dev/null
fails_1 gcm frobnicate < /dev/null
grep -q 'unknown operation "frobnicate"' "$t/err"
fails_1 gcm < /dev/null
fails_1 gcm get < /dev/null
fails_1 gcm get a b < /dev/null
fails_1 gcm get --bogus < /dev/null

# send: the JSON `from` is the sender, registered on first use with the recipient.
out=$(printf '{"from":"mayor","subject":"","body":"hey <there>"}' | gcm send deacon)
id=$(jq -r .id <<< "$out")
[ "$(jq -r '.from + " " + .to + " " + .body' <<< "$out")" = "mayor deacon hey <there>" ]
[ "$(jq -r '.read' <<< "$out")" = false ]
jq -e '.thread_id | startswith("thread-")' <<< "$out" > /dev/null
jq -e '.created_at | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$")' <<< "$out" > /dev/null
mailroom agents | grep -q mayor
mailroom agents | grep -q deacon
# mailroom sees gc's mail, and the other way round.
[ "$(mailroom count deacon)" = "1 total, 1 unread for deacon" ]
gcm inbox deacon | jq -e "length == 1 and .[0].id == \"$id\"" > /dev/null
gcm check deacon | jq -e 'length == 1' > /dev/null
[ "$(gcm count deacon)" = '{"total":1,"unread":1}' ]
[ -z "$(gcm inbox nobody)" ]
[ "$(gcm count nobody)" = '{"total":0,"unread":0}' ]
fails_1 gcm send deacon <<< 'not json'
grep -q 'malformed' "$t/err"

# get changes nothing; read marks for the acting mailbox: the recipient, or for a non-recipient
# the one recipient (gc's single state).
[ "$(gcm get "$id" | jq -r .read)" = false ]
[ "$(gcm inbox deacon | jq length)" = 1 ]
[ "$(MAILROOM_IDENTITY=deacon gcm read "$id" | jq -r '.read')" = true ]
[ -z "$(gcm inbox deacon)" ]
[ "$(gcm get "$id" | jq -r .read)" = true ]
gcm mark-unread "$id" < /dev/null # as human: for deacon
[ "$(gcm get "$id" | jq -r .read)" = false ]
GC_AGENT=mayor gcm mark-read "$id" < /dev/null # the sender: for deacon
[ "$(mailroom count deacon)" = "1 total, 0 unread for deacon" ]

# reply: to the original's sender, in its thread.
re=$(printf '{"from":"deacon","subject":"Re","body":"on it"}' | gcm reply "$id")
[ "$(jq -r '.to + " " + .reply_to' <<< "$re")" = "mayor $id" ]
[ "$(jq -r .thread_id <<< "$re")" = "$(gcm get "$id" | jq -r .thread_id)" ]
[ "$(gcm thread "$(jq -r .thread_id <<< "$re")" | jq length)" = 2 ]
[ -z "$(gcm thread thread-000000000bad)" ]

# Unknown ids: gc's not-found marker, exit 1.
for op in get read mark-read mark-unread archive delete; do
  fails_1 gcm "$op" gc-999 < /dev/null
  grep -q '^gc-mail-error:not-found: message "gc-999" not found$' "$t/err"
done
printf '{"from":"deacon","subject":"","body":"x"}' > "$t/reply.json"
fails_1 gcm reply gc-999 < "$t/reply.json"
grep -q 'gc-mail-error:not-found' "$t/err"

# archive, then again: "already archived", exit 1; delete of it too.
gcm archive "$id" < /dev/null
[ "$(mailroom count deacon)" = "0 total, 0 unread for deacon" ]
fails_1 gcm archive "$id" < /dev/null
grep -q 'already archived' "$t/err"
fails_1 gcm delete "$id" < /dev/null
grep -q 'already archived' "$t/err"
gcm unarchive "$id" < /dev/null
[ "$(gcm all deacon | jq length)" = 1 ]

# Several recipients (sent by mailroom itself): a non-recipient cannot choose; exit 1 naming them.
mailroom agents add alice bob > /dev/null
both=$(mailroom --as mayor send --to alice --to bob -s two -m both | sed -nE 's/^Sent message ([^ ]+) to .*/\1/p')
fails_1 gcm read "$both" < /dev/null
grep -q 'alice, bob' "$t/err"
[ "$(MAILROOM_IDENTITY=bob gcm read "$both" | jq -r .read)" = true ]
[ "$(mailroom count alice)" = "1 total, 1 unread for alice" ]
gcm get "$both" | jq -e '.to == "alice, bob"' > /dev/null

# `mailroom gc-mail` is the same command; a bad config is exit 1 too, never 2.
[ "$("$MAILROOM" gc-mail count deacon)" = '{"total":1,"unread":0}' ]
printf '[mail]\nprovider = "nonsense"\n' > mailroom.toml
expect_exit 1 "$MAILROOM" gc-mail count deacon 2> /dev/null
rm mailroom.toml
# A workspace reaching mail through this very script still serves its store (no recursion).
printf '[mail]\nprovider = "exec:%s/bin/mailroom-gc-mail"\n' "$t" > mailroom.toml
[ "$(gcm count deacon)" = '{"total":1,"unread":0}' ]
[ "$(mailroom count deacon)" = "1 total, 0 unread for deacon" ]
