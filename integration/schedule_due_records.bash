# integration/schedule_due_records.bash: sourced by the exactly-once tests. due_schedules N FROM TO
# PREFIX prints an export (header and N schedule records) of N hourly schedules of FROM to TO named
# PREFIX0…, each with one slot due a second ago, so that a firer run finds N due slots at once;
# import it.
due_schedules() {
  local n=$1 from=$2 to=$3 prefix=$4
  local now_s
  now_s=$(date +%s)
  jq -nc --argjson n "$n" --arg from "$from" --arg to "$to" --arg p "$prefix" --argjson now "$now_s" '
    def t(s): s | todate | sub("Z$"; ".000Z");
    {kind: "header", schema_version: 1, exported_at: t($now), store: "generated"},
    (range($n) as $i | {kind: "schedule", id: "sch-\($p)\($i)", from: $from,
      name: "\($p)\($i)", created_at: t($now - 3600), created_by: $from, rule_kind: "every", at: null,
      every_ms: 3600000, anchor: t($now - 1), cron: null, tz: "UTC", start: null, until: null,
      catch_up: "latest", overlap: "send", to: [$to], cc: [], subject: "slot \($i)", body: "due",
      priority: 2, type: "cron_task", ack: false, ttl_ms: null, notify: false, idempotency_key: null,
      next_at: t($now - 1), paused_at: null, ended_at: null, end_reason: null, last_run_now: null,
      escalated: false, last_slot: null, last_kind: null})'
}

# check_fired_once N TO FILE...: the JSON outputs of the firers (`run-due --json`, one document
# each) fired N slots in all, each schedule's once, and TO got N messages, one per schedule.
check_fired_once() {
  local n=$1 to=$2
  shift 2
  jq -e -s --argjson n "$n" '[.[].fired[] | select(.outcome == "sent")] as $f
    | ($f | length) == $n and ($f | map(.name) | unique | length) == $n' "$@" > /dev/null
  [ "$(mailroom --as "$to" --json count | jq .unread)" = "$n" ]
  [ "$(mailroom --as "$to" --json inbox --no-limit | jq '[.messages[].schedule] | unique | length')" = "$n" ]
}
