#!/usr/bin/env bash
# integration/deep_json.sh: JSON nested 100,000 deep (a ~700 KB line) reaches every surface that
# parses JSON, and none dies: `mailroom mcp` answers -32600 naming its 64-level bound (with the
# request's id) and goes on serving; `serve` answers the POST (no crash, then still answers); and
# `import` of such a line is exit 2 naming the line, storing nothing.
. "$(dirname "$0")/common.sh"
. "$integration_dir/serve_common.bash"
mailroom agents add alice bob > /dev/null
depth=100000
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && depth=20000
nest() { # nest OPEN CLOSE INNER: INNER inside $depth pairs
  python3 -c 'import sys; d = int(sys.argv[1]); sys.stdout.write(sys.argv[2] * d + sys.argv[4] + sys.argv[3] * d)' \
    "$depth" "$1" "$2" "$3"
}
objects=$(nest '{"a":' '}' 1)
arrays=$(nest '[' ']' '"x"')

# mcp: a deep ping, a deep tool argument, a notification and a request nested just at the bound.
at_bound=$(python3 -c 'import sys; d = 62; sys.stdout.write("{\"a\":" * d + "1" + "}" * d)')
{
  printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
  printf '{"jsonrpc":"2.0","id":2,"method":"ping","params":%s}\n' "$objects"
  printf '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"send","arguments":{"to":"bob","body":"x","type":%s}}}\n' "$arrays"
  printf '{"jsonrpc":"2.0","method":"notifications/progress","params":%s}\n' "$objects"
  printf '%s\n' "$arrays"
  printf '{"jsonrpc":"2.0","id":4,"method":"ping","params":{"x":%s}}\n' "$at_bound"
  printf '%s\n' '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"count","arguments":{}}}'
} > "$t/in.jsonl"
# Input stays open until the six answers are in (end of input would cancel the tool call).
coproc MCP { MAILROOM_IDENTITY=alice exec "$MAILROOM" mcp 2> "$t/mcp.err"; }
mcp_pid=$MCP_PID
cat "$t/in.jsonl" >&"${MCP[1]}"
: > "$t/out.jsonl"
for _ in 1 2 3 4 5 6; do # 1, 2, 3, the bare array (id null), 4, 5; the notification none
  IFS= read -r -t 60 line <&"${MCP[0]}" || { echo "mcp stopped answering" >&2; cat "$t/mcp.err" >&2; exit 1; }
  printf '%s\n' "$line" >> "$t/out.jsonl"
done
exec {MCP[1]}>&-
rc=0
wait "$mcp_pid" || rc=$?
[ "$rc" -eq 0 ] || { echo "mcp exited $rc" >&2; cat "$t/mcp.err" >&2; exit 1; }
answer() { jq -se --argjson id "$1" "map(select(.id == \$id))[0] | $2" "$t/out.jsonl" > /dev/null; }
for id in 2 3 null; do
  answer "$id" '.error.code == -32600 and (.error.message | test("deeper than 64"))'
done
answer 4 '.result == {}'
answer 5 '.result.structuredContent.mailbox == "alice"'
[ "$(mailroom --as bob count --json | jq .total)" -eq 0 ] # the deep send stored nothing

# serve: a deep POST body is refused or answered, and the server goes on.
serve_start
printf '{"to":["bob"],"body":"x","subject":%s}' "$objects" > "$t/deep.json"
code=$(api POST /api/v1/messages -H 'Content-Type: application/json' --data-binary @"$t/deep.json")
[ "$code" -ge 400 ] && [ "$code" -lt 500 ]
printf '%s' "$arrays" > "$t/deep.json"
code=$(api POST /api/v1/messages -H 'Content-Type: application/json' --data-binary @"$t/deep.json")
[ "$code" -ge 400 ] && [ "$code" -lt 500 ]
kill -0 "$serve_pid"
expect_status 200 GET /api/v1/team
serve_stop
[ "$(mailroom --as bob count --json | jq .total)" -eq 0 ]

# import: a deep line is a usage error naming it; nothing is stored.
mailroom --as alice send bob -s kept -m x > /dev/null
mailroom export > "$t/good.jsonl"
other="$t/other.db"
mkdir -p "$t/other" && (cd "$t/other" && MAILROOM_DB="$other" "$MAILROOM" init > /dev/null)
empty=$(MAILROOM_DB="$other" "$MAILROOM" export | tail -n +2)
{ head -n 1 "$t/good.jsonl"; printf '%s\n' "$objects"; tail -n +2 "$t/good.jsonl"; } > "$t/deep.jsonl"
expect_exit 2 env MAILROOM_DB="$other" "$MAILROOM" import "$t/deep.jsonl" 2> "$t/err"
grep -q "deep.jsonl:2:" "$t/err"
[ "$(MAILROOM_DB="$other" "$MAILROOM" export | tail -n +2)" = "$empty" ]
