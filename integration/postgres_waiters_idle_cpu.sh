#!/usr/bin/env bash
# integration/postgres_waiters_idle_cpu.sh: waiters_idle_cpu.sh on the PostgreSQL store: an idle
# `watch --exec`, `wait` and `send --wait-reply` side by side stay idle, and so does a subscribed `mcp`.
. "$(dirname "$0")/common.sh"
. "$integration_dir/pg_common.bash"
. "$integration_dir/idle_cpu.bash"
mailroom init > /dev/null
mailroom agents add alice bob worker > /dev/null
idle_waiters_check
idle_subscribed_mcp_check
