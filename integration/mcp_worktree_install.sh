#!/usr/bin/env bash
# integration/mcp_worktree_install.sh: `mcp install` entries start in a linked git worktree whose
# identity comes from .mailroom-identity (contract "MCP, round 2" and "Round 4: decisions after
# review", Identity). Each agent's entry is started as that agent expands it: Claude Code expands
# ${VAR} and ${VAR:-default} (an unset ${VAR} stays as written), Gemini CLI $VAR and ${VAR} (an
# unset one stays as written, no default form), Codex nothing, passing on only the variables its
# env_vars names; each answers initialize and a count as the worktree's mailbox. doctor checks
# every entry as it checks a hook, fails on one whose command points nowhere or whose identity
# cannot be had, and says so in a worktree that no installed hook or MCP entry reaches.
. "$(dirname "$0")/common.sh"
command -v git > /dev/null || skip "git is not installed"
command -v python3 > /dev/null || skip "python3 reads Codex's TOML here"
unset MAILROOM_DB
g() { git -c user.email=t@t -c user.name=t "$@"; }
mkdir -p "$t/bin" && ln -s "$MAILROOM" "$t/bin/mailroom"
export PATH="$t/bin:$PATH" # an entry's command "mailroom" resolves to the binary under test

mkdir "$t/seed" && cd "$t/seed" && git init -q -b main && echo x > README && g add README && g commit -qm init
git clone -q "$t/seed" "$t/main"
cd "$t/main"
git worktree add -q -b a "$t/wt-a" 2> /dev/null
git worktree add -q -b b "$t/wt-b" 2> /dev/null
mailroom init > /dev/null
mailroom agents add builder reviewer > /dev/null
echo builder > "$t/wt-a/.mailroom-identity"
echo reviewer > "$t/wt-b/.mailroom-identity"

# Starts the server (argv after the directory) in that directory with the environment given by
# `env_args`, sends initialize, notifications/initialized and a count call, and prints the count's
# mailbox; the initialize answer is kept in $t/initialize.json.
env_args=()
started_as() {
  local dir=$1 line
  shift
  coproc SERVER { cd "$dir" && exec env -i "${env_args[@]}" "$@" 2> "$t/server.err"; }
  printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"it","version":"1"}}}' >&"${SERVER[1]}"
  IFS= read -r -t 20 line <&"${SERVER[0]}"
  printf '%s\n' "$line" > "$t/initialize.json"
  printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"count","arguments":{}}}' >&"${SERVER[1]}"
  IFS= read -r -t 20 line <&"${SERVER[0]}"
  eval "exec ${SERVER[1]}>&-"
  wait "$SERVER_PID"
  jq -e '.result.serverInfo.name == "mailroom"' "$t/initialize.json" > /dev/null
  jq -r '.result.structuredContent.mailbox // ("error: " + (.result.structuredContent.error.message // tostring))' <<< "$line"
}

# As Claude Code: ${NAME} and ${NAME:-default} from its environment; an unset ${NAME} as written.
claude_args() {
  jq -r '.mcpServers.mailroom.args[] | gsub("\\$\\{(?<n>[A-Za-z_][A-Za-z0-9_]*)(?<d>:-[^}]*)?\\}";
           if ($ENV[.n] // "") != "" then $ENV[.n] elif .d != null then .d[2:] else "${" + .n + "}" end)' "$1"
}
# As Gemini CLI: $NAME and ${NAME} (anything up to "}" is the name); an unset one as written.
gemini_args() {
  jq -r '.mcpServers.mailroom.args[] | gsub("\\$(?<a>[A-Za-z0-9_]+)|\\$\\{(?<b>[^}]+)\\}";
           (.a // .b) as $n | if $ENV[$n] != null then $ENV[$n] elif .a != null then "$" + .a else "${" + .b + "}" end)' "$1"
}
# As Codex: the table's command and args as written, one per line.
codex_field() {
  python3 -c 'import sys, tomllib
server = tomllib.load(open(sys.argv[1], "rb"))["mcp_servers"]["mailroom"]
for value in ([server["command"]] if sys.argv[2] == "command" else server[sys.argv[2]]): print(value)' "$1" "$2"
}

cd "$t/wt-a/src" 2> /dev/null || { mkdir -p "$t/wt-a/src" && cd "$t/wt-a/src"; }
for agent in claude gemini codex; do
  mailroom mcp install "$agent" > /dev/null
done
[ -f "$t/wt-a/.mcp.json" ] && [ -f "$t/wt-a/.gemini/settings.json" ] && [ -f "$t/wt-a/.codex/config.toml" ]
[ ! -e "$t/wt-a/src/.mcp.json" ] # at the worktree's top, as hooks install writes

# Claude Code, started from the worktree without MAILROOM_IDENTITY: --as '' is no --as.
mapfile -t args < <(claude_args "$t/wt-a/.mcp.json")
[ "${args[*]}" = "mcp --as " ] && [ "${#args[@]}" = 3 ]
env_args=(PATH="$PATH" HOME="$HOME")
[ "$(started_as "$t/wt-a" "$(jq -r .mcpServers.mailroom.command "$t/wt-a/.mcp.json")" "${args[@]}")" = builder ]
# ... and with MAILROOM_IDENTITY in its environment, that one.
mapfile -t args < <(MAILROOM_IDENTITY=reviewer claude_args "$t/wt-a/.mcp.json")
env_args=(PATH="$PATH" HOME="$HOME" MAILROOM_IDENTITY=reviewer)
[ "$(started_as "$t/wt-a" mailroom "${args[@]}")" = reviewer ]

# Gemini CLI: no --as to expand; the server inherits its environment.
mapfile -t args < <(gemini_args "$t/wt-a/.gemini/settings.json")
[ "${args[*]}" = mcp ]
env_args=(PATH="$PATH" HOME="$HOME")
[ "$(started_as "$t/wt-a" "$(jq -r .mcpServers.mailroom.command "$t/wt-a/.gemini/settings.json")" "${args[@]}")" = builder ]
env_args=(PATH="$PATH" HOME="$HOME" MAILROOM_IDENTITY=reviewer)
[ "$(started_as "$t/wt-a" mailroom "${args[@]}")" = reviewer ]

# Codex: no expansion; only env_vars' variables (MAILROOM_IDENTITY) are passed on.
mapfile -t args < <(codex_field "$t/wt-a/.codex/config.toml" args)
[ "$(codex_field "$t/wt-a/.codex/config.toml" env_vars)" = MAILROOM_IDENTITY ]
env_args=(PATH="$PATH" HOME="$HOME")
[ "$(started_as "$t/wt-a" "$(codex_field "$t/wt-a/.codex/config.toml" command)" "${args[@]}")" = builder ]

# The round-3 form (${MAILROOM_IDENTITY} without a default) starts with the literal text as --as.
jq '.mcpServers.mailroom.args = ["mcp","--as","${MAILROOM_IDENTITY}"]' "$t/wt-a/.mcp.json" > "$t/old.json"
mapfile -t args < <(claude_args "$t/old.json")
[ "${args[2]}" = '${MAILROOM_IDENTITY}' ]
(cd "$t/wt-a" && expect_exit 2 env -i PATH="$PATH" HOME="$HOME" mailroom "${args[@]}" < /dev/null 2> "$t/old.err")
grep -qF 'identity "${MAILROOM_IDENTITY}" (from flag --as) is not a valid mailbox' "$t/old.err"

# doctor checks every entry like a hook: all three start as builder.
cd "$t/wt-a"
mailroom --json doctor > "$t/doctor.json"
jq -e '.ok' "$t/doctor.json" > /dev/null
for agent in claude gemini codex; do
  jq -e --arg a "$agent" --arg f "$t/wt-a/.mailroom-identity" \
    '[.checks[] | select(.agent == $a and .check == "mcp_identity")] | length == 1 and .[0].ok and
     (.[0].detail == "builder (from " + $f + ")")' "$t/doctor.json" > /dev/null
  jq -e --arg a "$agent" '.checks[] | select(.agent == $a and .check == "mcp_command") | .ok' "$t/doctor.json" > /dev/null
done
mailroom doctor | tail -1 | grep -qx 'All is well'

# A broken entry fails doctor and hooks status: a command pointing nowhere, then the old form.
cp .mcp.json "$t/good.json"
jq --arg c "$t/nowhere/mailroom" '.mcpServers.mailroom.command = $c' "$t/good.json" > .mcp.json
expect_exit 1 mailroom doctor > "$t/doctor.txt"
grep -q "^PROBLEM claude  mcp_command" "$t/doctor.txt"
expect_exit 1 mailroom hooks status > "$t/status.txt"
grep -q "^PROBLEM claude  mcp_command" "$t/status.txt"
cp "$t/old.json" .mcp.json
expect_exit 1 mailroom doctor > "$t/doctor.txt"
grep -q '^PROBLEM claude  mcp_identity *identity "${MAILROOM_IDENTITY}" (from flag --as) is not a valid mailbox' "$t/doctor.txt"
printf '{"mcpServers": ' > .mcp.json
expect_exit 1 mailroom doctor > "$t/doctor.txt"
grep -q "^PROBLEM claude  mcp_entry .*not valid JSON" "$t/doctor.txt"
cp "$t/good.json" .mcp.json
mailroom doctor > /dev/null

# A worktree no installed hook or MCP entry reaches (the entries above are wt-a's, untracked):
# doctor says so instead of "All is well".
cd "$t/wt-b"
expect_exit 1 mailroom doctor > "$t/doctor-b.txt"
grep -q "^PROBLEM - *reach *no installed hook or MCP entry reaches this worktree ($t/wt-b)" "$t/doctor-b.txt"
not grep -q 'All is well' "$t/doctor-b.txt"
expect_exit 1 mailroom hooks status > "$t/status-b.txt"
grep -q "reach *no installed hook or MCP entry reaches this worktree" "$t/status-b.txt"
# A user-level entry reaches every worktree.
mailroom mcp install gemini --user > /dev/null
mailroom --json doctor | jq -e '[.checks[] | select(.check == "reach")] | length == 0' > /dev/null
