#!/usr/bin/env bash
# integration/gc_conformance_store.sh: Gas City's 36 provider conformance cases
# (integration/gc_conformance_cases.bash, from gascity's internal/mail/mailtest/conformance.go)
# on mailroom's own store: 36/36 under `[compat] gc`, 34/36 without (Thread_Empty is exit 3, Count_EmptyInbox exit 2).
. "$(dirname "$0")/common.sh"
: "${MAILROOM_TESTDATA:?set MAILROOM_TESTDATA to the testdata directory}"
. "$integration_dir/gc_conformance_cases.bash"
command -v jq > /dev/null || skip "jq not installed"
expect_conformance store
