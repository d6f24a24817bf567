#!/usr/bin/env bash
# integration/waiters_idle_cpu.sh: waiting costs nothing on the bead store. An idle `watch --exec`,
# `wait` and `send --wait-reply` side by side stay idle: nothing one of them does to the store
# (a watcher's empty claim transaction used to restart the WAL) wakes itself or another. An `mcp`
# subscribed to its inbox in both eras sleeps too.
. "$(dirname "$0")/common.sh"
. "$integration_dir/idle_cpu.bash"
mailroom agents add alice bob worker > /dev/null
idle_waiters_check
idle_subscribed_mcp_check
