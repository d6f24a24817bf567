#pragma once

// Schedules (contract "Schedules", HiveKernel's cron tasks): send --at/--in, and schedule add,
// list, show, edit, pause, resume, cancel and run-now. The options are read and checked here
// (zones, times, rules, and the message as send checks it, recipients against the registry) and
// the store keeps the schedule (mail/facets/schedules.hpp); firing is schedule_firing.hpp.
// `for_name` acts for another owner (an operator's --for).

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mail/schedules.hpp"
#include "render/table.hpp"
#include "send.hpp"
#include "session.hpp"

namespace mailroom::ops {

// A schedule's rule as typed.
struct RuleOptions {
  std::optional<std::string> every;    // DUR: whole seconds, at least 1s
  std::optional<std::string> cron;     // EXPR (cron.hpp)
  std::optional<std::string> tz;       // an IANA zone
  std::optional<std::string> start;    // TIME or a DUR from now
  std::optional<std::string> until;    // TIME or a DUR from now
  bool no_until = false;               // edit: drop --until
  std::optional<std::string> catch_up; // latest | skip
  std::optional<std::string> overlap;  // skip | send
};

struct ScheduleAddRequest {
  std::string name;
  std::optional<std::string> for_name;
  RuleOptions rule;
  SendRequest message; // send's options; the type defaults to cron_task
  bool notify = false;
};

// Only what is given changes; `no_cc` clears the copies, `no_until` the end.
struct ScheduleEditRequest {
  std::string name;
  std::optional<std::string> for_name;
  RuleOptions rule;
  std::vector<std::string> to;
  std::vector<std::string> cc;
  bool no_cc = false;
  std::optional<std::string> subject;
  std::optional<std::string> body;
  Sending sending; // a flag given (urgent, ack) turns it on
  bool notify = false;
};

struct ScheduleResult {
  mail::Schedule schedule;
  bool replayed = false;
  mail::UnixMillis now = 0;
};

// Errors: usage (a bad name, time, zone, rule, duration, or message option; a rule with no slot),
// the recipient errors of send, conflict (a live schedule of that name), unsupported (a store
// without schedules: the exec provider), the store's.
Result<ScheduleResult> schedule_add(Session& session, const ScheduleAddRequest& request);
// Errors: as schedule_add, and not_found (with did-you-mean) for an unknown name.
Result<ScheduleResult> schedule_edit(Session& session, const ScheduleEditRequest& request);
// {"schema_version":1,"ok":true,"ids":[name],"schedule":{…},"replayed"}
nlohmann::json to_json(const ScheduleResult& result);
// "Scheduled NAME: every 1h in Europe/Berlin, next 2026-12-02 09:00 CET" (add and edit alike).
text::DisplayText to_text(const ScheduleResult& result, const render::Style& style);
nlohmann::json schedule_result_output_schema();

// send --at TIME | --in DUR: a one-shot schedule of `send`'s message.
struct SendLaterRequest {
  SendRequest send;
  std::optional<std::string> at;
  std::optional<std::string> in;
  std::optional<std::string> tz;
  bool notify = false;
};

struct SendLaterResult {
  mail::Schedule schedule;
  bool replayed = false;
  std::vector<mail::Mailbox> recipients; // the mailboxes it will reach, as of now
};

// Errors: as send before it stores, usage for both or neither of at/in and for a time in the past
// or in a daylight-saving gap or fold, unsupported, the store's.
Result<SendLaterResult> send_later(Session& session, const SendLaterRequest& request);
// {"schema_version":1,"ok":true,"scheduled":true,"schedule","due_at","id":null,"ids":[],"recipients"}
nlohmann::json to_json(const SendLaterResult& result);
// "Scheduled message to bob at 2026-12-02 09:00 UTC (schedule once-7f3a)"
text::DisplayText to_text(const SendLaterResult& result, const render::Style& style);
nlohmann::json send_later_output_schema();

struct ScheduleListRequest {
  bool all = false; // every owner's
  std::optional<std::string> for_name;
  bool ended = false; // also canceled and finished ones
};

struct ScheduleListResult {
  std::vector<mail::Schedule> schedules;
  bool all = false;
  mail::UnixMillis now = 0;
};

Result<ScheduleListResult> schedule_list(Session& session, const ScheduleListRequest& request);
// {"schema_version":1,"schedules":[…]}
nlohmann::json to_json(const ScheduleListResult& result);
text::DisplayText to_text(const ScheduleListResult& result, const render::Style& style);
nlohmann::json schedule_list_output_schema();

struct ScheduleShowRequest {
  std::string name;
  std::optional<std::string> for_name;
  std::size_t limit = 20; // history rows
};

struct ScheduleShowResult {
  mail::Schedule schedule; // with its firings
  mail::UnixMillis now = 0;
};

// Errors: not_found with did-you-mean, usage, unsupported, the store's.
Result<ScheduleShowResult> schedule_show(Session& session, const ScheduleShowRequest& request);
// {"schema_version":1, the schedule's keys, "firings":[{slot,kind,fired_at,lateness_ms,outcome,
//  message_id,count,last_slot,error_code,detail,request_states}]}
nlohmann::json to_json(const ScheduleShowResult& result);
text::DisplayText to_text(const ScheduleShowResult& result, const render::Style& style);
nlohmann::json schedule_show_output_schema();

// pause, resume and cancel of one or more schedules.
struct ScheduleChangeRequest {
  mail::ScheduleChange::Kind kind = mail::ScheduleChange::Kind::pause;
  std::vector<std::string> names;
  std::optional<std::string> for_name;
  bool and_open = false; // cancel --and-open
};

struct ScheduleChangeResult {
  mail::ScheduleChange::Kind kind = mail::ScheduleChange::Kind::pause;
  std::vector<mail::Schedule> changed;
  mail::UnixMillis now = 0;
};

// Stops at the first name that fails, after the ones before it changed. Errors: usage (no name),
// not_found with did-you-mean, unsupported, the store's.
Result<ScheduleChangeResult> schedule_change(Session& session, const ScheduleChangeRequest& request);
// {"schema_version":1,"ok":true,"ids":[names]}
nlohmann::json to_json(const ScheduleChangeResult& result);
// "Paused schedule NAME" / "Resumed schedule NAME (next …)" / "Canceled schedule NAME"
text::DisplayText to_text(const ScheduleChangeResult& result, const render::Style& style);
nlohmann::json schedule_change_output_schema();

// The names of `schedules`, for "ids".
std::vector<std::string> names_of(const std::vector<mail::Schedule>& schedules);

// The `no_firer` notice when no firer recorded a heartbeat in the last 5 minutes (told through
// the session), so a schedule made now would not fire. Errors are not reported: it is advice.
void warn_without_firer(Session& session, mail::Schedules& schedules);

// The owner `for_name` names (shape-checked), else the caller.
Result<mail::Mailbox> schedule_owner(Session& session, const std::optional<std::string>& for_name);

} // namespace mailroom::ops
