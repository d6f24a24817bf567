#!/usr/bin/env bash
# integration/editor_compose.sh: at a terminal (a pseudo-terminal from script(1)), send with no
# body opens $EDITOR on a draft; comment lines are stripped; an empty draft aborts with exit 2;
# a failing editor keeps the draft and names it
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
chmod +x "$t/editor" "$t/empty-editor" "$t/failing-editor"
# at_terminal CMD: runs CMD with stdin and stdout on a pseudo-terminal; its exit code is kept.
at_terminal() {
  script -qec "$*; echo \"exit=\$?\" > '$t/exit'" /dev/null > "$t/tty.out" < /dev/null
  cat "$t/exit"
}

[ "$(EDITOR="$t/editor" at_terminal "$MAILROOM" --as alice send bob)" = exit=0 ]
mailroom --json --as bob inbox > "$t/inbox"
jq -e '.messages | length == 1' "$t/inbox" > /dev/null
jq -e '.messages[0].subject == "Lunch plans"' "$t/inbox" > /dev/null
jq -e '.messages[0].body == "Lunch plans\n\nNoon at the usual place.\n"' "$t/inbox" > /dev/null
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
