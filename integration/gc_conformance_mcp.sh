#!/usr/bin/env bash
# integration/gc_conformance_mcp.sh: Gas City's 36 provider conformance cases
# (integration/gc_conformance_cases.bash, from gascity's internal/mail/mailtest/conformance.go)
# through the exec provider on testdata/gc/gc_mail_mcp.sh, a bridge to an mcp_agent_mail server
# as gc's contrib bridge is, with testdata/gc/mcp_agent_mail_curl standing in for the server (as
# gc's own test puts a mock curl in front of its bridge): 36/36 under `[compat] gc`, where gc's
# cases run. A bridge run costs several processes (curl, jq), so the cases run once, under compat;
# unknown ids are exit 5 there (the bridge fails them without gc's not-found marker).
. "$(dirname "$0")/common.sh"
: "${MAILROOM_TESTDATA:?set MAILROOM_TESTDATA to the testdata directory}"
. "$integration_dir/gc_conformance_cases.bash"
command -v jq > /dev/null || skip "jq not installed"
command -v flock > /dev/null || skip "flock (util-linux) not installed"
command -v md5sum > /dev/null || skip "md5sum (coreutils) not installed"
expect_conformance mcp compat-only
