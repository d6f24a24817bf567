#!/usr/bin/env bash
# integration/project_worktrees.sh: the newcomer's run (issue #34's "done when"): a bare repository
# with three worktrees, one whose branch has its own (ignored) mailroom.toml and one without any;
# hooks installed for all three agents from subdirectories land at each worktree's top; a group
# defined once reaches everyone; every agent's hook and `config` agree on store, config file and
# identity; doctor names an ignored toml and a worktree's own store with the line that merges it.
. "$(dirname "$0")/common.sh"
command -v git > /dev/null || skip "git is not installed"
unset MAILROOM_DB
g() { git -c user.email=t@t -c user.name=t "$@"; }
mkdir -p "$t/bin" && ln -s "$MAILROOM" "$t/bin/mailroom"
export PATH="$t/bin:$PATH" # the hook command "mailroom" resolves to the binary under test

mkdir "$t/seed" && cd "$t/seed" && git init -q -b main && echo x > README && g add README && g commit -qm init
git clone -q --bare "$t/seed" "$t/proj.git"
cd "$t/proj.git"
git worktree add -q "$t/wt-a" main 2> /dev/null
git worktree add -q -b b "$t/wt-b" 2> /dev/null
git worktree add -q -b c "$t/wt-c" 2> /dev/null
shared="$t/proj.git/mailroom"

# init from a worktree writes the repository's one workspace, in the bare repository.
cd "$t/wt-a"
mailroom init > /dev/null
[ -f "$shared/mailroom.toml" ] && [ -f "$shared/mail.db" ] && [ ! -e mailroom.toml ] && [ ! -e .mailroom ]
mailroom agents add builder reviewer docs > /dev/null
sed -i 's/^\[groups\]$/[groups]\nteam = ["builder", "reviewer"]/' "$shared/mailroom.toml"
# wt-b's branch has a mailroom.toml of its own (ignored); wt-c's has none.
printf '[groups]\nteam = ["docs"]\n' > "$t/wt-b/mailroom.toml"
echo builder > "$t/wt-a/.mailroom-identity"
echo reviewer > "$t/wt-b/.mailroom-identity"
echo docs > "$t/wt-c/.mailroom-identity"
[ -z "$(cd "$t/wt-c" && git status --porcelain)" ] # .mailroom-identity is kept out of git

# Hooks installed from deep subdirectories land at each worktree's top.
declare -A agent_of=([a]=claude [b]=codex [c]=gemini) file_of=([a]=.claude/settings.json [b]=.codex/hooks.json [c]=.gemini/settings.json)
declare -A who=([a]=builder [b]=reviewer [c]=docs)
for w in a b c; do
  mkdir -p "$t/wt-$w/src/deep" && cd "$t/wt-$w/src/deep"
  mailroom hooks install "${agent_of[$w]}" > "$t/install-$w"
  [ -f "$t/wt-$w/${file_of[$w]}" ] && [ ! -e "$t/wt-$w/src/deep/${file_of[$w]%%/*}" ]
  grep -q "not tracked by git: only this worktree sees it" "$t/install-$w"
done

# The group is defined once: sent from the worktree without a toml, it reaches both members.
cd "$t/wt-c/src/deep"
id=$(mailroom --json send @team -s "standup" -m "at ten" | jq -r .id)
[ -n "$id" ]
[ "$(mailroom --as builder --json count | jq .unread)" = 1 ] && [ "$(mailroom --as reviewer --json count | jq .unread)" = 1 ]
[ "$(mailroom --json count | jq .unread)" = 0 ] # docs, from .mailroom-identity

# Every worktree: the same store and config file, its own identity; the hook agrees.
for w in a b c; do
  cd "$t/wt-$w/src/deep"
  mailroom --json config > "$t/config-$w"
  [ "$(jq -r '.settings.store.value' "$t/config-$w")" = "$shared/mail.db" ]
  [ "$(jq -r '.settings.config.value' "$t/config-$w")" = "$shared/mailroom.toml" ]
  [ "$(jq -r '.settings.identity.value' "$t/config-$w")" = "${who[$w]}" ]
  command=$(jq -r '.hooks.SessionStart[0].hooks[0].command' "$t/wt-$w/${file_of[$w]}")
  echo '{"hook_event_name":"SessionStart"}' | $command > "$t/hook-$w"
  mailroom hooks status "${agent_of[$w]}" > "$t/status-$w" || true
  grep -q "^ok      ${agent_of[$w]} *identity *${who[$w]} (from $t/wt-$w/.mailroom-identity)" "$t/status-$w"
  grep -q "^ok      ${agent_of[$w]} *store *$shared/mail.db" "$t/status-$w"
  grep -q "^ok      ${agent_of[$w]} *command" "$t/status-$w"
done
grep -q "standup" "$t/hook-a" && grep -q "standup" "$t/hook-b" && [ ! -s "$t/hook-c" ]
[ "$(jq -r '.ignored_config' "$t/config-b")" = "$t/wt-b/mailroom.toml" ]
[ "$(jq -r '.ignored_config' "$t/config-a")" = null ]
(cd "$t/wt-a" && mailroom hooks status > /dev/null) # all is well: exit 0
# The ignored toml differs from the one in force: a problem for status and doctor, silence elsewhere.
cd "$t/wt-b"
expect_exit 1 mailroom hooks status > "$t/status-b"
grep -q "^PROBLEM - *ignored_config *$t/wt-b/mailroom.toml is ignored" "$t/status-b"
[ "$(mailroom --json doctor | jq -c '[.checks[] | select(.ok | not) | .check]')" = '["ignored_config"]' ]
mailroom --as reviewer count 2>&1 | not grep -q ignored
mailroom --verbose --as reviewer count 2>&1 | grep -q "ignored $t/wt-b/mailroom.toml"

# A worktree's own store left from before: used no more, doctor prints the merge line.
cd "$t/wt-c"
mkdir .mailroom && cp "$shared/mail.db" .mailroom/mail.db
expect_exit 1 mailroom doctor > "$t/doctor-c"
grep -q "mailroom --db '$t/wt-c/.mailroom/mail.db' export | mailroom import -" "$t/doctor-c"
[ "$(mailroom --json config | jq -r .settings.store.value)" = "$shared/mail.db" ]

# Uninstall from a subdirectory removes what install added, at the top.
(cd "$t/wt-a/src/deep" && mailroom hooks uninstall claude > /dev/null)
[ ! -e "$t/wt-a/.claude/settings.json" ]

# Paths mean the same everywhere: ~ in --db and $MAILROOM_DB; init --db records the store.
mkdir "$t/plain" && cd "$t/plain"
MAILROOM_DB='~/env.db' mailroom init > /dev/null
[ -f "$HOME/env.db" ] && [ ! -e "./~" ]
rm mailroom.toml
mailroom --db '~/team/flag.db' init > /dev/null
[ -f "$HOME/team/flag.db" ] && [ ! -e "./~" ]
grep -q '^path = "~/team/flag.db"$' mailroom.toml
[ "$(mailroom --json config | jq -r .settings.store.value)" = "$HOME/team/flag.db" ]
mkdir "$t/pg" && cd "$t/pg"
expect_exit 2 mailroom --db 'postgresql://u:secret@db.example/mail' init 2> "$t/pgerr"
grep -q "pgpass" "$t/pgerr" && not grep -q secret "$t/pgerr"
[ ! -e mailroom.toml ]
