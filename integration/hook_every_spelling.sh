#!/usr/bin/env bash
# integration/hook_every_spelling.sh: the hook guarantee holds for every spelling of a hook line
# (issue #29 items 1, 3 and 12; contract "Hooks for coding agents", "What reaches an agent"):
# `check --inject`, `check --hook-format claude`, Gas City's `mail check …`, with global options
# before or after the command word, in every form (`--config X`, `--config=X`), with unknown or
# misspelt options — times every failure class: a broken config from each source, a missing,
# locked or unwritable store, a bad identity, a bad budget, an exec script that fails or hangs.
# Each must exit 0 with nothing on stdout and one bounded stderr line; a hang must end at the
# hook's time budget (checked against a bound far above it, never as a latency).
. "$(dirname "$0")/common.sh"
testdata=${MAILROOM_TESTDATA:-$integration_dir/../testdata}
export testdata

mkdir -p "$t/template"
cd "$t/template"
workspace mayor
send_id mayor "deploy at five" > /dev/null
export MAILROOM_IDENTITY=mayor
printf 'provder = 1\n' > "$t/bad.toml"

# The spellings: @F@ is each hook form in turn.
spellings=("check @F@" "mail check @F@" "mail --as mayor check @F@ --json")
forms=("--inject" "--hook-format claude")

set_config() {
  sed -i -E "s|^#? *$1 = .*|$1 = $2|" mailroom.toml
}

# hold_lock: another process holds the store in exclusive locking mode (even readers wait) for
# the rest of the row, longer than the store's 5 s busy timeout: only the hook's budget can end
# the wait.
# Its input is a FIFO held open by the row's subshell: when the row ends, the lock goes.
hold_lock() {
  rm -f "$t/lock.fifo"
  mkfifo "$t/lock.fifo"
  sqlite3 .mailroom/mail.db < "$t/lock.fifo" > /dev/null 2>&1 &
  echo $! > "$t/holder.pid"
  exec 3> "$t/lock.fifo"
  printf '.timeout 20000\nPRAGMA locking_mode=EXCLUSIVE;\nBEGIN EXCLUSIVE;\nCOMMIT;\nBEGIN EXCLUSIVE;\n' >&3
  for _ in $(seq 300); do
    sqlite3 .mailroom/mail.db 'SELECT count(*) FROM sqlite_master' > /dev/null 2>&1 || return 0
    sleep 0.05
  done
  echo "hold_lock: the lock never took" >&2
  return 1
}

failures=()
# check_row NAME EXPECT SPELLING: the last run's status, out and err against EXPECT. `timeout`
# bounds every run: a hook that waits past its budget for the lock or a 60 s script shows as
# exit 124 here.
check_row() {
  local name=$1 expect=$2 spelling=$3 lines
  lines=$(wc -l < "$t/err")
  if [ "$expect" = fail ]; then
    if [ "$status" -ne 0 ] || [ -s "$t/out" ] || [ "$lines" -ne 1 ] || [ "$(wc -c < "$t/err")" -gt 600 ]; then
      failures+=("$name [$spelling]: exit $status, $(wc -c < "$t/out") bytes on stdout, $lines stderr line(s): $(head -c 300 "$t/err" | tr '\n' '|')")
    fi
  elif [ "$status" -ne 0 ] || [ -s "$t/err" ] || ! grep -q 'deploy at five' "$t/out"; then
    failures+=("$name [$spelling]: exit $status, stderr: $(head -c 300 "$t/err" | tr '\n' '|')")
  fi
}

# Rows: name | expect | command, eval'd in a fresh copy of the template with stdin from
# /dev/null; @S@ is each spelling (with each form), `mr` the bounded mailroom.
mr() { timeout 9 "$MAILROOM" "$@"; }
export -f mr
rows=$(
  cat << 'ROWS'
works               | ok   | mr @S@
# --- the config, from every source and position
config_flag_before  | fail | mr --config "$t/bad.toml" @S@
config_flag_after   | fail | mr @S@ --config "$t/bad.toml"
config_flag_equals  | fail | mr --config="$t/bad.toml" @S@
config_env          | fail | MAILROOM_CONFIG="$t/bad.toml" mr @S@
config_workspace    | fail | printf 'provder = 1\n' > mailroom.toml; mr @S@
config_bad_budget   | fail | printf '\n[hooks]\nbudget = "2h"\n' >> mailroom.toml; mr @S@
# --- options
unknown_after       | fail | mr @S@ --hook-evnt X
unknown_before      | fail | mr --hook-evnt X @S@
misspelt_global     | fail | mr --jsno @S@
budget_flag_bad     | fail | mr @S@ --budget soon
budget_env_bad      | fail | MAILROOM_HOOK_BUDGET=soon mr @S@
# --- the identity
identity_path       | fail | mr --as ../x @S@
identity_unknown    | fail | mr @S@ --as nobody
# --- the store
store_missing       | fail | mr --db "$t/ws/nowhere/mail.db" @S@
store_missing_after | fail | mr @S@ --db="$t/ws/nowhere/mail.db"
store_locked        | fail | hold_lock; MAILROOM_HOOK_BUDGET=300ms mr @S@
store_locked_flag   | fail | hold_lock; mr @S@ --budget 300ms
store_locked_config | fail | hold_lock; printf '\n[hooks]\nbudget = "300ms"\n' >> mailroom.toml; mr @S@
# --- an exec script
exec_fails          | fail | set_config provider "\"exec:$testdata/exec/fails_with_stderr.sh\""; mr @S@
exec_hangs          | fail | set_config provider "\"exec:$testdata/exec/hangs.sh\""; set_config timeout_ms 60000; MAILROOM_EXEC_STATE="$t/ws" MAILROOM_HOOK_BUDGET=300ms mr @S@
exec_hangs_flag     | fail | set_config provider "\"exec:$testdata/exec/hangs.sh\""; set_config timeout_ms 60000; MAILROOM_EXEC_STATE="$t/ws" mr @S@ --budget=300ms
ROWS
)

while IFS='|' read -r name expect command; do
  name=${name//[[:space:]]/} expect=${expect//[[:space:]]/}
  [ -z "$name" ] || [ "${name:0:1}" = "#" ] && continue
  for s in "${!spellings[@]}"; do
    for f in "${!forms[@]}"; do
      # A row that waits for the budget runs one form per spelling (alternating), to stay fast.
      case $name in store_locked* | exec_hangs*) [ $(((s + f) % 2)) -eq 0 ] || continue ;; esac
      words=${spellings[s]//@F@/${forms[f]}}
      rm -rf "$t/ws"
      cp -a "$t/template" "$t/ws"
      cd "$t/ws"
      status=0
      (trap - ERR; set +eu +o pipefail; eval "${command//@S@/$words}") > "$t/out" 2> "$t/err" < /dev/null || status=$?
      if [ -f "$t/ws/grandchild.pid" ]; then # hangs.sh left running by the budget: end its group now
        group=$(ps -o pgid= -p "$(cat "$t/ws/grandchild.pid")" | tr -d ' ') || true
        if [ -n "$group" ]; then kill -- "-$group" 2> /dev/null || true; fi
      fi
      if [ -f "$t/holder.pid" ]; then
        kill "$(cat "$t/holder.pid")" 2> /dev/null || true
        rm -f "$t/holder.pid"
      fi
      check_row "$name" "$expect" "$words"
      [ "${MAILROOM_SANITIZED:-0}" = 1 ] && break # one form under ASan: the rows stay the same
    done
  done
done <<< "$rows"

# --json check --inject: the contract's object, with the reminder or null, and exit 0.
cd "$t/template"
out=$(mailroom --json check --inject)
jq -e '.schema_version == 1 and .mailbox == "mayor" and .unread == 1 and (.reminder | test("deploy at five"))' <<< "$out" > /dev/null ||
  failures+=("--json check --inject with mail: $out")
out=$(mailroom --json mail check --inject --as nobody-here 2> /dev/null) || failures+=("--json with a bad identity exited non-zero")
[ -z "$out" ] || failures+=("--json with a bad identity printed: $out")
mailroom --as mayor mark-read --all -q
out=$(mailroom --json check --inject)
jq -e '.unread == 0 and .reminder == null' <<< "$out" > /dev/null || failures+=("--json check --inject without mail: $out")

if [ "${#failures[@]}" -gt 0 ]; then
  printf 'FAIL: %s\n' "${failures[@]}" >&2
  echo "${#failures[@]} hook invocation(s) broke the hook guarantee" >&2
  exit 1
fi
