#!/usr/bin/env bash
# integration/json_every_command.sh: --json prints exactly one JSON object with schema_version 1
. "$(dirname "$0")/common.sh"
workspace alice bob
json() {
  local out
  out=$(mailroom --json "$@")
  [ "$(jq -s 'length' <<< "$out")" = 1 ] || { echo "not one document: $*" >&2; return 1; }
  [ "$(jq .schema_version <<< "$out")" = 1 ] || { echo "no schema_version: $*" >&2; return 1; }
  printf '%s\n' "$out"
}
id=$(json --as alice send bob -s "S" -m "B" | jq -r .id)
json --as alice send bob "x" | jq -e '.ok == true and (.recipients == ["bob"]) and (.thread_id | length > 0)' > /dev/null
json --as bob inbox | jq -e '.mailbox == "bob" and (.messages | length) == 2' > /dev/null
json --as bob inbox | jq -e '.messages[0] | has("id","from","to","cc","subject","body","created_at","read","archived","thread_id","reply_to","priority","type")' > /dev/null
json --as bob check | jq -e '.unread == 2' > /dev/null
json --as bob count | jq -e '.total == 2 and .unread == 2' > /dev/null
json --as bob peek "$id" | jq -e '.message.id == "'"$id"'" and .message.reply_to == null and .message.priority == 2' > /dev/null
json --as bob read "$id" | jq -e '.message.subject == "S"' > /dev/null
json --as bob reply "$id" "ok" | jq -e '.ok and .recipients == ["alice"]' > /dev/null
json --as bob thread "$id" | jq -e '(.messages | length) == 2' > /dev/null
json --as bob mark-unread "$id" | jq -e '.ids == ["'"$id"'"]' > /dev/null
json --as bob mark-read "$id" | jq -e '.ok' > /dev/null
json --as bob mark-read --all | jq -e '.ok' > /dev/null
json --as bob archive "$id" | jq -e '.ids == ["'"$id"'"] and .already == []' > /dev/null
json --as bob archive "$id" | jq -e '.ids == [] and .already == ["'"$id"'"]' > /dev/null
json --as bob unarchive "$id" | jq -e '.ok' > /dev/null
json --as bob delete "$id" | jq -e '.ok' > /dev/null
json --as alice status "$id" | jq -e '.recipients[0].recipient == "bob"' > /dev/null
json agents | jq -e '[.agents[].name] | index("alice") != null' > /dev/null
json agents add carol | jq -e '.ids == ["carol"]' > /dev/null
json agents remove carol | jq -e '.ok' > /dev/null
json config | jq -e '.settings["store.path"].value | endswith(".mailroom/mail.db")' > /dev/null
json init | jq -e '.created == false' > /dev/null
# Errors: nothing on stdout, one JSON object on stderr.
out=$(mailroom --json --as bob read mr-000000 2> "$t/err" || true)
[ -z "$out" ]
jq -e '.ok == false and .error.code == "not_found" and .error.exit_code == 3' "$t/err" > /dev/null
# Round 2: the envelope everywhere, typed values, "ids" in every action result, JSON warnings.
json --version | jq -e '(.version | type) == "string" and (.stores | type) == "array"' > /dev/null
json completion bash | jq -e '.shell == "bash" and (.script | contains("complete -F _mailroom mailroom"))' > /dev/null
json --as bob count | jq -e '(.total | type) == "number" and (.unread | type) == "number"' > /dev/null
json --as bob check --limit 5 | jq -e '(.unread | type) == "number"' > /dev/null || true
json --as bob inbox --all | jq -e '(.messages[0].priority | type) == "number" and (.messages[0].read | type) == "boolean" and (.total | type) == "number" and (.has_more | type) == "boolean"' > /dev/null
json --as bob thread "$id" | jq -e '.mailbox == "bob"' > /dev/null
id2=$(json --as alice send bob "y" | jq -r .id)
json --as alice send bob "z" | jq -e '.ids | length == 1' > /dev/null
json --as bob reply "$id2" "ok" | jq -e '(.ids | length) == 1 and .ids[0] == .id' > /dev/null
for action in mark-read mark-unread archive unarchive delete; do
  json --as bob "$action" "$id2" | jq -e 'has("ids") and has("already") and .failed == []' > /dev/null
done
json --as bob mark-read --all | jq -e 'has("ids")' > /dev/null
json agents add dave | jq -e '.ids == ["dave"] and .mailboxes == ["dave"]' > /dev/null
json agents remove dave | jq -e '.ids == ["dave"]' > /dev/null
# Several ids: each reported, the worst exit code.
status=0
mailroom --json --as bob archive "$id2" mr-0000000000000000 > "$t/multi" 2> "$t/multi.err" || status=$?
[ "$status" = 3 ]
jq -e '.ok == false and .failed == [{"id":"mr-0000000000000000","code":"not_found"}]' "$t/multi" > /dev/null
# A warning under --json is a JSON object on stderr; stdout still holds the one result.
mailroom --json --as alice send bob "w" --notify > "$t/out" 2> "$t/warn"
jq -e '.ok' "$t/out" > /dev/null
jq -e '.schema_version == 1 and .warning.code == "no_notify_command" and (.warning.message | type) == "string"' "$t/warn" > /dev/null
# The round 2 commands, through the same envelope check.
json --as alice send bob --type task_request "do it" > "$t/req"
req=$(jq -r .id "$t/req")
json --as bob ack "$req" | jq -e 'has("ids") and has("already")' > /dev/null
json --as alice peers | jq -e '(.peers | type) == "array" and (.stale_count | type) == "number"' > /dev/null
json team | jq -e '(.mailboxes | type) == "array" and (.presence_after_ms | type) == "number"' > /dev/null
json --as alice sent | jq -e '(.messages | type) == "array" and (.total | type) == "number"' > /dev/null
json --as bob search "do" | jq -e '(.messages | type) == "array"' > /dev/null
json --as bob trace "$req" | jq -e '.mailbox == "bob" and (.messages | length) == 1' > /dev/null
json sweep --dry-run | jq -e '.ok and (.enabled | type) == "boolean" and .dry_run == true' > /dev/null
json purge --archived --older-than 30d | jq -e '.ok' > /dev/null
json --as bob wait --timeout 1s | jq -e '.message.id | type == "string"' > /dev/null
json hooks show claude | jq -e '.agent == "claude" and (.settings.hooks | type) == "object"' > /dev/null
# Round 4: the life of a request, through the same envelope check.
json --as bob peek "$req" | jq -e '.message.request_state == "submitted"' > /dev/null
json --as bob peek "$id" | jq -e '.message.request_state == null' > /dev/null
json --as bob ask "$req" "which one?" | jq -e '.ok and .reply_to == "'"$req"'" and .request_state == "input_required"' > /dev/null
json --as bob decline "$req" | jq -e '.request_state == "rejected" and (.ids | length) == 1' > /dev/null
req=$(json --as alice send bob --type task_request "another" | jq -r .id)
json --as bob fail "$req" --reason "no" | jq -e '.request_state == "failed"' > /dev/null
req=$(json --as alice send bob --type task_request "a third" | jq -r .id)
json --as alice cancel "$req" | jq -e '.ok and .canceled == ["bob"] and .unchanged == [] and (.notice | type) == "string"' > /dev/null
json --as alice status "$req" | jq -e '.recipients[0] | .request_state == "canceled" and (.request_state_at | type) == "string"' > /dev/null
