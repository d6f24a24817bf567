#!/usr/bin/env bash
# integration/editor_compose.sh: at a terminal (a pseudo-terminal from script(1)), send with no
# body opens $EDITOR on a draft; comment lines are stripped; the first line is the subject and the
# rest the body (with -s, all of it is the body); an empty draft aborts with exit 2; a failing
# editor keeps the draft and names it; an unknown recipient, identity or replied message is refused
# before the editor opens
. "$(dirname "$0")/common.sh"
command -v script > /dev/null || skip "script(1) is not installed"
workspace alice bob
export TMPDIR="$t/tmp" TERM=xterm
mkdir -p "$TMPDIR"
cat > "$t/editor" << 'SH'
#!/bin/sh
# A fake editor: keeps the template's comments, adds a subject line and a body.
{ printf 'Lunch plans\n\nNoon at the usual place.\n# a comment the editor left\n'; cat "$1"; } > "$1.new"
mv "$1.new" "$1"
SH
cat > "$t/empty-editor" << 'SH'
#!/bin/sh
exit 0
SH
cat > "$t/failing-editor" << 'SH'
#!/bin/sh
echo 'draft text' > "$1"
exit 1
SH
cat > "$t/marking-editor" << SH
#!/bin/sh
# Leaves a mark when it runs at all.
touch "$t/editor-ran"
echo 'never sent' > "\$1"
SH
chmod +x "$t/editor" "$t/empty-editor" "$t/failing-editor" "$t/marking-editor"
# at_terminal CMD: runs CMD with stdin and stdout on a pseudo-terminal; its exit code is kept.
at_terminal() {
  script -qec "$*; echo \"exit=\$?\" > '$t/exit'" /dev/null > "$t/tty.out" < /dev/null
  cat "$t/exit"
}

[ "$(EDITOR="$t/editor" at_terminal "$MAILROOM" --as alice send bob)" = exit=0 ]
mailroom --json --as bob inbox > "$t/inbox"
jq -e '.messages | length == 1' "$t/inbox" > /dev/null
jq -e '.messages[0].subject == "Lunch plans"' "$t/inbox" > /dev/null
jq -e '.messages[0].body == "Noon at the usual place.\n"' "$t/inbox" > /dev/null
# VISUAL wins over EDITOR, and the draft is gone after a successful send.
[ "$(VISUAL="$t/editor" EDITOR=false at_terminal "$MAILROOM" --as bob reply "$(jq -r '.messages[0].id' "$t/inbox")")" = exit=0 ]
[ -z "$(ls -A "$TMPDIR")" ]
# Only comments: aborted, nothing stored.
[ "$(EDITOR="$t/empty-editor" at_terminal "$MAILROOM" --as alice send bob)" = exit=2 ]
grep -q 'aborting: empty message' "$t/tty.out"
# The editor failed: exit 2, the draft is kept and named.
[ "$(EDITOR="$t/failing-editor" at_terminal "$MAILROOM" --as alice send bob)" = exit=2 ]
grep -q 'your message is saved in' "$t/tty.out"
[ "$(mailroom --json --as bob count | jq .total)" = 1 ]
[ "$(mailroom --json --as alice count | jq .total)" = 1 ]
# Not at a terminal the editor never opens: piped stdin is the body.
echo "piped" | EDITOR="$t/editor" mailroom --as alice send bob > /dev/null
[ "$(mailroom --json --as bob inbox | jq -r '.messages[-1].body')" = piped ]
# With -s the subject is given: all of the edited text is the body.
[ "$(EDITOR="$t/editor" at_terminal "$MAILROOM" --as alice send bob -s "\"\"")" = exit=0 ]
mailroom --json --as bob inbox > "$t/inbox"
jq -e '.messages[-1].body == "Lunch plans\n\nNoon at the usual place.\n"' "$t/inbox" > /dev/null
# Compose checks first: an unknown recipient, an unknown identity, an unknown or foreign message
# to reply to are refused before the editor opens.
mailroom agents add carol > /dev/null
other=$(mailroom --json --as alice send carol "not for bob" | jq -r .id)
total=$(mailroom --json --as alice count | jq .total)
[ "$(EDITOR="$t/marking-editor" at_terminal "$MAILROOM" --as alice send buidler)" = exit=2 ]
grep -q 'unknown recipient' "$t/tty.out"
[ "$(EDITOR="$t/marking-editor" at_terminal "$MAILROOM" --as nobody-here send bob)" = exit=2 ]
[ "$(EDITOR="$t/marking-editor" at_terminal "$MAILROOM" --as bob reply mr-0000000000000000)" = exit=3 ]
[ "$(EDITOR="$t/marking-editor" at_terminal "$MAILROOM" --as bob reply "$other")" = exit=4 ]
[ ! -e "$t/editor-ran" ]
[ "$(mailroom --json --as alice count | jq .total)" = "$total" ]
# A known recipient does reach the editor.
[ "$(EDITOR="$t/marking-editor" at_terminal "$MAILROOM" --as alice send bob)" = exit=0 ]
[ -e "$t/editor-ran" ]
