#!/usr/bin/env bash
# integration/mcp_install.sh: mcp show|install|uninstall for claude, codex and gemini: each entry
# in the form its agent expands (Claude Code --as ${MAILROOM_IDENTITY:-}; Gemini CLI and Codex no
# --as), --digest written into the entry, idempotent installs on the settings-file module hooks install uses (backups
# under $XDG_STATE_HOME/mailroom/backups/, never a .bak beside the file), Codex's TOML table
# appended, a different one refused (exit 2, naming its line) and exactly that table removed;
# uninstall removes only what mcp install added (not the hooks in the same file); Claude's --user
# printed only.
. "$(dirname "$0")/common.sh"
mkdir -p proj && cd proj

# show: a valid file or table, in the form each agent expands
mailroom mcp show claude | jq -e '.mcpServers.mailroom.args == ["mcp","--as","${MAILROOM_IDENTITY:-}"]' > /dev/null
mailroom mcp show gemini | jq -e '.mcpServers.mailroom.args == ["mcp"]' > /dev/null
mailroom mcp show gemini --digest | jq -e '.mcpServers.mailroom.args == ["mcp","--digest"]' > /dev/null
mailroom mcp show codex --digest | grep -qx 'args = \["mcp", "--digest"\]'

mailroom mcp show codex | grep -qx '\[mcp_servers.mailroom\]'
mailroom mcp show codex | grep -qx 'env_vars = \["MAILROOM_IDENTITY"\]'

# claude: .mcp.json created, other servers kept, idempotent, removed exactly
printf '{"mcpServers": {"other": {"command": "x"}}, "keep": 1}\n' > .mcp.json
mailroom mcp install claude > /dev/null
jq -e '.mcpServers.other.command == "x" and .keep == 1 and .mcpServers.mailroom.command == "mailroom"' .mcp.json > /dev/null
[ ! -e .mcp.json.bak ]
backups="$XDG_STATE_HOME/mailroom/backups"
[ "$(ls "$backups" | wc -l)" = 1 ]
grep -q '"other"' "$backups"/*
cp .mcp.json before
mailroom mcp install claude | grep -q 'already'
cmp .mcp.json before
mailroom mcp uninstall claude > /dev/null
jq -e '.mcpServers | keys == ["other"]' .mcp.json > /dev/null
jq -e '.keep == 1' .mcp.json > /dev/null
# a file install created goes with uninstall
mkdir -p fresh && (cd fresh && mailroom mcp install claude > /dev/null && [ -f .mcp.json ] &&
  mailroom mcp uninstall claude > /dev/null && [ ! -e .mcp.json ])
# a different mailroom entry is refused, the file unchanged
printf '{"mcpServers": {"mailroom": {"command": "/opt/other"}}}\n' > .mcp.json
expect_exit 2 mailroom mcp install claude 2> err
grep -q 'differs' err
jq -e '.mcpServers.mailroom.command == "/opt/other"' .mcp.json > /dev/null
# not JSON: exit 2, untouched
printf '{"mcpServers": ' > .mcp.json
expect_exit 2 mailroom mcp install claude 2> /dev/null
[ "$(cat .mcp.json)" = '{"mcpServers": ' ]

# claude --user: printed, nothing written
mailroom mcp install claude --user > out 2> /dev/null
grep -qx "claude mcp add -s user mailroom -- mailroom mcp" out
mailroom mcp install claude --user --digest 2> /dev/null | grep -qx "claude mcp add -s user mailroom -- mailroom mcp --digest"
[ ! -e "$HOME/.claude.json" ] && [ ! -e "$HOME/.mcp.json" ]

# codex: the table appended to an existing file, idempotent, conflict exit 2 naming the line,
# uninstall removes exactly that table
mkdir -p .codex
printf 'model = "o4"\n\n[mcp_servers.other]\ncommand = "x"\n' > .codex/config.toml
cp .codex/config.toml original.toml
mailroom mcp install codex > /dev/null
grep -qx '\[mcp_servers.mailroom\]' .codex/config.toml
head -4 .codex/config.toml | cmp - original.toml
mailroom mcp install codex | grep -q already
mailroom mcp uninstall codex > /dev/null
cmp .codex/config.toml original.toml
printf '[mcp_servers.mailroom]\ncommand = "/opt/mailroom"\n\n[other]\nx = 1\n' >> .codex/config.toml
expect_exit 2 mailroom mcp install codex 2> err
grep -q 'config.toml:5:' err
# ... and uninstall leaves a table mailroom did not write alone (exit 2, naming its line)
cp .codex/config.toml theirs.toml
expect_exit 2 mailroom mcp uninstall codex 2> err
grep -q 'config.toml:5:' err
cmp .codex/config.toml theirs.toml

# gemini --user: under $HOME
mailroom mcp install gemini --user > /dev/null
jq -e '.mcpServers.mailroom.args == ["mcp"]' "$HOME/.gemini/settings.json" > /dev/null

# --digest written into the entry; uninstall removes it as installed
mkdir -p digest && (cd digest && mailroom mcp install claude --digest > /dev/null &&
  jq -e '.mcpServers.mailroom.args[-1] == "--digest"' .mcp.json > /dev/null &&
  mailroom mcp install codex --digest > /dev/null && grep -q '"--digest"' .codex/config.toml &&
  mailroom mcp uninstall codex > /dev/null && [ ! -e .codex/config.toml ] &&
  mailroom mcp uninstall claude > /dev/null && [ ! -e .mcp.json ])

# gemini: hooks and the MCP entry in one settings file; each uninstall removes only its own
mailroom hooks install gemini > /dev/null
mailroom mcp install gemini > /dev/null
jq -e '.mcpServers.mailroom and .hooks' .gemini/settings.json > /dev/null
mailroom mcp uninstall gemini > /dev/null
jq -e '(has("mcpServers") | not) and .hooks' .gemini/settings.json > /dev/null
mailroom mcp install gemini > /dev/null
mailroom hooks uninstall gemini > /dev/null
jq -e '.mcpServers.mailroom.command == "mailroom" and (has("hooks") | not)' .gemini/settings.json > /dev/null
find . -name '*.bak' | grep . && exit 1

# --check-identity: the identity and its source; exit 1 when it fell through to human
MAILROOM_IDENTITY=builder mailroom mcp --check-identity | grep -q '^builder (from env MAILROOM_IDENTITY)'
expect_exit 1 mailroom mcp --check-identity > /dev/null 2> err
grep -q MAILROOM_IDENTITY err
