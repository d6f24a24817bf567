#!/usr/bin/env bash
# mailroom testdata: a Gas City exec mail script that bridges to an mcp_agent_mail server over its
# HTTP MCP API with curl and jq, behaving as gascity's contrib/mail-scripts/gc-mail-mcp-agent-mail
# does (written for mailroom's tests; gc's conformance test runs its bridge against a mock curl,
# and so do mailroom's, with testdata/gc/mcp_agent_mail_curl). What a gc user of that bridge sees:
#
#   - mcp_agent_mail wants agent names of the form AdjectiveNoun: each gc name maps to one by a
#     hash, kept in a name cache; the server answers with numeric ids;
#   - the server has no read, archive or thread: read and archived are kept here per message (its
#     acknowledge is sent too), and so are thread ids and reply-to; fetch_inbox lists every message
#     of an agent, so get, read and reply find a message through the inbox of its recipient, which
#     this bridge must have seen (a send, an inbox, a check or a count);
#   - ids that are not numbers fail with "invalid message ID" (exit 1) and unknown numbers with
#     "message N not found" (exit 1): no gc-mail-error:not-found marker;
#   - messages carry no `read` key; a send without a subject uses the body as its subject;
#   - `all`, `unarchive` and anything else exit 2; ensure-running checks the server.
#
# Environment: GC_MCP_MAIL_URL (default http://127.0.0.1:8765), GC_MCP_MAIL_TOKEN (a bearer token),
# GC_MCP_MAIL_PROJECT (default the working directory), GC_MCP_MAIL_CACHE (default
# ${TMPDIR:-/tmp}/gc-mcp-mail-cache): the local state lives in <cache>/<hash of the project>.
set -euo pipefail

server=${GC_MCP_MAIL_URL:-http://127.0.0.1:8765}
project=${GC_MCP_MAIL_PROJECT:-$(pwd)}
cache=${GC_MCP_MAIL_CACHE:-${TMPDIR:-/tmp}/gc-mcp-mail-cache}/$(printf '%s' "$project" | md5sum | cut -c1-32)
mkdir -p "$cache/names" "$cache/tokens" "$cache/recipient" "$cache/local" "$cache/thread" "$cache/parent"

fail() {
  printf '%s\n' "$*" >&2
  exit 1
}

# tool NAME ARGS_JSON: the text content of a tools/call result; a JSON-RPC error fails.
tool() {
  local auth=() reply
  if [ -n "${GC_MCP_MAIL_TOKEN:-}" ]; then auth=(-H "Authorization: Bearer $GC_MCP_MAIL_TOKEN"); fi
  reply=$(curl -s -X POST "$server/mcp" -H 'Content-Type: application/json' ${auth[@]+"${auth[@]}"} \
    -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"$1\",\"arguments\":$2}}" |
    jq -r 'if .error then "!" + (.error | tojson) else (.result.content[0].text // "") end')
  [ "${reply:0:1}" != '!' ] || fail "mcp_agent_mail error: ${reply:1}"
  printf '%s\n' "$reply"
}

adjectives=(Amber Brisk Cedar Dusky Early Fallow Gilded Hollow Ivory Jolly Keen Lunar Mellow Nimble
  Olive Plain Quiet Rustic Silver Tawny Umber Velvet Wintry Young Zesty Autumn Bright Coral Dapple Ember)
nouns=(Anchor Badger Comet Delta Falcon Garnet Harbor Island Juniper Kestrel Lantern Meadow Nettle
  Orchard Pebble Quarry Raven Spruce Thicket Upland Valley Willow Yarrow Zephyr Beacon Canyon Dune Fern Grove Heron)

# mcp_name NAME: the AdjectiveNoun that gc name NAME is known by (kept once chosen).
mcp_name() {
  local file="$cache/names/$1"
  if [ ! -f "$file" ]; then
    local h
    h=$(printf '%s' "$1" | md5sum)
    mkdir -p "$(dirname "$file")"
    printf '%s%s' "${adjectives[$((16#${h:0:8} % ${#adjectives[@]}))]}" "${nouns[$((16#${h:8:8} % ${#nouns[@]}))]}" > "$file"
  fi
  cat "$file"
}

# gc_names: {"AdjectiveNoun": "gc name", ...} of every name this bridge has mapped (names and
# the words are plain characters: no JSON escaping needed).
gc_names() {
  local f map='{'
  while IFS= read -r f; do
    map+="\"$(cat "$f")\":\"${f#"$cache/names/"}\","
  done < <(find "$cache/names" -type f)
  printf '%s}' "${map%,}"
}

# register NAME: registers NAME's agent (once per bridge) and keeps its token.
register() {
  local file="$cache/tokens/$1"
  [ -s "$file" ] && return 0
  mkdir -p "$(dirname "$file")"
  tool register_agent "$(jq -cn --arg p "$project" --arg n "$(mcp_name "$1")" '{project_key: $p, name: $n, program: "gc", model: "agent"}')" |
    jq -r '.registration_token // empty' > "$file"
}

token() { cat "$cache/tokens/$1"; }

# inbox_of NAME: every message the server holds for NAME (a JSON array).
inbox_of() {
  register "$1"
  tool fetch_inbox "$(jq -cn --arg p "$project" --arg n "$(mcp_name "$1")" --arg t "$(token "$1")" \
    '{project_key: $p, agent_name: $n, include_bodies: true, registration_token: $t}')"
}

# as_gc JSON_ARRAY TO: the server's messages in gc's shape, addressed to gc name TO.
as_gc() {
  local id threads='{' parents='{'
  for id in $(jq -r '.[].id' <<< "$1"); do
    [ ! -f "$cache/thread/$id" ] || threads+="\"$id\":\"$(cat "$cache/thread/$id")\","
    [ ! -f "$cache/parent/$id" ] || parents+="\"$id\":\"$(cat "$cache/parent/$id")\","
  done
  jq -c --arg to "$2" --argjson names "$(gc_names)" --argjson threads "${threads%,}}" --argjson parents "${parents%,}}" \
    'map((.id | tostring) as $id | {id: $id, from: ($names[.from] // .from), to: $to, subject: (.subject // ""),
      body: (.body_md // .subject // ""), created_at: .created_ts, thread_id: ($threads[$id] // ""),
      reply_to: ($parents[$id] // "")})' <<< "$1"
}

# numeric ID: fails unless ID is a server id.
numeric() {
  [[ $1 =~ ^[0-9]+$ ]] || fail "invalid message ID: $1"
}

# message ID: the message as gc sees it, found through its recipient's inbox.
message() {
  numeric "$1"
  [ -f "$cache/recipient/$1" ] || fail "no cached recipient for message $1"
  local to all
  to=$(cat "$cache/recipient/$1")
  all=$(inbox_of "$to" | jq -c --argjson id "$1" 'map(select(.id == $id))')
  [ "$(jq length <<< "$all")" = 1 ] || fail "message $1 not found"
  as_gc "$all" "$to" | jq -c '.[0]'
}

# acknowledge ID: tells the server, as the recipient, that the message was handled.
acknowledge() {
  local to
  to=$(cat "$cache/recipient/$1")
  tool acknowledge_message "$(jq -cn --arg p "$project" --arg n "$(mcp_name "$to")" --arg t "$(token "$to")" --argjson id "$1" \
    '{project_key: $p, agent_name: $n, message_id: $id, registration_token: $t}')" > /dev/null
}

# post FROM TO SUBJECT BODY THREAD PARENT: sends, keeps what the server does not, prints the message.
post() {
  register "$1"
  register "$2"
  local sent id thread
  sent=$(tool send_message "$(jq -cn --arg p "$project" --arg f "$(mcp_name "$1")" --arg to "$(mcp_name "$2")" \
    --arg s "${3:-$4}" --arg b "$4" --arg t "$(token "$1")" \
    '{project_key: $p, sender_name: $f, to: [$to], subject: $s, body_md: $b, sender_token: $t}')")
  id=$(jq -r '.deliveries[0].payload.id' <<< "$sent")
  printf '%s' "$2" > "$cache/recipient/$id"
  thread=${5:-thread-$(printf '%s' "$id-$1-$2" | md5sum | cut -c1-12)}
  printf '%s' "$thread" > "$cache/thread/$id"
  [ -z "$6" ] || printf '%s' "$6" > "$cache/parent/$id"
  as_gc "$(jq -c '[.deliveries[0].payload]' <<< "$sent")" "$2" | jq -c '.[0]'
}

# unhandled NAME: NAME's messages that this bridge has neither read nor archived, in gc's shape.
unhandled() {
  local all id
  all=$(inbox_of "$1")
  for id in $(jq -r '.[].id' <<< "$all"); do
    printf '%s' "$1" > "$cache/recipient/$id"
    [ ! -f "$cache/local/$id" ] || all=$(jq -c --argjson id "$id" 'map(select(.id != $id))' <<< "$all")
  done
  as_gc "$all" "$1"
}

op=${1:-}
arg=${2:-}
case $op in
  ensure-running)
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$server/health/liveness" || echo 000)" != 000 ] ||
      fail "mcp_agent_mail not reachable at $server"
    tool ensure_project "$(jq -cn --arg k "$project" '{human_key: $k}')" > /dev/null || true
    ;;
  send)
    input=$(cat)
    post "$(jq -r '.from' <<< "$input")" "$arg" "$(jq -r '.subject // ""' <<< "$input")" "$(jq -r '.body // ""' <<< "$input")" "" ""
    ;;
  reply)
    input=$(cat)
    original=$(message "$arg")
    post "$(jq -r '.from' <<< "$input")" "$(jq -r '.from' <<< "$original")" "$(jq -r '.subject // ""' <<< "$input")" \
      "$(jq -r '.body // ""' <<< "$input")" "$(jq -r '.thread_id' <<< "$original")" "$arg"
    ;;
  inbox | check)
    list=$(unhandled "$arg")
    [ "$list" = '[]' ] || printf '%s\n' "$list"
    ;;
  count)
    all=$(inbox_of "$arg")
    total=0
    unread=0
    for id in $(jq -r '.[].id' <<< "$all"); do
      printf '%s' "$arg" > "$cache/recipient/$id"
      local_state=$(cat "$cache/local/$id" 2> /dev/null || true)
      [ "$local_state" = archived ] && continue
      total=$((total + 1))
      [ -n "$local_state" ] || unread=$((unread + 1))
    done
    printf '{"total":%s,"unread":%s}\n' "$total" "$unread"
    ;;
  get) message "$arg" ;;
  read)
    message "$arg"
    printf read > "$cache/local/$arg"
    acknowledge "$arg" || true
    ;;
  mark-read)
    numeric "$arg"
    printf read > "$cache/local/$arg"
    [ ! -f "$cache/recipient/$arg" ] || acknowledge "$arg" || true
    ;;
  mark-unread)
    numeric "$arg"
    rm -f "$cache/local/$arg" # the server has no un-acknowledge: local only
    ;;
  archive | delete)
    numeric "$arg"
    [ -f "$cache/recipient/$arg" ] || fail "no cached recipient for message $arg"
    [ "$(cat "$cache/local/$arg" 2> /dev/null || true)" != archived ] || fail "already archived"
    printf archived > "$cache/local/$arg"
    acknowledge "$arg"
    ;;
  thread)
    found='[]'
    for file in "$cache"/thread/*; do
      [ -f "$file" ] && [ "$(cat "$file")" = "$arg" ] || continue
      id=${file##*/}
      [ -f "$cache/recipient/$id" ] || continue
      one=$(message "$id" 2> /dev/null) || continue
      found=$(jq -c --argjson m "$one" '. + [$m]' <<< "$found")
    done
    [ "$found" = '[]' ] || printf '%s\n' "$found"
    ;;
  *) exit 2 ;; # unknown operation
esac
