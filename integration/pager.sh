#!/usr/bin/env bash
# integration/pager.sh: read and thread go through $PAGER only when stdin and stdout are
# terminals; --no-pager, a pipe and check --inject never page
. "$(dirname "$0")/common.sh"
command -v script > /dev/null || skip "script(1) is not installed"
workspace alice bob
export TERM=xterm
cat > "$t/pager" << SH
#!/bin/sh
echo "paged: \$LESS" >> '$t/paged'
cat >> '$t/paged'
SH
chmod +x "$t/pager"
id=$(send_id --as alice bob -s "Hello" -m "a body worth paging")
at_terminal() {
  script -qec "$*" /dev/null > "$t/tty.out" < /dev/null
}
PAGER="$t/pager" at_terminal "$MAILROOM" --as bob read "$id"
grep -q '^paged: FRX' "$t/paged"
grep -q '^Body:     a body worth paging' "$t/paged"
PAGER="$t/pager" at_terminal "$MAILROOM" --as bob thread "$id"
grep -q '^Thread ' "$t/paged"
rm "$t/paged"
PAGER="$t/pager" at_terminal "$MAILROOM" --as bob --no-pager peek "$id"
PAGER="$t/pager" at_terminal "$MAILROOM" --as bob check --inject
PAGER="$t/pager" TERM=dumb at_terminal "$MAILROOM" --as bob peek "$id"
PAGER="$t/pager" mailroom --as bob peek "$id" | grep -q '^Body:'
[ ! -e "$t/paged" ]
# TERM=dumb and NO_COLOR get no escapes at a terminal; a colour terminal gets them.
TERM=dumb at_terminal "$MAILROOM" --as bob --no-pager inbox --all
not grep -q $'\x1b' "$t/tty.out"
NO_COLOR=1 at_terminal "$MAILROOM" --as bob --no-pager inbox --all
not grep -q $'\x1b' "$t/tty.out"
at_terminal "$MAILROOM" --as bob --no-pager inbox --all
grep -q $'\x1b\\[1m' "$t/tty.out"
