#!/usr/bin/env bash
# integration/mcp_exec.sh: the MCP tools on the exec provider (testdata/exec/stateful.sh) run the
# same operations as the CLI: a send to several recipients is one script send per recipient (as
# `mailroom send --to A --to B` is), answered with every id; each recipient reads their own copy.
. "$(dirname "$0")/common.sh"
: "${MAILROOM_TESTDATA:?set MAILROOM_TESTDATA to the testdata directory}"
command -v flock > /dev/null || skip "flock (util-linux) not installed"
export MAILROOM_PROVIDER="exec:$MAILROOM_TESTDATA/exec/stateful.sh"
export MAILROOM_EXEC_STATE="$t/state"
mkdir -p "$MAILROOM_EXEC_STATE"

# call AS TOOL ARGS: one tools/call on a fresh server; its input stays open until it answered.
call() {
  local request line
  request=$(jq -cn --arg tool "$2" --argjson args "$3" \
    '{jsonrpc:"2.0",id:1,method:"tools/call",params:{name:$tool,arguments:$args}}')
  coproc MCP { MAILROOM_IDENTITY=$1 "$MAILROOM" mcp 2> "$t/stderr"; }
  printf '%s\n' "$request" >&"${MCP[1]}"
  IFS= read -r -t 30 line <&"${MCP[0]}" || true
  eval "exec ${MCP[1]}>&-"
  wait "$MCP_PID"
  printf '%s\n' "$line"
}

call alice send '{"to":["bob","carol"],"subject":"both","body":"one each"}' > "$t/send"
jq -e '.result.isError != true' "$t/send" > /dev/null || { cat "$t/send" "$t/stderr" >&2; exit 1; }
jq -e '.result.structuredContent | .ok and (.ids | length) == 2 and .recipients == ["bob","carol"]
  and .mailbox == "alice" and .id == .ids[0]' "$t/send" > /dev/null || { cat "$t/send" >&2; exit 1; }
jq -r '.result.content[0].text' "$t/send" > "$t/text"
[ "$(grep -c '^Sent message .* to \(bob\|carol\)$' "$t/text")" = 2 ] || { cat "$t/text" >&2; exit 1; }

# The CLI says the same of the same send.
mailroom --as alice --json send --to bob --to carol -s both -m "one each" |
  jq -e '(.ids | length) == 2 and .recipients == ["bob","carol"]' > /dev/null

for who in bob carol; do
  [ "$(mailroom --as "$who" count)" = "2 total, 2 unread for $who" ]
  call "$who" inbox '{}' | jq -e --arg who "$who" '.result.structuredContent |
    .mailbox == $who and (.messages | length) == 2 and all(.messages[]; .to == [$who])' > /dev/null
done
