#!/usr/bin/env bash
# integration/bd_mail_delegate.sh: `bd mail` reaching mailroom (docs/gas-city.md, "bd mail"):
# beads runs $BEADS_MAIL_DELEGATE (or $BD_MAIL_DELEGATE) with every argument passed through, its
# standard input, output and error inherited and its exit code kept. testdata/gc/bd stands in for
# beads' pass-through; what it hands over must reach mailroom exactly: argv (spaces, quotes,
# dollars, a leading dash), a piped body, stdout and stderr apart, and each exit code.
. "$(dirname "$0")/common.sh"
: "${MAILROOM_TESTDATA:?set MAILROOM_TESTDATA to the testdata directory}"
command -v jq > /dev/null || skip "jq not installed"
mkdir -p "$t/bin"
ln -s "$MAILROOM" "$t/bin/mailroom"
export PATH="$t/bin:$PATH"
bd() { "$MAILROOM_TESTDATA/gc/bd" "$@"; }
mailroom agents add mayor deacon > /dev/null
export BEADS_MAIL_DELEGATE=mailroom

# argv: a subject with spaces and quotes, a body with what a shell would expand, passed as typed.
bd mail --as deacon send mayor -s 'two "words"' -m 'cost: $HOME `id` -v' > "$t/out" 2> "$t/err"
id=$(sed -nE 's/^Sent message ([^ ]+) to mayor$/\1/p' "$t/out")
[ -n "$id" ] && [ ! -s "$t/err" ]
[ "$(mailroom --json peek "$id" | jq -r '.message.subject + "|" + .message.body + "|" + .message.from')" \
  = 'two "words"|cost: $HOME `id` -v|deacon' ]

# stdin: a body piped through bd reaches mailroom's `-`.
printf 'line one\nline two\n' | bd mail send mayor - > "$t/out"
piped=$(sed -nE 's/^Sent message ([^ ]+) to mayor$/\1/p' "$t/out")
[ "$(mailroom --json peek "$piped" | jq -r .message.body)" = "$(printf 'line one\nline two')" ]

# stdout and stderr stay apart, and exit codes are mailroom's: 0, 1 (check: no mail), 2 (usage),
# 3 (not found), 4 (not a recipient).
bd mail inbox mayor > "$t/out" 2> "$t/err"
grep -q "$id" "$t/out" && [ ! -s "$t/err" ]
expect_exit 1 bd mail check deacon > "$t/out" 2> "$t/err"
[ ! -s "$t/out" ]
expect_exit 2 bd mail archive > "$t/out" 2> "$t/err"
[ ! -s "$t/out" ] && grep -q 'missing message ID' "$t/err"
expect_exit 3 bd mail read mr-0000000000000000 > "$t/out" 2> "$t/err"
[ ! -s "$t/out" ] && grep -q 'not found' "$t/err"
expect_exit 4 bd mail --as deacon archive "$id" 2> "$t/err"
grep -q 'not a recipient' "$t/err"
bd mail --as mayor read "$id" | grep -q '^Body:  *cost: \$HOME'
[ "$(mailroom count mayor)" = "2 total, 1 unread for mayor" ]

# BD_MAIL_DELEGATE when BEADS_MAIL_DELEGATE is unset, and a delegate of two words (Gas City's
# habit `mailroom mail <command>`).
unset BEADS_MAIL_DELEGATE
BD_MAIL_DELEGATE="mailroom mail" bd mail count mayor > "$t/out"
[ "$(cat "$t/out")" = "2 total, 1 unread for mayor" ]
# No delegate: beads' own error, nothing run.
expect_exit 1 bd mail inbox 2> "$t/err"
grep -q 'no mail delegate configured' "$t/err"
