#!/usr/bin/env bash
# integration/search.sh: words, phrases, prefixes, OR and NOT over the caller's mail, best match
# first; a malformed query is exit 2 saying why; no match is exit 0
. "$(dirname "$0")/common.sh"
workspace alice bob carol
plan=$(send_id --as alice bob -s "Deploy failed" -m "the staging deploy failed at step three")
retry=$(mailroom --as bob --json reply "$plan" "retrying the deployment now" | jq -r .id)
lunch=$(send_id --as carol bob -s "Lunch" -m "pizza or sushi?")
secret=$(send_id --as carol alice -s "deploy secret" -m "for alice only")

ids() { mailroom --as bob --json search "$@" | jq -r '.messages[].id' | sort | tr '\n' ' '; }
both=$(printf '%s\n' "$plan" "$retry" | sort | tr '\n' ' ')
[ "$(ids deploy)" = "$both" ]
[ "$(ids deploy failed)" = "$both" ]
[ "$(ids '"staging deploy"')" = "$plan " ]
[ "$(ids 'deploy*')" = "$both" ]
[ "$(ids 'deploy NOT staging')" = "$retry " ]
[ "$(ids 'pizza OR retrying')" = "$(printf '%s\n' "$retry" "$lunch" | sort | tr '\n' ' ')" ]
# Only what bob sent or received; alice sees her own.
[ "$(mailroom --as alice --json search secret | jq -r '.messages[].id')" = "$secret" ]
[ "$(mailroom --as bob --json search secret | jq '.total')" = 0 ]
# Another mailbox's mail, as inbox NAME lists it.
[ "$(mailroom --as bob --json search --mailbox alice secret | jq -r '.messages[].id')" = "$secret" ]

mailroom --as bob search pizza > "$t/out"
mailroom --as bob search zebra >> "$t/out"
expect_golden "$t/out"

expect_exit 2 mailroom --as bob search 'deploy OR' 2> "$t/err"
grep -qx 'mailroom search: bad search query: OR needs a term on each side' "$t/err"
expect_exit 2 mailroom --as bob search '"unterminated' 2> "$t/err"
grep -q 'a phrase has no closing' "$t/err"
expect_exit 2 mailroom --as bob --json search 'NOT deploy' 2> "$t/err"
jq -e '.error.code == "usage" and (.error.message | test("NOT needs something to exclude from"))' "$t/err" > /dev/null
expect_exit 2 mailroom --as bob search
