#!/usr/bin/env bash
# integration/import_hostile_ids.sh: an imported id outside the id grammar (one that a command line
# would read as an option, a path, several words or a terminal control) is exit 2 naming its line,
# and nothing from the file is stored. An imported "--all" once made `mark-read <that id>` mark
# every message read.
. "$(dirname "$0")/common.sh"
workspace alice bob
for i in 1 2 3; do mailroom --as alice send bob -s "real $i" -m x -q; done
before=$(mailroom export | tail -n +2)

# One message and its delivery, with the id (or another id field) given as the first argument.
export_with() { # id thread reply_to
  jq -cn --arg id "$1" --arg thread "$2" --argjson reply "$3" '
    {kind:"header",schema_version:1,exported_at:"2026-11-23T10:00:00.000Z",store:"x"},
    {kind:"message",id:$id,from:"alice",to:["bob"],cc:[],addressed_to:["bob"],subject:"hi",body:"b",
     created_at:"2026-11-26T10:00:00.000Z",thread_id:$thread,reply_to:$reply,priority:2,type:"message",
     trace_id:"00000000000000000000000000000001",span_id:"0000000000000001",parent_span_id:null,
     expires_at:null,sender_uid:0,sender_host:"h"},
    {kind:"delivery",message:$id,recipient:"bob",role:"to",delivered_at:"2026-11-26T10:00:00.000Z",
     read_at:null,archived_at:null,ack_state:"none",acked_at:null,attempts:0,last_attempt_at:null,
     next_attempt_at:null,acted_by:null,handler_attempts:0,retry_at:null,set_aside_at:null}'
}

esc=$(printf 'mr-\033[31mred')
for bad in --all -rf ../../x 'a b' "$esc" .hidden a/b '' "$(printf 'mr-1\nx')"; do
  export_with "$bad" thread-000000000001 null > "$t/ids.jsonl"
  expect_exit 2 mailroom import "$t/ids.jsonl" 2> "$t/err"
  grep -q "^mailroom import: $t/ids.jsonl:2: message record: \"id\" is not an id" "$t/err" || { cat "$t/err" >&2; exit 1; }
  # The message would be line 2; a delivery naming such an id is refused on its own line too.
  export_with "mr-00000000000000a1" "$bad" null > "$t/thread.jsonl"
  expect_exit 2 mailroom import "$t/thread.jsonl" 2> "$t/err"
  grep -q ':2: message record: "thread_id" is not an id' "$t/err"
  export_with "mr-00000000000000a1" thread-000000000001 "$(jq -n --arg r "$bad" '$r')" > "$t/reply.jsonl"
  expect_exit 2 mailroom import "$t/reply.jsonl" 2> "$t/err"
  grep -q ':2: message record: "reply_to" is not an id' "$t/err"
  [ "$(mailroom export | tail -n +2)" = "$before" ]
done
# No terminal control reaches stderr from an echoed id.
export_with "$esc" thread-000000000001 null > "$t/ids.jsonl"
mailroom import "$t/ids.jsonl" 2> "$t/err" || true
not grep -q $'\033' "$t/err"

# A good file with one bad delivery later on: nothing of it is stored.
export_with "mr-00000000000000a2" thread-000000000001 null > "$t/mixed.jsonl"
export_with "--all" thread-000000000001 null | tail -n 1 >> "$t/mixed.jsonl"
expect_exit 2 mailroom import "$t/mixed.jsonl" 2> "$t/err"
grep -q ':4: delivery record: "message" is not an id' "$t/err"
[ "$(mailroom export | tail -n +2)" = "$before" ]

# Foreign ids that fit the grammar (Gas City's) import, and commands take them as ids.
export_with "gc-42" thread-000000000001 null > "$t/gc.jsonl"
mailroom import "$t/gc.jsonl" > /dev/null
mailroom --as bob mark-read gc-42 > /dev/null
[ "$(mailroom --as bob --json count | jq .unread)" -eq 3 ]
