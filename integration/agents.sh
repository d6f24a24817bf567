#!/usr/bin/env bash
# integration/agents.sh: agents add/list/remove; config [agents] names are registered on first use
. "$(dirname "$0")/common.sh"
workspace
mailroom agents add alice rig/bob > "$t/out"
mailroom agents add alice >> "$t/out"
mailroom agents remove alice >> "$t/out"
expect_golden "$t/out"
expect_exit 2 mailroom send alice "x"
expect_exit 2 mailroom agents add 'bad name'
expect_exit 3 mailroom agents remove nobody
sed -i 's/^# names = .*/names = ["mayor", "polecat"]/' mailroom.toml
mailroom send polecat "welcome" > /dev/null
mailroom --json agents | jq -e '[.agents[].name] | (index("mayor") != null) and (index("rig/bob") != null)' > /dev/null
