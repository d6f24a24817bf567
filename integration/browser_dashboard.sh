#!/usr/bin/env bash
# integration/browser_dashboard.sh: the dashboard in Debian's chromium against `mailroom serve` on
# SQLite (integration/browser/dashboard.mjs): sign in with the login code, CLI mail live in Team and
# Mailbox, compose, reply, mark read and archive from the page seen by the CLI, a trace as a tree,
# Health, Search, Schedules (pause, run now, cancel), a narrow window, the keyboard. Under the
# sanitizers a smoke subset. Skipped without node >= 20, `make deps` or a tested Chromium.
. "$(dirname "$0")/common.sh"
. "$integration_dir/browser/suite.bash"
mailroom agents add alice bob carol rig/name > /dev/null
start_serve
[ "$MAILROOM_SANITIZED" = 1 ] && export SMOKE=1
run_suite dashboard.mjs
