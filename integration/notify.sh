#!/usr/bin/env bash
# integration/notify.sh: --notify runs the [notify] argv after the send; none configured is a warning
# shellcheck disable=SC2016 # single quotes keep the hostile text literal on purpose
. "$(dirname "$0")/common.sh"
workspace bob
mailroom send bob "hi" --notify 2> "$t/err" > /dev/null
grep -q 'warning: no notify command configured' "$t/err"
cat > "$t/notify.sh" <<SH
#!/bin/sh
printf '%s|' "\$@" > "$t/notified"
SH
chmod +x "$t/notify.sh"
sed -i "s|^# command = .*|command = [\"$t/notify.sh\", \"{to}\", \"{from}\", \"{subject}\"]|" mailroom.toml
id=$(send_id bob -s 'a $(b) {id}' -m "x" --notify)
[ "$(cat "$t/notified")" = 'bob|human|a $(b) {id}|' ]
[ -n "$id" ]
# {to} in the argv with several recipients: one run per recipient (tmux send-keys -t {to}).
mailroom agents add carol dave > /dev/null
cat > "$t/each.sh" <<SH
#!/bin/sh
echo "\$1" >> "$t/each"
SH
chmod +x "$t/each.sh"
sed -i "s|^command = .*|command = [\"$t/each.sh\", \"{to}\"]|" mailroom.toml
mailroom send --to bob --to carol --to dave -s all -m x --notify > /dev/null
[ "$(sort "$t/each" | tr '\n' ' ')" = "bob carol dave " ]
