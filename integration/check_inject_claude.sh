#!/usr/bin/env bash
# integration/check_inject_claude.sh: --hook-format claude prints the hookSpecificOutput JSON
. "$(dirname "$0")/common.sh"
workspace mayor
[ -z "$(mailroom --as mayor check --inject --hook-format claude)" ]
id=$(send_id mayor "Fix the auth bug")
out=$(mailroom --as mayor check --inject --hook-format claude)
[ "$(jq -r .hookSpecificOutput.hookEventName <<< "$out")" = UserPromptSubmit ]
jq -r .hookSpecificOutput.additionalContext <<< "$out" | grep -q "^- $id from human: Fix the auth bug$"
out=$(mailroom --as mayor check --inject --hook-format claude --hook-event SessionStart)
[ "$(jq -r .hookSpecificOutput.hookEventName <<< "$out")" = SessionStart ]
# Gemini CLI is a format too now; an unknown one is a hook failure: exit 0, nothing on stdout.
out=$(mailroom --as mayor check --inject --hook-format gemini < /dev/null)
[ "$(jq -r .hookSpecificOutput.hookEventName <<< "$out")" = BeforeAgent ]
[ -z "$(mailroom --as mayor check --inject --hook-format cursor 2> /dev/null)" ]
