#!/usr/bin/env bash
# integration/hook_formats.sh: check --hook-format claude|codex|gemini answers each recorded payload
# (testdata/hooks) in that agent's JSON with the payload's event; bad payloads get the default event
. "$(dirname "$0")/common.sh"
payloads=${MAILROOM_TESTDATA:-$integration_dir/../testdata}/hooks
workspace mayor polecat
send_id mayor "Fix the auth bug" > /dev/null
send_id --as polecat mayor --urgent -s "Outage" -m "prod is down" > /dev/null
export MAILROOM_IDENTITY=mayor

# expect_hook_json EVENT < output: one line, exactly {"hookSpecificOutput":{hookEventName,
# additionalContext}}, with the event and the reminder.
expect_hook_json() {
  local out
  out=$(cat)
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ]
  jq -e --arg event "$1" '(keys == ["hookSpecificOutput"]) and
    (.hookSpecificOutput | keys == ["additionalContext", "hookEventName"]) and
    .hookSpecificOutput.hookEventName == $event and
    (.hookSpecificOutput.additionalContext | startswith("<system-reminder>\nYou have 2 unread message(s).") and
     endswith("</system-reminder>") and contains("\n- [urgent] "))' <<< "$out" > /dev/null
}

default_event() { if [ "$1" = gemini ]; then echo BeforeAgent; else echo UserPromptSubmit; fi; }

# Each agent's recorded payloads: the payload's event comes back.
for agent in claude codex gemini; do
  for payload in "$payloads/$agent"/*.json; do
    event=$(jq -r .hook_event_name "$payload")
    mailroom check --hook-format "$agent" < "$payload" | expect_hook_json "$event"
  done
  # Bad payloads are ignored: the agent's default event, nothing on stderr.
  for payload in "$payloads"/bad/*; do
    mailroom check --hook-format "$agent" < "$payload" 2> "$t/err" | expect_hook_json "$(default_event "$agent")"
    [ ! -s "$t/err" ]
  done
  # No payload at all, and --hook-event over the payload's event.
  mailroom check --hook-format "$agent" < /dev/null | expect_hook_json "$(default_event "$agent")"
  mailroom check --hook-format "$agent" --hook-event SessionStart < "$payloads/gemini/before_agent.json" |
    expect_hook_json SessionStart
done
# The formats imply --inject, and --inject with them is the same.
mailroom check --inject --hook-format codex < "$payloads/codex/session_start.json" | expect_hook_json SessionStart

# Over 1 MiB is no payload (here a valid payload padded with blanks); a writer that never closes
# costs at most ~200 ms.
{ head -c 1100000 /dev/zero | tr '\0' ' ' | cat "$payloads/claude/session_start.json" - || true; } |
  mailroom check --hook-format claude | expect_hook_json UserPromptSubmit
(cat "$payloads/claude/session_start.json"; sleep 2) | {
  start=$(date +%s%N)
  mailroom check --hook-format claude > "$t/slow"
  echo $(( ($(date +%s%N) - start) / 1000000 )) > "$t/ms"
}
expect_hook_json UserPromptSubmit < "$t/slow"
[ "$(cat "$t/ms")" -lt 1500 ]

# The commands in the reminder work as written in the agent's shell: with the identity from the
# environment they are plain, with --as they carry it (the shell has no MAILROOM_IDENTITY then).
mailroom check --hook-format claude < /dev/null | jq -r .hookSpecificOutput.additionalContext > "$t/out"
grep -q "^Run 'mailroom read <id>' for full details, or 'mailroom inbox' to see all.$" "$t/out"
context=$(MAILROOM_IDENTITY='' mailroom --as mayor check --hook-format claude < /dev/null |
  jq -r .hookSpecificOutput.additionalContext)
grep -q "^Run 'mailroom --as mayor read <id>' for full details, or 'mailroom --as mayor inbox' to see all.$" <<< "$context"
program=$(sed -n "s/^Run '\(.*\) read <id>'.*/\1/p" <<< "$context")
first=$(sed -n 's/^- \(\[[a-z]*\] \)\{0,1\}\([^ ]*\) from .*/\2/p' <<< "$context" | head -1)
(unset MAILROOM_IDENTITY; eval "$program read $first") > "$t/read"
grep -q '^Subject: *Outage$' "$t/read"
[ "$(mailroom --json count | jq .unread)" = 1 ]

# No mail: nothing at all on stdout, for every agent.
for agent in claude codex gemini; do
  [ -z "$(MAILROOM_IDENTITY=polecat mailroom check --hook-format "$agent" < "$payloads/$agent/session_start.json")" ]
done

# The context stays well under Claude Code's 10,000 characters however many are listed.
for i in $(seq 60); do
  send_id --as polecat mayor "note $i $(printf 'x%.0s' $(seq 230))" > /dev/null
done
mailroom check --hook-format gemini --limit 500 < /dev/null > "$t/big"
[ "$(jq '.hookSpecificOutput.additionalContext | length' "$t/big")" -le 8000 ]
jq -r .hookSpecificOutput.additionalContext "$t/big" > "$t/big.txt"
grep -q "^Showing the first [0-9]* message(s) here; run 'mailroom inbox' for the full list.$" "$t/big.txt"
[ "$(tail -1 "$t/big.txt")" = '</system-reminder>' ]
expect_golden "$t/out"
