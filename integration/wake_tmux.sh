#!/usr/bin/env bash
# integration/wake_tmux.sh: an urgent send types one line into the recipient's idle tmux pane (a
# real tmux on a private socket, `cat` standing in for the agent); nothing while the pane's command
# is not an agent command or the pane is busy; not twice within the cooldown; not for mail read
# before the wake ran.
. "$(dirname "$0")/common.sh"
command -v tmux > /dev/null || skip "tmux is not installed"
workspace bob carol dave erin frank
mailroom agents set --help 2>&1 | grep -q -- '--wake' || skip "this mailroom has no 'agents set --wake'"

sock="$t/tmux.sock"
trap 'status=$?; tmux -S "$sock" kill-server 2> /dev/null || true
if [ -z "${KEEP:-}" ] && [ "$status" -eq 0 ]; then rm -rf "$t"; fi' EXIT

# `cat` and `sh` are the agents here; a pane must be quiet for 2 s; the cooldown is the default 60 s.
wake_settings='idle_after = "2s"\nagent_commands = ["cat", "sh"]'
if grep -q '^\[wake\]' mailroom.toml; then
  sed -i "s/^\[wake\]\$/[wake]\n$wake_settings/" mailroom.toml
else
  printf '\n[wake]\n%b\n' "$wake_settings" >> mailroom.toml
fi

tmux_() { tmux -S "$sock" "$@"; }
# One window per mailbox: tmux 3.3a judges idleness per window.
tmux_ -f /dev/null new-session -d -x 120 -y 30 -s agents -n bob cat
tmux_ new-window -t agents -n carol sleep 600
tmux_ new-window -t agents -n dave sh -c 'while :; do echo working; sleep 0.2; done'
tmux_ new-window -t agents -n erin cat
tmux_ new-window -t agents -n frank cat
for name in bob carol dave erin frank; do
  mailroom agents set "$name" --wake "tmux:agents:$name" -S "$sock" > /dev/null
done
mailroom agents list | grep -q 'tmux:agents:bob'

# lines NAME: how many rows of NAME's pane hold the wake line (cat shows a submitted line twice:
# the terminal's echo, then cat's own output).
lines() { tmux_ capture-pane -p -t "agents:$1" | grep -c 'You have mail' || true; }
# settle NAME N: waits up to 10 s for N such rows.
settle() {
  for _ in $(seq 1 100); do
    [ "$(lines "$1")" -ge "$2" ] && return 0
    sleep 0.1
  done
  echo "agents:$1 shows $(lines "$1") wake rows, not $2" >&2
  return 1
}
sleep 2.5 # every pane idle for idle_after (dave's never is)

# An urgent send to an idle agent: one line, submitted.
mailroom send bob --urgent -s "prod is down" -m "look" > /dev/null
settle bob 2
# A second urgent send within the cooldown: no second line.
mailroom send bob --urgent -s "still down" -m "look" > /dev/null
sleep 3
[ "$(lines bob)" -eq 2 ]

# Not the agent command (sleep), and busy (output every 0.2 s): nothing typed.
mailroom send carol --urgent -s "s" -m "b" > /dev/null
mailroom send dave --urgent -s "s" -m "b" > /dev/null
sleep 3
[ "$(lines carol)" -eq 0 ]
[ "$(lines dave)" -eq 0 ]

# Mail read before its wake ran is never announced: erin's and frank's hooks ran just now, so both
# wakes are deferred for idle_after; erin reads hers meanwhile, frank does not.
mailroom --as erin check --inject > /dev/null || true
mailroom --as frank check --inject > /dev/null || true
id=$(send_id erin --urgent -s "read me" -m "b")
send_id frank --urgent -s "read me" -m "b" > /dev/null
mailroom --as erin read "$id" > /dev/null
sleep 2.5 # past idle_after since the hooks ran: both wakes are due
mailroom wake-run > /dev/null # one wake pass, as serve, sweep --every and run-due --loop run them
settle frank 2
[ "$(lines erin)" -eq 0 ]
