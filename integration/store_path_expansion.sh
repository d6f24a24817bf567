#!/usr/bin/env bash
# integration/store_path_expansion.sh: ~, $HOME and ${VAR} in [store] path; an undefined variable is exit 2
. "$(dirname "$0")/common.sh"
unset MAILROOM_DB
cat > mailroom.toml <<'TOML'
[store]
path = "~/team/mail.db"
TOML
mailroom init > /dev/null
[ -f "$HOME/team/mail.db" ] && [ ! -e "./~" ]
mailroom agents add mayor > /dev/null
mailroom config | grep "^store .*$HOME/team/mail.db" > /dev/null
sed -i 's|^path = .*|path = "${TEAM_DIR}/mail.db"|' mailroom.toml
expect_exit 2 mailroom --as mayor count 2> "$t/err"
grep -q 'TEAM_DIR' "$t/err"
mkdir -p "$t/team2"
TEAM_DIR="$t/team2" mailroom init > /dev/null
[ -f "$t/team2/mail.db" ]
sed -i 's|^path = .*|path = "$HOME/team/mail.db"|' mailroom.toml
[ "$(mailroom --as mayor --json count | jq .total)" = 0 ]
# A dangling mailroom.toml symlink is an error naming it, never a silent fall back.
mkdir "$t/dangling" && ln -s "$t/nowhere.toml" "$t/dangling/mailroom.toml"
(cd "$t/dangling" && expect_exit 2 mailroom count 2> "$t/err2")
grep -q "mailroom.toml is a symbolic link to a file that does not exist" "$t/err2"
