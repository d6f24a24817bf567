#!/usr/bin/env bash
# integration/wait_read_once.sh: `wait --read` takes a message once. Two or three waiters racing
# for the same mail each get a different message, never the same one (0 double reads); a waiter
# that loses a race waits on for the next message. With --reply-to the reply is returned whether
# or not another waiter marked it read. The rounds live in wait_read_once.bash (shared with the
# PostgreSQL script).
. "$(dirname "$0")/common.sh"
. "$integration_dir/wait_read_once.bash"
mailroom agents add alice bob > /dev/null
race_rounds
