#!/usr/bin/env bash
# integration/gc_conformance_mcp.sh: Gas City's 36 provider conformance cases
# (integration/gc_conformance_cases.bash, from gascity's internal/mail/mailtest/conformance.go)
# through the exec provider on testdata/gc/gc_mail_mcp.sh, a bridge to an mcp_agent_mail server
# as gc's contrib bridge is, with testdata/gc/mcp_agent_mail_curl standing in for the server (as
# gc's own test puts a mock curl in front of its bridge): 36/36 under `[compat] gc`, where gc's
# cases run. A bridge run costs several processes (curl, jq), so the cases run once, under compat;
# unknown ids are exit 5 there (the bridge fails them without gc's not-found marker). A case costs
# about 6 s on this path, so by default every ninth case runs, with the four ArchiveMany_* and
# Thread_Empty (about a minute); MAILROOM_GC_MCP_ALL=1 runs all 36.
. "$(dirname "$0")/common.sh"
: "${MAILROOM_TESTDATA:?set MAILROOM_TESTDATA to the testdata directory}"
. "$integration_dir/gc_conformance_cases.bash"
command -v jq > /dev/null || skip "jq not installed"
command -v flock > /dev/null || skip "flock (util-linux) not installed"
command -v md5sum > /dev/null || skip "md5sum (coreutils) not installed"
if [ "${MAILROOM_GC_MCP_ALL:-0}" != 1 ]; then
  some=()
  for i in "${!gc_selected[@]}"; do
    case "${gc_selected[$i]}" in
      ArchiveMany_* | Thread_Empty) some+=("${gc_selected[$i]}") ;;
      *) [ $((i % 9)) -ne 0 ] || some+=("${gc_selected[$i]}") ;;
    esac
  done
  gc_selected=("${some[@]}")
fi
expect_conformance mcp compat-only
