#!/usr/bin/env bash
# integration/completion.sh: the bash completion completes commands, options, mailbox names,
# groups, message types, the agents of hooks/mcp install, peers and a bounded list of ids; zsh and
# fish scripts parse; make install puts binary, man page and completions under PREFIX
. "$(dirname "$0")/common.sh"
workspace alice bob
mailroom completion bash > "$t/mailroom.bash"
bash -n "$t/mailroom.bash"
# complete WORDS...: the completions bash offers for the last word.
complete_words() {
  bash -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
    _mailroom
    printf "%s\n" "${COMPREPLY[@]}"' _ "$t/mailroom.bash" "$@"
}
# The functions call `mailroom`: put the binary under test first on PATH.
mkdir -p "$t/bin" && ln -s "$MAILROOM" "$t/bin/mailroom"
export PATH="$t/bin:$PATH"
complete_words mailroom inb | grep -x inbox > /dev/null
complete_words mailroom inbox --li | grep -x -- --limit > /dev/null
complete_words mailroom --as alice send --to "" | grep -x bob > /dev/null
complete_words mailroom send --priority u | grep -x urgent > /dev/null
complete_words mailroom agents r | grep -x remove > /dev/null
complete_words mailroom agents r | grep -x rm > /dev/null
complete_words mailroom mail inb | grep -x inbox > /dev/null
complete_words mailroom completion "" | grep -x fish > /dev/null
id=$(send_id --as alice bob "hello")
complete_words mailroom --as bob read "" | grep -x "$id" > /dev/null
# The agents of hooks install / mcp install, and hooks status.
[ "$(complete_words mailroom hooks install "" | sort | tr '\n' ' ')" = "claude codex gemini " ]
complete_words mailroom hooks install co | grep -x codex > /dev/null
complete_words mailroom mcp install g | grep -x gemini > /dev/null
complete_words mailroom hooks status c | grep -x claude > /dev/null
# --type: the built-in types and the configured ones.
sed -i 's/^# reviewers = .*/ops = ["alice", "bob"]/; s/^# \[types.review_request\]$/[types.review_request]/' mailroom.toml
complete_words mailroom send --type task_r | grep -x task_request > /dev/null
complete_words mailroom inbox --type re | grep -x review_request > /dev/null
complete_words mailroom --as bob wait --type cron | grep -x cron_task > /dev/null
# Recipients: mailboxes, the configured groups and @all; filters take mailboxes only.
complete_words mailroom --as alice send --to @ | grep -x @ops > /dev/null
complete_words mailroom --as alice send --cc @ | grep -x @all > /dev/null
complete_words mailroom --as alice send @o | grep -x @ops > /dev/null
complete_words mailroom inbox --from @ | grep . && exit 1
# peers <name>: mailboxes.
complete_words mailroom --as alice peers b | grep -x bob > /dev/null
# read <TAB> lists at most 100 ids (unread), however many there are.
n=105
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && n=101
for i in $(seq 1 "$n"); do mailroom --as alice send bob -s "m$i" -m x -q; done
[ "$(complete_words mailroom --as bob read "" | grep -c .)" = 100 ]
if command -v zsh > /dev/null; then mailroom completion zsh | zsh -n; fi
if command -v fish > /dev/null; then mailroom completion fish | fish -n; fi
mailroom completion tcsh 2> "$t/err" && exit 1
grep -q 'unknown shell "tcsh"' "$t/err"
# make install / uninstall with the binary under test.
root=$(cd "$integration_dir/.." && pwd)
command -v make > /dev/null || skip "make is not installed"
make -s -C "$root" install PREFIX="$t/prefix" MAILROOM_BIN="$MAILROOM" > /dev/null
for f in bin/mailroom share/man/man1/mailroom.1 share/bash-completion/completions/mailroom \
  share/zsh/site-functions/_mailroom share/fish/vendor_completions.d/mailroom.fish; do
  [ -s "$t/prefix/$f" ] || { echo "missing $f" >&2; exit 1; }
done
"$t/prefix/bin/mailroom" --version > /dev/null
# Gas City's mail script: the link, which is `mailroom gc-mail`.
[ "$(readlink "$t/prefix/bin/mailroom-gc-mail")" = mailroom ]
"$t/prefix/bin/mailroom-gc-mail" ensure-running
if command -v man > /dev/null; then MANPATH="$t/prefix/share/man" man -w mailroom > /dev/null; fi
make -s -C "$root" uninstall PREFIX="$t/prefix" > /dev/null
[ -z "$(find "$t/prefix" -type f)" ]
[ ! -e "$t/prefix/bin/mailroom-gc-mail" ] && [ ! -L "$t/prefix/bin/mailroom-gc-mail" ]
