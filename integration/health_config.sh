#!/usr/bin/env bash
# integration/health_config.sh: [delivery] ack = "never" refuses send --ack naming the setting; a
# bad duration or policy value is exit 2 naming the key and file:line
. "$(dirname "$0")/common.sh"
workspace alice bob
sed -i 's/^ack = "typed"/ack = "never"/' mailroom.toml
expect_exit 2 mailroom --as alice send bob "x" --ack 2> "$t/err"
grep -q '\[delivery\] ack is "never"' "$t/err"
[ "$(mailroom --as bob --json count | jq .total)" = 0 ]
sed -i 's/^ack = "never"/ack = "typed"/' mailroom.toml

bad() { # bad SED-EXPR EXPECTED-TEXT: the edit makes every command exit 2 naming the place
  cp mailroom.toml "$t/good.toml"
  sed -i "$1" mailroom.toml
  expect_exit 2 mailroom --as alice peers 2> "$t/err"
  grep -Eq "$2" "$t/err" || { cat "$t/err" >&2; return 1; }
  cp "$t/good.toml" mailroom.toml
}
bad 's/^stale_after = .*/stale_after = "soon"/' 'mailroom\.toml:[0-9]+:[0-9]+: invalid duration "soon" for delivery\.stale_after'
bad 's/^first_after = .*/first_after = "10 minutes"/' 'mailroom\.toml:[0-9]+:[0-9]+: invalid duration "10 minutes" for delivery\.redelivery\.first_after'
bad 's/^backoff = .*/backoff = 0.5/' 'mailroom\.toml:[0-9]+:[0-9]+: delivery\.redelivery\.backoff must be between 1 and 100'
bad 's/^max_attempts = .*/max_attempts = -1/' 'mailroom\.toml:[0-9]+:[0-9]+: delivery\.redelivery\.max_attempts must be between 0 and 100'
bad 's/^escalate_to = .*/escalate_to = "two words"/' 'mailroom\.toml:[0-9]+:[0-9]+: delivery\.redelivery\.escalate_to "two words" must be "sender" or a mailbox'
bad 's/^enabled = false/enabled = "yes"/' 'mailroom\.toml:[0-9]+:[0-9]+: delivery\.redelivery\.enabled must be true or false'
bad 's/^ack = "typed"/ack = "sometimes"/' 'mailroom\.toml:[0-9]+:[0-9]+: delivery\.ack "sometimes" must be'
expect_exit 2 mailroom sweep --every soon
expect_exit 2 mailroom sweep --every 0
