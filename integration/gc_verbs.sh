#!/usr/bin/env bash
# integration/gc_verbs.sh: gc's newest verbs for floods of notifications on the command line
# (contract "Gas City, round 4"): send --dedup (per recipient, keys per sender, gc's words),
# send --supersede (earlier unread copies archived, acted_by the sender), archive with gc's
# filters (its rules, dry run, limit, --all-recipients acting for others), on mailroom's store and
# through an exec script (--dedup sends with a warning, --supersede and --all-recipients are
# unsupported, archive --to works through `inbox`).
. "$(dirname "$0")/common.sh"
: "${MAILROOM_TESTDATA:?set MAILROOM_TESTDATA to the testdata directory}"
command -v jq > /dev/null || skip "jq not installed"
command -v flock > /dev/null || skip "flock (util-linux) not installed"
workspace bob carol patrol
sent_id() { sed -nE 's/^Sent message ([^ ]+) to .*$/\1/p' "$t/out"; }

# --dedup: the second send of a stream is suppressed while bob holds the first, read or not.
mailroom --as patrol send bob --dedup disk "disk 95% full" > "$t/out"
first=$(sent_id)
mailroom --as patrol send bob --dedup disk "disk 96% full" > "$t/out"
[ "$(cat "$t/out")" = "Suppressed duplicate of $first" ]
mailroom --as bob read "$first" > /dev/null
mailroom --as patrol --json send bob --dedup disk "disk 97% full" > "$t/out"
jq -e --arg id "$first" '.ok and .id == null and .ids == [] and .suppressed == [{"recipient":"bob","id":$id}]' "$t/out" > /dev/null
# per recipient: carol has no copy yet.
mailroom --as patrol send --to bob --to carol --dedup disk "disk 98% full" > "$t/out"
grep -qE '^Sent message [^ ]+ to carol$' "$t/out"
grep -qx "Suppressed duplicate of $first for bob" "$t/out"
# archiving the live copy lets the stream alert again; another sender's stream is its own.
mailroom --as bob archive "$first" > /dev/null
mailroom --as patrol send bob --dedup disk "disk full again" > "$t/out"
again=$(sent_id)
[ -n "$again" ]
mailroom --as carol send bob --dedup disk "carol's own" > "$t/out"
[ -n "$(sent_id)" ]
expect_exit 2 mailroom --as patrol send bob --dedup a --supersede a "both" 2> "$t/err"
grep -q 'cannot be combined' "$t/err"

# --supersede: only the newest digest waits; bob's delivery was changed by patrol.
mailroom --as patrol send bob -s "digest v1" -m "3 open" --supersede digest > "$t/out"
v1=$(sent_id)
mailroom --as patrol send bob -s "digest v2" -m "1 open" --supersede digest > "$t/out"
v2=$(sent_id)
grep -qx "Superseded $v1 for bob" "$t/out"
mailroom --as bob --json inbox | jq -e --arg v1 "$v1" --arg v2 "$v2" \
  '([.messages[].id] | index($v2) != null and index($v1) == null)' > /dev/null
mailroom --json status "$v1" | jq -e '.recipients[0].acted_by == "patrol" and .recipients[0].archived_at != null' > /dev/null

# archive with filters: gc's rules first (exit 2, gc's words, nothing changed).
before=$(mailroom count bob)
expect_exit 2 mailroom archive --from patrol 2> "$t/err"
grep -q -- '--to or --all-recipients is required' "$t/err"
expect_exit 2 mailroom archive --to bob --empty-body 2> "$t/err"
grep -q 'use --from, --subject-prefix, or --subject-contains' "$t/err"
expect_exit 2 mailroom archive "$v2" --to bob --from patrol 2> "$t/err"
grep -q 'message IDs cannot be combined' "$t/err"
expect_exit 2 mailroom archive --to bob --all-recipients --from patrol 2> "$t/err"
expect_exit 2 mailroom archive --to bob --from patrol --limit 0 2> "$t/err"
[ "$(mailroom count bob)" = "$before" ]
# A flood of alerts for bob and carol: a dry run, a bounded slice, then everyone's.
for i in 1 2 3 4 5; do mailroom --as patrol send --to bob --to carol -s "ALERT: queue $i" -m "" > /dev/null; done
mailroom --as bob archive --to bob --from patrol --subject-prefix alert: --dry-run > "$t/out"
[ "$(grep -c '^Would archive message .*	ALERT: queue' "$t/out")" = 5 ]
mailroom --as bob archive --to bob --subject-contains QUEUE --empty-body --limit 2 > "$t/out"
[ "$(grep -c '^Archived message ' "$t/out")" = 2 ]
mailroom --as bob --json archive --to bob --from patrol --subject-prefix alert > "$t/out"
jq -e '.ok and (.ids | length) == 3 and (.matches | length) == 3 and .dry_run == false' "$t/out" > /dev/null
mailroom --as bob archive --to bob --from patrol --subject-prefix alert > "$t/out"
[ "$(cat "$t/out")" = "No matching messages" ]
mailroom archive --all-recipients --from patrol --subject-prefix alert > "$t/out"
[ "$(grep -c ' for carol$' "$t/out")" = 5 ]
alert=$(mailroom --as carol --json inbox --archived | jq -r '[.messages[] | select(.subject == "ALERT: queue 1")][0].id')
mailroom --json status "$alert" | jq -e '[.recipients[] | select(.recipient == "carol")][0].acted_by == "human"' > /dev/null

# Through an exec script: what its protocol can express.
mkdir -p "$t/exec" && cd "$t/exec"
export MAILROOM_EXEC_STATE="$t/exec/state"
mkdir -p "$MAILROOM_EXEC_STATE"
unset MAILROOM_DB
printf '[mail]\nprovider = "exec:%s/exec/stateful.sh"\n' "$MAILROOM_TESTDATA" > mailroom.toml
mailroom --as patrol send bob --dedup disk "disk full" > "$t/out" 2> "$t/err"
[ -n "$(sent_id)" ]
grep -q 'cannot tell whether a live copy of "disk" exists; sent without --dedup' "$t/err"
mailroom --as patrol --json send bob --dedup disk "disk full" > "$t/out" 2> "$t/err"
jq -e '.warning.code == "dedup_unsupported"' "$t/err" > /dev/null
expect_exit 5 mailroom --as patrol send bob --supersede digest "digest" 2> "$t/err"
grep -q 'does not support "--supersede"' "$t/err"
[ "$(mailroom count bob)" = "2 total, 2 unread for bob" ]
mailroom --as bob archive --to bob --from patrol > "$t/out"
[ "$(grep -c '^Archived message ' "$t/out")" = 2 ]
[ "$(mailroom count bob)" = "0 total, 0 unread for bob" ]
expect_exit 5 mailroom archive --all-recipients --from patrol 2> "$t/err"
grep -q 'unsupported\|not supported' "$t/err"
