#!/usr/bin/env bash
# integration/exec_script_runs.sh: how many times each command runs the exec script, through a
# logging shim in front of testdata/gc/gc_mail.sh, against the table "Script runs per command" in
# docs/exec-protocol.md (read from the page itself, so the two cannot drift): exactly the page's
# count, never more than one above gc's, `ensure-running` at most once per command (as gc), with
# and without `[compat] gc` (where the recipient is chosen by the same `get`).
. "$(dirname "$0")/common.sh"
: "${MAILROOM_TESTDATA:?set MAILROOM_TESTDATA to the testdata directory}"
command -v flock > /dev/null || skip "flock (util-linux) not installed"
command -v jq > /dev/null || skip "jq not installed"
doc="$integration_dir/../docs/exec-protocol.md"
unset MAILROOM_DB
export MAILROOM_EXEC_STATE="$t/state" RUNS_LOG="$t/runs"
mkdir -p "$MAILROOM_EXEC_STATE"
cat > "$t/shim" << SHIM
#!/bin/sh
printf '%s\n' "\$1" >> "\$RUNS_LOG"
exec "$MAILROOM_TESTDATA/gc/gc_mail.sh" "\$@"
SHIM
chmod +x "$t/shim"
printf '[mail]\nprovider = "exec:%s/shim"\n' "$t" > mailroom.toml

# column ROW N: of the row of the table under "Script runs per command" whose first cell is ROW, cell N after it (1: gc, 2: mailroom).
column() {
  awk -F'|' -v row="$1" -v n="$2" '/^### Script runs per command/ { on = 1 } on && $2 ~ "^ *" row " *$" { gsub(/ /, "", $(n + 2)); print $(n + 2); exit }' "$doc"
}
# runs ROW CMD...: runs CMD and checks the script runs it caused against row ROW of the table.
runs() {
  local row=$1 want gc ops ensures
  shift
  want=$(column "$row" 2)
  gc=$(column "$row" 1)
  [ -n "$want" ] && [ -n "$gc" ] || { echo "no row '$row' in $doc" >&2; return 1; }
  : > "$RUNS_LOG"
  "$@" < /dev/null > "$t/out" 2> "$t/err" || true
  ops=$(grep -cv '^ensure-running$' "$RUNS_LOG" || true)
  ensures=$(grep -c '^ensure-running$' "$RUNS_LOG" || true)
  if [ "$ops" -ne "$want" ] || [ "$ensures" -gt 1 ] || [ "$want" -gt $((gc + 1)) ]; then
    echo "$row: $* ran $(paste -sd' ' "$RUNS_LOG"); the table says $want (gc: $gc)" >&2
    cat "$t/err" >&2
    return 1
  fi
}
send_id() { sed -nE 's/^Sent message ([^ ]+) to .*$/\1/p' "$t/out"; }

for compat in 0 1; do
  if [ "$compat" = 1 ]; then printf '\n[compat]\ngc = true\n' >> mailroom.toml; reader=(); else reader=(--as bob); fi
  runs '`send`' mailroom --as alice send bob -s Hi -m hello
  id=$(send_id)
  runs '`count`' mailroom count bob
  runs '`check`' mailroom check bob
  runs '`inbox`' mailroom inbox bob
  runs '`peek`' mailroom peek "$id"
  runs '`read`' mailroom "${reader[@]}" read "$id"
  grep -q '^Body: *hello$' "$t/out"
  not grep -q "$id" <<< "$(mailroom inbox bob)"
  runs '`mark-unread`' mailroom "${reader[@]}" mark-unread "$id"
  runs '`mark-read`' mailroom "${reader[@]}" mark-read "$id"
  runs '`reply`' mailroom --as bob reply "$id" -m back
  grep -q "^Replied to $id" "$t/out"
  runs '`thread` of a message id' mailroom thread "$id"
  tid=$(mailroom --json peek "$id" | jq -r .message.thread_id)
  runs '`thread` of a thread id' mailroom thread "$tid"
  runs '`thread` of an unknown id' mailroom thread nonexistent-thread
  runs '`archive`' mailroom "${reader[@]}" archive "$id"
  runs '`send`' mailroom --as alice send bob -s Two -m two
  id=$(send_id)
  runs '`delete`' mailroom "${reader[@]}" delete "$id"
  grep -qx "Deleted message $id" "$t/out"
  # The sender's own read (not a recipient): a look, nothing marked (with compat, it acts for bob).
  runs '`send`' mailroom --as alice send bob -s Three -m three
  id=$(send_id)
  if [ "$compat" = 0 ]; then
    runs '`read` by its sender' mailroom --as alice read "$id"
    grep -q "you sent $id; bob's copy is unchanged (use --for bob)" "$t/err"
    [ "$(mailroom count bob)" = "1 total, 1 unread for bob" ]
  fi
done
