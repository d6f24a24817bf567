#include "schedules.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "errors.hpp"
#include "mail/address.hpp"
#include "mail/ids.hpp"
#include "requests.hpp"
#include "schedule/firing.hpp"
#include "schedule/times.hpp"
#include "schedule_spec.hpp"
#include "text/strings.hpp"

namespace mailroom::ops {

namespace {

// How many random names a one-shot tries before giving up (names are "once-" and 4 hex digits).
constexpr int k_one_shot_name_tries = 8;

Result<mail::Schedules*> schedules_of(Session& session)
{
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  return mail::need(provider->facets().schedules, "schedules");
}

std::string one_shot_name()
{
  const std::string random = mail::new_message_id("x");
  return "once-" + random.substr(2, 4);
}

// cancel --and-open: each earlier firing's message whose request is still open for a recipient
// (its firings' request states, as `schedule show` reads them) is canceled as `cancel` would, by
// the schedule's owner (an operator acting --for it acts as that sender).
Result<void> cancel_open_requests(Session& session, mail::Schedules& schedules, const mail::Mailbox& owner,
                                  const std::string& name)
{
  TRY_ASSIGN(const mail::Schedule ended,
             schedules.schedule(owner, name, static_cast<std::size_t>(mail::k_firing_history)));
  for (const mail::Firing& firing : ended.firings) {
    const bool open = std::any_of(firing.request_states.begin(), firing.request_states.end(),
                                  [](const auto& state) { return schedule::is_open_state(state.second); });
    if (!firing.message_id || !open) {
      continue;
    }
    CancelRequest cancel_request;
    cancel_request.id = *firing.message_id;
    if (owner != session.me.name) {
      cancel_request.for_name = owner;
    }
    TRY(cancel(session, cancel_request));
  }
  return {};
}

} // namespace

Result<mail::Mailbox> schedule_owner(Session& session, const std::optional<std::string>& for_name)
{
  if (!for_name) {
    return session.me.name;
  }
  if (!mail::is_valid_mailbox(*for_name)) {
    TRY(mail::parse_address(*for_name));
    return usage_error(fmt::format("--for \"{}\" is not a mailbox", text::cap_for_echo(*for_name)),
                       "name one mailbox, e.g. mayor or rig/mayor");
  }
  if (*for_name != session.me.name) {
    session.tell("acting_for", fmt::format("acting for {}", *for_name));
  }
  return *for_name;
}

void warn_without_firer(Session& session, mail::Schedules& schedules)
{
  const auto status = schedules.firer_status();
  if (!status.ok()) {
    return;
  }
  if (status->last_beat && status->now - *status->last_beat <= mail::k_firer_heartbeat_window) {
    return;
  }
  session.tell(
      "no_firer",
      "no firer has run in the last 5 minutes, so nothing fires until one does: run 'mailroom schedule "
      "run-due' from cron or a systemd timer, or keep 'mailroom serve' or 'mailroom sweep --every 1m' "
      "running (docs/schedules.md)");
}

Result<ScheduleResult> schedule_add(Session& session, const ScheduleAddRequest& request)
{
  TRY(schedule_spec::check_name(request.name));
  TRY_ASSIGN(const mail::Mailbox owner, schedule_owner(session, request.for_name));
  TRY_ASSIGN(const schedule::Zone zone, schedule_spec::zone_of(session, request.rule.tz));
  const mail::UnixMillis now = session.clock.now();
  mail::ScheduleSpec spec;
  spec.from = owner;
  spec.name = request.name;
  spec.created_by = session.me.name;
  TRY_ASSIGN(spec.rule, schedule_spec::rule_of(request.rule, zone, now, std::nullopt));
  TRY(schedule_spec::apply_policies(request.rule, spec));
  SendRequest message = request.message;
  if (!message.sending.type) {
    message.sending.type = "cron_task";
  }
  std::optional<std::string> key;
  TRY_ASSIGN(spec.message, schedule_spec::message_of(session, message, owner, request.notify, &key));
  if (key) {
    return usage_error("--idempotency-key is for send --at; a recurring schedule is keyed by its name");
  }
  TRY_ASSIGN(mail::Schedules * schedules, schedules_of(session));
  TRY_ASSIGN(mail::ScheduleAdded added, schedules->add_schedule(spec));
  warn_without_firer(session, *schedules);
  return ScheduleResult{std::move(added.schedule), added.replayed, session.clock.now()};
}

Result<ScheduleResult> schedule_edit(Session& session, const ScheduleEditRequest& request)
{
  TRY_ASSIGN(const mail::Mailbox owner, schedule_owner(session, request.for_name));
  TRY_ASSIGN(mail::Schedules * schedules, schedules_of(session));
  TRY_ASSIGN(const mail::Schedule current, schedules->schedule(owner, request.name, 0));
  if (current.ended_at) {
    return make_error(
        ErrorCode::not_found,
        fmt::format("schedule \"{}\" of {} has ended ({})", request.name, owner, current.end_reason),
        "add it again with: mailroom schedule add");
  }
  const std::optional<std::string> tz = request.rule.tz ? request.rule.tz : current.spec.rule.tz;
  TRY_ASSIGN(const schedule::Zone zone, schedule_spec::zone_of(session, tz));
  const mail::UnixMillis now = session.clock.now();
  mail::ScheduleSpec spec = current.spec;
  if (current.spec.rule.kind == mail::RuleKind::at && (request.rule.every || request.rule.cron)) {
    return usage_error("a one-shot stays a one-shot", "cancel it and add a recurring schedule");
  }
  TRY_ASSIGN(spec.rule, schedule_spec::rule_of(request.rule, zone, now, current.spec.rule));
  TRY(schedule_spec::apply_policies(request.rule, spec));
  // The message: what is stored, with the options given replacing their parts, checked as a send.
  SendRequest message;
  message.to = request.to.empty() ? current.spec.message.to : request.to;
  message.cc = request.no_cc ? std::vector<std::string>{}
                             : (request.cc.empty() ? current.spec.message.cc : request.cc);
  message.subject = request.subject ? request.subject : current.spec.message.subject;
  message.body = request.body.value_or(current.spec.message.body);
  message.sending = request.sending;
  if (!message.sending.priority && !message.sending.urgent) {
    message.sending.priority = std::string(mail::to_string(current.spec.message.priority));
  }
  message.sending.type = request.sending.type.value_or(current.spec.message.type);
  message.sending.ack = request.sending.ack || current.spec.message.ack;
  if (!request.sending.ttl && current.spec.message.ttl) {
    message.sending.ttl = mail::format_duration(*current.spec.message.ttl);
  }
  message.sending.idempotency_key = std::string(); // never re-keyed by an edit
  TRY_ASSIGN(spec.message, schedule_spec::message_of(session, message, owner,
                                                     request.notify || current.spec.message.notify));
  mail::ScheduleChange change;
  change.kind = mail::ScheduleChange::Kind::edit;
  change.from = owner;
  change.name = request.name;
  change.acted_by = session.me.name;
  change.edited = std::move(spec);
  TRY_ASSIGN(mail::Schedule edited, schedules->change_schedule(change));
  return ScheduleResult{std::move(edited), false, session.clock.now()};
}

Result<SendLaterResult> send_later(Session& session, const SendLaterRequest& request)
{
  if (request.at.has_value() == request.in.has_value()) {
    return usage_error("give one of --at TIME and --in DUR");
  }
  TRY_ASSIGN(const schedule::Zone zone, schedule_spec::zone_of(session, request.tz));
  const mail::UnixMillis now = session.clock.now();
  mail::ScheduleSpec spec;
  spec.from = session.me.name;
  spec.created_by = session.me.name;
  spec.rule.kind = mail::RuleKind::at;
  spec.rule.tz = zone.name();
  if (request.at) {
    TRY_ASSIGN(spec.rule.at,
               schedule::parse_time(*request.at, zone, now, "--at", schedule::TimeForm::time_only));
  } else {
    TRY_ASSIGN(const mail::Millis delay, mail::parse_duration(*request.in, "--in"));
    if (delay <= 0) {
      return usage_error("--in must be longer than 0");
    }
    spec.rule.at = now + delay;
  }
  TRY_ASSIGN(spec.message, schedule_spec::message_of(session, request.send, spec.from, request.notify,
                                                     &spec.idempotency_key));
  TRY_ASSIGN(std::vector<mail::Mailbox> recipients,
             schedule_spec::reach_of(session, spec.from, spec.message));
  TRY_ASSIGN(mail::Schedules * schedules, schedules_of(session));
  for (int attempt = 1;; ++attempt) {
    spec.name = one_shot_name();
    auto added = schedules->add_schedule(spec);
    if (!added.ok() && added.error().code == ErrorCode::conflict && !spec.idempotency_key &&
        attempt < k_one_shot_name_tries) {
      continue; // that random name is taken by a live one-shot: draw another
    }
    TRY(added);
    warn_without_firer(session, *schedules);
    return SendLaterResult{std::move(added->schedule), added->replayed, std::move(recipients)};
  }
}

Result<ScheduleListResult> schedule_list(Session& session, const ScheduleListRequest& request)
{
  mail::ScheduleQuery query;
  if (!request.all) {
    TRY_ASSIGN(query.from, schedule_owner(session, request.for_name));
  } else if (request.for_name) {
    return usage_error("--all and --for cannot be combined");
  }
  query.ended = request.ended;
  TRY_ASSIGN(mail::Schedules * schedules, schedules_of(session));
  TRY_ASSIGN(std::vector<mail::Schedule> listed, schedules->schedules(query));
  return ScheduleListResult{std::move(listed), request.all, session.clock.now()};
}

Result<ScheduleShowResult> schedule_show(Session& session, const ScheduleShowRequest& request)
{
  if (request.limit == 0 || request.limit > static_cast<std::size_t>(mail::k_firing_history)) {
    return usage_error(fmt::format("--limit must be between 1 and {}", mail::k_firing_history));
  }
  TRY_ASSIGN(const mail::Mailbox owner, schedule_owner(session, request.for_name));
  TRY_ASSIGN(mail::Schedules * schedules, schedules_of(session));
  TRY_ASSIGN(mail::Schedule shown, schedules->schedule(owner, request.name, request.limit));
  return ScheduleShowResult{std::move(shown), session.clock.now()};
}

Result<ScheduleChangeResult> schedule_change(Session& session, const ScheduleChangeRequest& request)
{
  if (request.names.empty()) {
    return usage_error("missing schedule name", "e.g. mailroom schedule pause nightly");
  }
  if (request.and_open && request.kind != mail::ScheduleChange::Kind::cancel) {
    return usage_error("--and-open is for cancel");
  }
  TRY_ASSIGN(const mail::Mailbox owner, schedule_owner(session, request.for_name));
  TRY_ASSIGN(mail::Schedules * schedules, schedules_of(session));
  ScheduleChangeResult result;
  result.kind = request.kind;
  for (const std::string& name : request.names) {
    mail::ScheduleChange change;
    change.kind = request.kind;
    change.from = owner;
    change.name = name;
    change.acted_by = session.me.name;
    auto changed = schedules->change_schedule(change);
    if (!changed.ok()) {
      Error error = std::move(changed).error();
      if (!result.changed.empty()) {
        error.message += fmt::format(" (already changed: {})", text::join(names_of(result.changed), ", "));
      }
      return error;
    }
    if (request.and_open) {
      TRY(cancel_open_requests(session, *schedules, owner, name));
    }
    result.changed.push_back(std::move(changed).value());
  }
  result.now = session.clock.now();
  return result;
}

std::vector<std::string> names_of(const std::vector<mail::Schedule>& schedules)
{
  std::vector<std::string> names;
  for (const mail::Schedule& s : schedules) {
    names.push_back(s.spec.name);
  }
  return names;
}

} // namespace mailroom::ops
