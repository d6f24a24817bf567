#!/usr/bin/env bash
# integration/exec_one_process.sh: through the exec provider a command runs the script once — no
# `capabilities` probe on count, check, inbox or read, and an ensure-running that answered exit 2
# is not run again — because what the script said is kept in $XDG_CACHE_HOME/mailroom/
# exec-capabilities.json, keyed by the script file; editing the script forgets it.
. "$(dirname "$0")/common.sh"
: "${MAILROOM_TESTDATA:?set MAILROOM_TESTDATA to the testdata directory}"
export MAILROOM_EXEC_STATE="$t/state"
mkdir -p "$MAILROOM_EXEC_STATE"
# A copy, so the test can edit it.
cp "$MAILROOM_TESTDATA/exec/echo_stdin.sh" "$t/mail-script"
export MAILROOM_PROVIDER="exec:$t/mail-script"
cache="$XDG_CACHE_HOME/mailroom/exec-capabilities.json"
calls() { cat "$MAILROOM_EXEC_STATE/calls"; }

[ "$(mailroom --as bob count)" = "3 total, 1 unread for bob" ]
[ "$(calls)" = "$(printf 'ensure-running\ncount bob')" ]
[ -f "$cache" ]
[ "$(stat -c %a "$(dirname "$cache")")" = 700 ]

: > "$MAILROOM_EXEC_STATE/calls"
mailroom --as bob count > /dev/null
mailroom --as bob check > /dev/null
mailroom --as bob inbox > /dev/null
mailroom --as bob read gc-1 > /dev/null
[ "$(calls)" = "$(printf 'count bob\ncheck bob\ninbox bob\nget gc-1\nmark-read gc-1')" ]

# Nothing is written in the steady state.
before=$(stat -c %y "$cache")
mailroom --as bob count > /dev/null
[ "$(stat -c %y "$cache")" = "$before" ]

# An edited script is a new script: ensure-running is asked again.
printf '# edited\n' >> "$t/mail-script"
: > "$MAILROOM_EXEC_STATE/calls"
mailroom --as bob count > /dev/null
[ "$(calls)" = "$(printf 'ensure-running\ncount bob')" ]

# A cache that cannot be written costs nothing but the relearning.
rm -rf "$XDG_CACHE_HOME"
printf 'not a directory' > "$XDG_CACHE_HOME"
: > "$MAILROOM_EXEC_STATE/calls"
[ "$(mailroom --as bob count)" = "3 total, 1 unread for bob" ]
[ "$(mailroom --as bob count)" = "3 total, 1 unread for bob" ]
[ "$(calls)" = "$(printf 'ensure-running\ncount bob\nensure-running\ncount bob')" ]
