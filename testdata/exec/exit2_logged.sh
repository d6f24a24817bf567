#!/bin/sh
# mailroom testdata: a stateless gc script that implements nothing (every op exits 2, as
# exit2_everywhere.sh) and records every call in $MAILROOM_EXEC_STATE/calls, so a test can count
# the `capabilities` probes an ambiguous exit 2 costs.
printf '%s\n' "$*" >> "${MAILROOM_EXEC_STATE:-.}/calls"
exit 2
