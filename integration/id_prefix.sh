#!/usr/bin/env bash
# integration/id_prefix.sh: any unique prefix of 4+ characters stands for a message id; an
# ambiguous one is exit 2 listing the candidates
. "$(dirname "$0")/common.sh"
workspace alice bob
# Two messages whose ids share a prefix, through an import.
id=$(send_id --as alice bob -s twin -m "twin body")
mailroom export | jq -c --arg id "$id" '
  if (.kind == "message" or .kind == "delivery") and (.id == $id or .message == $id)
  then ., (if .kind == "message" then .id = "mr-abcd000000000002" else .message = "mr-abcd000000000002" end)
  else . end' |
  sed -e "s/$id/mr-abcd000000000001/g" > "$t/twins.jsonl"
export MAILROOM_DB="$t/twins.db"
mkdir -p "$t/twins" && (cd "$t/twins" && "$MAILROOM" init > /dev/null)
mailroom import "$t/twins.jsonl" > /dev/null

mailroom --as bob peek abcd000000000002 | grep -q '^ID:.*mr-abcd000000000002'
mailroom --as bob read mr-abcd000000000001 > /dev/null
expect_exit 2 mailroom --as bob peek abcd 2> "$t/err"
grep -q 'id prefix "abcd" matches several messages' "$t/err"
grep -qx 'candidates: mr-abcd000000000001, mr-abcd000000000002' "$t/err"
# Fewer than 4 characters is "too short", not "not found".
expect_exit 2 mailroom --as bob peek abc 2> "$t/short"
grep -q 'id prefix "abc" is too short' "$t/short"
expect_exit 2 mailroom --as bob --json archive mr-abcd0 2> "$t/err"
jq -e '.error.code == "ambiguous_id" and .error.candidates == ["mr-abcd000000000001", "mr-abcd000000000002"]' "$t/err" > /dev/null
expect_exit 3 mailroom --as bob peek abce
mailroom --as bob thread abcd0000000000020 > /dev/null || true
mailroom --as bob thread abcd000000000002 | grep -q twin
mailroom --as bob status abcd000000000001 | grep -q bob
