#!/usr/bin/env bash
# integration/hooks_install.sh: hooks show|install|uninstall for each agent, on missing, empty,
# existing and unparseable settings files, each run twice; backups under $XDG_STATE_HOME, never
# beside the file; --user; no config or store is touched
. "$(dirname "$0")/common.sh"
mkdir -p "$t/project"
cd "$t/project"

# show prints only the snippet, valid JSON naming the agent's command on both events.
for agent in claude codex gemini; do
  mailroom hooks show "$agent" > "$t/$agent.json"
  [ "$(jq -r '[.hooks[][0].hooks[0].command] | unique | .[]' "$t/$agent.json")" = "mailroom check --hook-format $agent" ]
done
[ "$(jq -r '.hooks | keys_unsorted | join(",")' "$t/claude.json")" = UserPromptSubmit,SessionStart ]
[ "$(jq -r '.hooks | keys_unsorted | join(",")' "$t/codex.json")" = UserPromptSubmit,SessionStart ]
[ "$(jq -r '.hooks | keys_unsorted | join(",")' "$t/gemini.json")" = BeforeAgent,SessionStart ]
[ "$(jq '.hooks.SessionStart[0].hooks[0].timeout' "$t/claude.json")" = 5 ]
[ "$(jq '.hooks.BeforeAgent[0].hooks[0].timeout' "$t/gemini.json")" = 5000 ]
[ "$(mailroom --json hooks show codex | jq -r .path)" = "$t/project/.codex/hooks.json" ]

backups="$XDG_STATE_HOME/mailroom/backups"
# install_twice AGENT FILE: installs, then installs again and proves nothing changed the second time.
install_twice() {
  mailroom hooks install "$1" >> "$t/out"
  cp "$2" "$t/first"
  local backups_before
  backups_before=$({ ls "$backups" 2> /dev/null || true; } | wc -l)
  mailroom hooks install "$1" >> "$t/out"
  cmp "$2" "$t/first"
  [ "$({ ls "$backups" 2> /dev/null || true; } | wc -l)" = "$backups_before" ]
  [ ! -e "$2.bak" ]
  [ "$(mailroom --json hooks install "$1" | jq -c '[.changed, .added, .already]')" = '[false,[],["'"$3"'","SessionStart"]]' ]
}

# Missing: created with its directory; the result is exactly the snippet.
install_twice claude .claude/settings.json UserPromptSubmit
cmp .claude/settings.json "$t/claude.json"
[ ! -e "$backups" ]

# Empty: treated as {}, backed up.
mkdir -p .gemini
: > .gemini/settings.json
install_twice gemini .gemini/settings.json BeforeAgent
[ "$(ls "$backups" | wc -l)" = 1 ] && [ ! -s "$backups"/* ]
# Gemini CLI's switch is set in the file being installed.
[ "$(jq -c 'del(.hooksConfig)' .gemini/settings.json)" = "$(jq -c . "$t/gemini.json")" ]
[ "$(jq -c .hooksConfig .gemini/settings.json)" = '{"enabled":true}' ]

# Existing, with other keys and other hooks (one of them already a mailroom reminder).
mkdir -p .codex
cat > .codex/hooks.json << 'EOF'
{
    "version": 1,
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 5}]}],
        "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "/usr/local/bin/mailroom --as ci check --inject"}]}]
    },
    "notes": "ünïcode ✓"
}
EOF
cp .codex/hooks.json "$t/codex.before"
install_twice codex .codex/hooks.json UserPromptSubmit
cmp "$(ls -t "$backups"/*codex%hooks.json | head -1)" "$t/codex.before"
[ "$(jq -r 'keys_unsorted | join(",")' .codex/hooks.json)" = version,hooks,notes ]
[ "$(jq -r '.hooks | keys_unsorted | join(",")' .codex/hooks.json)" = PreToolUse,SessionStart,UserPromptSubmit ]
[ "$(jq '.hooks.SessionStart | length' .codex/hooks.json)" = 1 ]
[ "$(jq -r .notes .codex/hooks.json)" = "ünïcode ✓" ]
[ "$(jq -r '.hooks.UserPromptSubmit[0].hooks[0].command' .codex/hooks.json)" = "mailroom check --hook-format codex" ]
grep -q '^  "version": 1,$' .codex/hooks.json

# Unparseable: exit 2 naming file:line:column, nothing written, no backup, twice.
mkdir -p broken/.claude
printf '{\n  "hooks": {\n    "Stop": [,]\n  }\n}\n' > broken/.claude/settings.json
cp broken/.claude/settings.json "$t/broken.before"
for _ in 1 2; do
  (cd broken && expect_exit 2 mailroom hooks install claude 2>> "$t/err")
  cmp broken/.claude/settings.json "$t/broken.before"
  [ "$(ls -A broken/.claude)" = settings.json ]
done
(cd broken && expect_exit 2 mailroom --json hooks install claude 2>&1 | jq -e '.error.code == "usage" and .error.exit_code == 2' > /dev/null)

# --user writes under $HOME, and needs HOME.
mailroom hooks install gemini --user >> "$t/out"
jq -e '.hooks.BeforeAgent[0].hooks[0].name == "mailroom"' "$HOME/.gemini/settings.json" > /dev/null
expect_exit 2 env -u HOME "$MAILROOM" hooks install claude --user 2>> "$t/err"

# Unknown agents and missing arguments are usage errors.
expect_exit 2 mailroom hooks install claud 2>> "$t/err"
expect_exit 2 mailroom hooks show 2> /dev/null
expect_exit 2 mailroom hooks 2> /dev/null

# uninstall removes exactly what install added: the file install created goes (and its folder),
# Gemini's switch goes, the codex file is
# back to what it was (the user's own mailroom hook on SessionStart stays), twice.
for _ in 1 2; do
  mailroom hooks uninstall claude >> "$t/out"
  mailroom hooks uninstall codex >> "$t/out"
done
[ ! -e .claude/settings.json ] && [ ! -e .claude ] # the folder install created goes with it
[ "$(jq -S . .codex/hooks.json)" = "$(jq -S . "$t/codex.before")" ]
mailroom hooks uninstall gemini >> "$t/out"
[ "$(jq -c . .gemini/settings.json)" = '{}' ]
[ "$(mailroom --json hooks uninstall gemini | jq -c '[.changed, .removed_count]')" = '[false,0]' ]

# No config, store or workspace was created along the way; nothing but backups and install
# records under the state directory.
[ ! -e "$MAILROOM_DB" ] && [ ! -e mailroom.toml ] && [ ! -e .mailroom ] && [ ! -e "$HOME/.local/share" ]
[ "$(ls "$XDG_STATE_HOME/mailroom")" = "$(printf 'backups\ninstalls')" ]
find . -name '*.bak' | grep -q . && exit 1
sed -E -i 's|backups/[0-9]{8}T[0-9]{6}Z-[^ ]*|backups/{backup}|' "$t/out"
expect_golden "$t/out"
expect_golden "$t/err" err
