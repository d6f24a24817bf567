#!/usr/bin/env bash
# integration/inject_never_fails.sh: every failure of a hook invocation (check --inject, and
# check --hook-format claude|codex|gemini) exits 0 with nothing on stdout and exactly one line on
# stderr (contract "Hooks for coding agents"; issue #10 item 1)
#
# Table-driven: each row below is one failure path, run once per hook form. Errors that happen
# before `check` runs (CLI parsing, config discovery, identity) are routed to exit 0 by cmd/cli/app.cpp.
. "$(dirname "$0")/common.sh"
testdata=${MAILROOM_TESTDATA:-$integration_dir/../testdata} # used by the rows
export testdata

# Every case starts from a copy of this workspace: mayor registered with one unread message, so a
# case that wrongly succeeds prints a reminder and is caught.
mkdir -p "$t/template" "$t/empty"
cd "$t/template"
workspace mayor
send_id mayor "deploy at five" > /dev/null
export MAILROOM_IDENTITY=mayor
printf 'Traceback (most recent call last):\n\x01\xff{"hook_event_name": ' > "$t/garbage.txt"

forms=("--inject" "--hook-format claude" "--hook-format codex" "--hook-format gemini")

# set_config KEY VALUE: sets a key of the workspace's mailroom.toml (written by `init`).
set_config() {
  sed -i -E "s|^#? *$1 = .*|$1 = $2|" mailroom.toml
}

# hold_lock: another process holds the store's lock for a few seconds (exclusive locking mode, so
# even readers wait), and the config waits only 50 ms for it. The holder itself waits up to 20 s for
# the lock (.timeout), so the probe below, which reads the store, cannot make it give up.
hold_lock() {
  set_config busy_timeout_ms 50
  (printf '.timeout 20000\nPRAGMA locking_mode=EXCLUSIVE;\nBEGIN EXCLUSIVE;\nCOMMIT;\nBEGIN EXCLUSIVE;\n'; sleep 8) |
    sqlite3 .mailroom/mail.db > /dev/null 2>&1 &
  for _ in $(seq 300); do
    sqlite3 .mailroom/mail.db 'SELECT count(*) FROM sqlite_master' > /dev/null 2>&1 || return 0
    sleep 0.05
  done
  echo "hold_lock: the lock never took" >&2
  return 1
}

failures=()

# check_row NAME EXPECT FORM: the last run's status, out and err against EXPECT.
check_row() {
  local name=$1 expect=$2 form=$3 lines
  lines=$(wc -l < "$t/err")
  if [ "$expect" = fail ]; then
    if [ "$status" -ne 0 ] || [ -s "$t/out" ] || [ "$lines" -ne 1 ] || [ "$(wc -c < "$t/err")" -gt 400 ]; then
      failures+=("$name [$form]: exit $status, $(wc -c < "$t/out") bytes on stdout, $lines stderr line(s): $(head -c 300 "$t/err" | tr '\n' '|')")
    fi
  else # ok: a garbage payload is ignored, the reminder still comes, nothing on stderr
    if [ "$status" -ne 0 ] || [ -s "$t/err" ] || ! grep -q 'deploy at five' "$t/out"; then
      failures+=("$name [$form]: exit $status, stderr: $(head -c 300 "$t/err" | tr '\n' '|')")
    elif [ "$form" != --inject ] && ! jq -e '.hookSpecificOutput.additionalContext' "$t/out" > /dev/null; then
      failures+=("$name [$form]: stdout is not the hook JSON")
    fi
  fi
}

# Rows: name | expect | command (eval'd in a subshell, in a fresh copy of the template, stdin from
# /dev/null unless redirected). @F@ stands for each hook form in turn; a row without it runs once.
while IFS='|' read -r name expect command; do
  name=${name//[[:space:]]/} expect=${expect//[[:space:]]/}
  [ -z "$name" ] || [ "${name:0:1}" = "#" ] && continue
  if [ "$name" = store_locked ] && ! command -v sqlite3 > /dev/null; then
    echo "note: sqlite3 not installed, store_locked skipped" >&2
    continue
  fi
  case $command in *@F@*) row_forms=("${forms[@]}") ;; *) row_forms=("") ;; esac
  for form in "${row_forms[@]}"; do
    rm -rf "$t/ws"
    cp -a "$t/template" "$t/ws"
    cd "$t/ws"
    status=0
    # The row runs without the test's ERR trap and errexit, so only the command's own output counts.
    (trap - ERR; set +eu +o pipefail; eval "${command//@F@/$form}") > "$t/out" 2> "$t/err" < /dev/null || status=$?
    check_row "$name" "$expect" "${form:-as written}"
  done
done << 'ROWS'
# --- the command line
unknown_flag        | fail | mailroom check @F@ --bogus
flag_without_value  | fail | mailroom check @F@ --limit
event_without_value | fail | mailroom check @F@ --hook-event
format_no_value     | fail | mailroom check --inject --hook-format
limit_zero          | fail | mailroom check @F@ --limit 0
limit_negative      | fail | mailroom check @F@ --limit -1
limit_huge          | fail | mailroom check @F@ --limit 1e99
limit_word          | fail | mailroom check @F@ --limit abc
unknown_format      | fail | mailroom check --hook-format cursor
unknown_format_inj  | fail | mailroom check --inject --hook-format claud
# --- the config
config_syntax       | fail | printf '[mail\n' > mailroom.toml; mailroom check @F@
config_unknown_key  | fail | printf '[mail]\nprovder = "beads"\n' > mailroom.toml; mailroom check @F@
config_wrong_type   | fail | printf '[store]\nbusy_timeout_ms = "soon"\n' > mailroom.toml; mailroom check @F@
config_bad_value    | fail | printf '[mail]\nrecipients = "everyone"\n' > mailroom.toml; mailroom check @F@
config_out_of_range | fail | printf '[store]\nbusy_timeout_ms = -5\n' > mailroom.toml; mailroom check @F@
config_is_directory | fail | rm mailroom.toml; mkdir mailroom.toml; mailroom check @F@
config_flag_dir     | fail | mailroom --config "$t" check @F@
config_env_nowhere  | fail | MAILROOM_CONFIG="$t/nowhere.toml" mailroom check @F@
home_unset          | fail | cd "$t/empty"; env -i "$MAILROOM" check @F@
# --- the identity
identity_as_path    | fail | mailroom --as ../x check @F@
identity_env_space  | fail | MAILROOM_IDENTITY='bad name' mailroom check @F@
identity_gc_agent   | fail | unset MAILROOM_IDENTITY; GC_AGENT=x:y mailroom check @F@
identity_unknown    | fail | mailroom --as nobody check @F@
# --- the store and the provider
store_missing       | fail | mailroom --db "$t/ws/nowhere/mail.db" check @F@
store_corrupt       | fail | printf 'not SQLite %.0s' {1..200} > "$t/ws/corrupt.db"; mailroom --db "$t/ws/corrupt.db" check @F@
store_locked        | fail | hold_lock; mailroom check @F@
exec_fails          | fail | set_config provider "\"exec:$testdata/exec/fails_with_stderr.sh\""; mailroom check @F@
exec_hangs          | fail | set_config provider "\"exec:$testdata/exec/hangs.sh\""; set_config timeout_ms 300; MAILROOM_EXEC_STATE="$t/ws" mailroom check @F@
exec_garbage        | fail | set_config provider "\"exec:$testdata/exec/garbage_output.sh\""; mailroom check @F@
# --- the payload: garbage is ignored, not an error
payload_garbage     | ok   | mailroom check @F@ < "$t/garbage.txt"
payload_huge        | ok   | head -c 1200000 /dev/zero | tr '\0' x | mailroom check @F@
bad_payload_and_store | fail | printf 'not SQLite %.0s' {1..200} > corrupt.db; mailroom --db corrupt.db check @F@ < "$t/garbage.txt"
ROWS

if [ "${#failures[@]}" -gt 0 ]; then
  printf 'FAIL: %s\n' "${failures[@]}" >&2
  echo "${#failures[@]} hook invocation(s) broke the never-fail rule" >&2
  exit 1
fi
