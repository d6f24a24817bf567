#!/usr/bin/env bash
# integration/worktrees.sh: every git worktree of a repository shares the main worktree's store
. "$(dirname "$0")/common.sh"
command -v git > /dev/null || skip "git is not installed"
workspace mayor polecat
git init -q . && git -c user.email=t@t -c user.name=t add mailroom.toml
git -c user.email=t@t -c user.name=t commit -qm "workspace"
[ "$(git status --porcelain)" = "" ] # .mailroom/ is ignored by its own .gitignore
git worktree add -q "$t/wt" 2> /dev/null
cd "$t/wt"
[ -f mailroom.toml ] && [ ! -e .mailroom ]
mailroom config > "$t/config"
grep -q "^store .*$t/work/.mailroom/mail.db" "$t/config"
grep -q "main worktree" "$t/config"
# Mail sent from the worktree reaches the agents of the main checkout, and back.
id=$(mailroom --as mayor --json send polecat "from the worktree" | jq -r .id)
[ ! -e .mailroom ]
(cd "$t/work" && [ "$(mailroom --as polecat --json inbox | jq -r '.messages[0].id')" = "$id" ])
(cd "$t/work" && mailroom --as polecat reply "$id" "seen" > /dev/null)
[ "$(mailroom --as mayor --json count | jq .unread)" = 1 ]
# The hook path finds the same store: the reply is in mayor's reminder, and nothing is created.
MAILROOM_IDENTITY=mayor mailroom check --inject > "$t/reminder"
grep -q "seen" "$t/reminder"
[ ! -e .mailroom ]
