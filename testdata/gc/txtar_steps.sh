# mailroom testdata: Gas City's own CLI tests, cmd/gc/testdata/mail.txtar and gastown-mail.txtar
# (gastownhall/gascity), step by step in mailroom's words. Sourced by integration/gc_*.sh after
# integration/common.sh; each step names the txtar section it comes from. Where mailroom answers
# differently by contract, the step says so (README "Coming from Gas City", docs/exec-protocol.md).
#
# Every function takes a MODE and runs against the current directory's configuration:
#   agents  each mailbox acts on its own mail (GC_ALIAS=<agent>, Gas City's identity variable);
#   human   everything runs literally as `human`, as gc's txtar files do, which needs
#           `[compat] gc = true`: a non-recipient's read/archive/mark acts for the one recipient.
# PROVIDER (store or exec) says whether mailroom's own store or the exec provider with
# testdata/gc/gc_mail.sh is in use; it decides the few steps that differ by provider.

# --- txtar-like assertions --------------------------------------------------------------------

# gc ARGS...: `exec gc mail ARGS...`: runs mailroom (stdin empty) and requires success.
gc() {
  last="mailroom $*"
  if ! "$MAILROOM" "$@" < /dev/null > "$t/stdout" 2> "$t/stderr"; then
    echo "step failed: $last" >&2
    cat "$t/stderr" >&2
    return 1
  fi
}

# gc_fails CODE ARGS...: `! exec gc mail ARGS...`, with the exit code mailroom's contract gives.
gc_fails() {
  local want=$1 got=0
  shift
  last="mailroom $*"
  "$MAILROOM" "$@" < /dev/null > "$t/stdout" 2> "$t/stderr" || got=$?
  if [ "$got" -ne "$want" ]; then
    echo "step: $last: expected exit $want, got $got" >&2
    cat "$t/stderr" >&2
    return 1
  fi
}

# stdout RE / stderr RE / no_stdout RE: txtar's `stdout`, `stderr` and `! stdout`.
stdout() {
  grep -qE -- "$1" "$t/stdout" || { echo "after $last: stdout lacks /$1/:" >&2; cat "$t/stdout" >&2; return 1; }
}
stderr() {
  grep -qE -- "$1" "$t/stderr" || { echo "after $last: stderr lacks /$1/:" >&2; cat "$t/stderr" >&2; return 1; }
}
no_stdout() {
  if grep -qE -- "$1" "$t/stdout"; then
    echo "after $last: stdout has /$1/:" >&2
    cat "$t/stdout" >&2
    return 1
  fi
}

# sent_id: the id of the message the last `send` reported.
sent_id() {
  sed -nE 's/^Sent message ([^ ]+) to .*/\1/p' "$t/stdout"
}

# as_owner MAILBOX: the identity that acts on MAILBOX's mail in this MODE ("" is human).
as_owner() {
  if [ "$MODE" = agents ]; then printf '%s' "$1"; fi
}

# --- mail.txtar ---------------------------------------------------------------------------------

mail_txtar() {
  MODE=$1
  export GC_ALIAS=

  # Human sends a message to the mayor
  gc send mayor 'hey, are you still there?'
  stdout '^Sent message [^ ]+ to mayor$'
  local hey
  hey=$(sent_id)

  # Mayor checks inbox (views are open: anyone may list mayor's inbox)
  gc inbox mayor
  stdout 'human'
  stdout 'hey, are you still there\?'

  # Mayor reads the message
  GC_ALIAS=$(as_owner mayor) gc read "$hey"
  stdout '^From:     human$'
  stdout '^To:       mayor$'
  stdout '^Body:     hey, are you still there\?$'

  # Mayor's inbox is now empty (message marked as read)
  gc inbox mayor
  stdout '^No unread messages for mayor$'

  # But message is still accessible via peek
  gc peek "$hey"
  stdout '^Body:     hey, are you still there\?$'

  # Mayor replies (agent perspective)
  GC_ALIAS=mayor gc send human 'yes, working on gc-4'
  stdout '^Sent message [^ ]+ to human$'
  local yes
  yes=$(sent_id)

  # Human checks their inbox
  gc inbox
  stdout 'mayor'
  stdout 'yes, working on gc-4'

  # Human reads the reply, and again (already read)
  gc read "$yes"
  stdout '^From:     mayor$'
  stdout '^To:       human$'
  stdout '^Body:     yes, working on gc-4$'
  gc read "$yes"
  stdout '^Body:     yes, working on gc-4$'

  # Messages are beads: they appear in bead list. mailroom's store lists read mail with
  # `inbox --all`; a gc script has no op that lists read mail, so `inbox --all` says so (exit 5)
  # instead of a short list, and each message is still there to peek.
  if [ "$PROVIDER" = store ]; then
    gc --json inbox --all mayor
    stdout "\"id\": *\"$hey\""
    gc --json inbox --all
    stdout "\"id\": *\"$yes\""
  else
    gc_fails 5 inbox --all mayor
    stderr 'does not support "all"'
    gc peek "$hey"
    gc peek "$yes"
  fi

  # Archive a new message
  gc send mayor 'archive me'
  local archive_me
  archive_me=$(sent_id)
  GC_ALIAS=$(as_owner mayor) gc archive "$archive_me"
  stdout "^Archived message $archive_me\$"

  # Archived message no longer appears in inbox
  gc inbox mayor
  stdout '^No unread messages for mayor$'

  # Archiving already-archived message is idempotent
  GC_ALIAS=$(as_owner mayor) gc archive "$archive_me"
  stdout "^Already archived $archive_me\$"

  # Mark read / mark unread
  gc send mayor 'toggle me'
  local toggle
  toggle=$(sent_id)
  GC_ALIAS=$(as_owner mayor) gc mark-read "$toggle"
  stdout "^Marked $toggle as read\$"
  gc inbox mayor
  stdout '^No unread messages for mayor$'
  GC_ALIAS=$(as_owner mayor) gc mark-unread "$toggle"
  stdout "^Marked $toggle as unread\$"
  gc inbox mayor
  stdout 'toggle me'

  # Delete
  GC_ALIAS=$(as_owner mayor) gc delete "$toggle"
  stdout "^Deleted message $toggle\$"
  gc inbox mayor
  stdout '^No unread messages for mayor$'

  # Count
  gc send mayor 'count msg 1'
  gc send mayor 'count msg 2'
  gc count mayor
  stdout '^3 total, 2 unread for mayor$'

  # Error: archive nonexistent message (gc: "bead not found", exit 1; mailroom: not found, exit 3,
  # and under [compat] gc in gc's words too)
  GC_ALIAS=$(as_owner mayor) gc_fails 3 archive gc-999
  stderr 'not found'
  if [ "$MODE" = human ]; then stderr 'bead not found'; fi

  # Error: archive with no args (exit 2: usage)
  gc_fails 2 archive
  stderr 'missing message ID'

  # Error: unknown recipient (exit 2), on both providers: the exec city's `[agents] names` is a
  # registry, checked before the script runs (contract "Gas City, both ways").
  gc_fails 2 send nobody 'hello'
  stderr 'unknown recipient "nobody"'

  # Error: missing arguments
  gc_fails 2 send
  stderr 'usage:'
  gc_fails 2 send mayor
  stderr 'usage:'
  gc_fails 2 read
  stderr 'missing message ID'
  gc_fails 3 read gc-999
  stderr 'not found'
  if [ "$MODE" = human ]; then stderr 'bead not found'; fi

  # Error: missing subcommand (gc: "missing subcommand", exit 1; mailroom: usage, exit 2): a bare
  # `mailroom mail`, gc's `gc mail`, in gc's words; a bare `mailroom` is a usage error too.
  gc_fails 2 mail
  stderr 'missing subcommand'
  gc_fails 2

  # At a terminal (a pseudo-terminal from script(1)), where gc's newer steps run: `send` with
  # neither subject nor body opens $EDITOR, and `read` goes through the pager, `less -FRX` when
  # $PAGER is unset (a `less` first in PATH records how it was run).
  if command -v script > /dev/null; then
    at_terminal_steps
  fi
}

# at_terminal CMD...: runs CMD with a pseudo-terminal for stdin and stdout (script(1)); the screen
# goes to $t/tty.out.
at_terminal() {
  local line="" word
  for word in "$@"; do line+=" $(printf '%q' "$word")"; done
  last="(at a terminal)$line"
  TERM=xterm script -qec "$line" /dev/null > "$t/tty.out" < /dev/null
}

at_terminal_steps() {
  mkdir -p "$t/term-bin"
  cat > "$t/term-bin/editor" << 'SH'
#!/bin/sh
{ printf 'From the editor\n\nwritten at a terminal\n'; cat "$1"; } > "$1.new" && mv "$1.new" "$1"
SH
  cat > "$t/term-bin/less" << SH
#!/bin/sh
printf 'less %s LESS=%s\n' "\$*" "\$LESS" > "$t/less.ran"
cat >> "$t/less.ran"
SH
  chmod +x "$t/term-bin/editor" "$t/term-bin/less"
  EDITOR="$t/term-bin/editor" VISUAL= at_terminal "$MAILROOM" send mayor
  grep -qE 'Sent message [^ ]+ to mayor' "$t/tty.out"
  local typed
  typed=$(sed -nE 's/.*Sent message ([^ ]+) to mayor.*/\1/p' "$t/tty.out" | tr -d '\r')
  gc peek "$typed"
  stdout '^Subject:  From the editor$'
  stdout '^Body:     written at a terminal$'
  rm -f "$t/less.ran"
  (
    unset PAGER MAILROOM_PAGER LESS # unset, not empty: an empty $PAGER means no pager
    PATH="$t/term-bin:$PATH" at_terminal "$MAILROOM" peek "$typed"
  )
  grep -q '^less -FRX LESS=FRX$' "$t/less.ran"
  grep -q '^Body:     written at a terminal$' "$t/less.ran"
}

# --- gastown-mail.txtar -------------------------------------------------------------------------

gastown_mail_txtar() {
  MODE=$1
  export GC_ALIAS=

  # 1. Mail to deacon
  gc send deacon 'Start patrol loop'
  stdout '^Sent message [^ ]+ to deacon$'

  # 2. Deacon checks inbox
  gc inbox deacon
  stdout 'human'
  stdout 'Start patrol loop'

  # 3. check exit codes: deacon has mail (exit 0), worker has none (exit 1)
  gc check deacon
  gc_fails 1 check worker

  # 4. Agent-to-agent mail (deacon -> mayor)
  GC_ALIAS=deacon gc send mayor 'Patrol complete, 3 issues found'
  stdout '^Sent message [^ ]+ to mayor$'
  local patrol
  patrol=$(sent_id)

  # 5. Mayor reads deacon's message
  gc inbox mayor
  stdout 'deacon'
  stdout 'Patrol complete'
  GC_ALIAS=$(as_owner mayor) gc read "$patrol"
  stdout '^From:     deacon$'
  stdout '^To:       mayor$'

  # 6. Multi-agent mail chain: human sends work to witness; witness reads and replies
  gc send witness 'Check rig health'
  stdout '^Sent message [^ ]+ to witness$'
  local health
  health=$(sent_id)
  GC_ALIAS=witness gc read "$health"
  stdout '^From:     human$'
  stdout '^Body:     Check rig health$'
  GC_ALIAS=witness gc send mayor 'Rig healthy, 2 polecats active'
  stdout '^Sent message [^ ]+ to mayor$'
  local healthy
  healthy=$(sent_id)

  # 7. Mail archive removes from inbox
  gc inbox mayor
  stdout "$healthy"
  GC_ALIAS=$(as_owner mayor) gc archive "$healthy"
  stdout "^Archived message $healthy\$"
  gc inbox mayor
  no_stdout "$healthy"

  # 8. Read message still accessible via peek
  gc peek "$patrol"
  stdout '^From:     deacon$'

  # 9. Multiple messages to same agent
  gc send worker 'Task one'
  gc send worker 'Task two'
  gc send worker 'Task three'
  gc inbox worker
  stdout 'Task one'
  stdout 'Task two'
  stdout 'Task three'
}

# --- set-up ---------------------------------------------------------------------------------------

# gc_city PROVIDER MODE AGENT...: a fresh directory configured like the txtar's city: mailroom's
# store with AGENT... registered, or the exec provider on testdata/gc/gc_mail.sh with AGENT... as
# `[agents] names`; in human MODE
# with `[compat] gc = true`. Sets PROVIDER and cds into it.
gc_city() {
  PROVIDER=$1
  local mode=$2
  shift 2
  mkdir -p "$t/$PROVIDER-$mode"
  cd "$t/$PROVIDER-$mode"
  if [ "$PROVIDER" = store ]; then
    workspace "$@"
  else
    unset MAILROOM_DB
    export MAILROOM_EXEC_STATE="$t/$PROVIDER-$mode/.gc-mail-state"
    mkdir -p "$MAILROOM_EXEC_STATE"
    printf '[mail]\nprovider = "exec:%s/gc/gc_mail.sh"\n' "$MAILROOM_TESTDATA" > mailroom.toml
    # The city's agents, as gc's city knows its sessions: a registry for the exec provider.
    printf '\n[agents]\nnames = [%s]\n' "$(printf '"%s", ' "$@" | sed 's/, $//')" >> mailroom.toml
  fi
  if [ "$mode" = human ] && grep -q '^gc = false' mailroom.toml; then
    sed -i 's/^gc = false/gc = true/' mailroom.toml # init's template has the key
  elif [ "$mode" = human ]; then
    printf '\n[compat]\ngc = true\n' >> mailroom.toml
  fi
}

# needs_compat: skips the test until the CLI has `--for` and `[compat] gc` (they land together).
needs_compat() {
  "$MAILROOM" read --help 2> /dev/null | grep -q -- --for \
    || skip "this mailroom has no 'read --for' yet, so no [compat] gc; the test turns on when it lands"
}
