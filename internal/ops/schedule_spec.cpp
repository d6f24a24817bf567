#include "schedule_spec.hpp"

#include <fmt/format.h>

#include "errors.hpp"
#include "mail/audience.hpp"
#include "mail/duration.hpp"
#include "mail/ids.hpp"
#include "schedule/cron.hpp"
#include "schedule/times.hpp"
#include "text/strings.hpp"

namespace mailroom::ops::schedule_spec {

namespace {

constexpr std::size_t k_max_name_bytes = 64;

} // namespace

Result<void> check_name(std::string_view name)
{
  if (name.empty() || name.size() > k_max_name_bytes || !mail::is_valid_id(name)) {
    return usage_error(fmt::format("invalid schedule name \"{}\"", text::cap_for_echo(name)),
                       "use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit");
  }
  return {};
}

Result<schedule::Zone> zone_of(const Session& session, const std::optional<std::string>& tz)
{
  schedule::ZoneSources sources;
  sources.flag = tz;
  if (!session.config.schedule_timezone.value.empty()) {
    sources.config = session.config.schedule_timezone.value;
  }
  sources.env_tz = session.env.get("TZ");
  return schedule::choose_zone(sources);
}

Result<mail::ScheduleRule> rule_of(const RuleOptions& options, const schedule::Zone& zone,
                                   mail::UnixMillis now, const std::optional<mail::ScheduleRule>& base)
{
  if (options.every && options.cron) {
    return usage_error("--every and --cron cannot be combined", "give one of them");
  }
  mail::ScheduleRule rule = base.value_or(mail::ScheduleRule{});
  const bool new_kind = options.every || options.cron;
  if (!base && !new_kind) {
    return usage_error("a schedule needs --every DUR or --cron EXPR",
                       "e.g. --every 1h, or --cron \"0 9 * * mon-fri\"");
  }
  rule.tz = zone.name();
  bool reanchor = false;
  if (options.every) {
    TRY_ASSIGN(const mail::Millis every, mail::parse_duration(*options.every, "--every"));
    if (every < mail::k_second_ms || every % mail::k_second_ms != 0) {
      return usage_error(fmt::format("--every \"{}\" must be whole seconds, at least 1s",
                                     text::cap_for_echo(*options.every)));
    }
    rule.kind = mail::RuleKind::every;
    rule.every = every;
    reanchor = true;
  }
  if (options.cron) {
    TRY(schedule::parse_cron(*options.cron));
    rule.kind = mail::RuleKind::cron;
    rule.cron = text::trim(*options.cron);
  }
  if (options.start) {
    TRY_ASSIGN(rule.start,
               schedule::parse_time(*options.start, zone, now, "--start", schedule::TimeForm::time_or_delay));
    reanchor = true;
  }
  if (options.no_until && options.until) {
    return usage_error("--until and --no-until cannot be combined");
  }
  if (options.no_until) {
    rule.until.reset();
  }
  if (options.until) {
    TRY_ASSIGN(rule.until,
               schedule::parse_time(*options.until, zone, now, "--until", schedule::TimeForm::time_or_delay));
  }
  if (rule.start && rule.until && *rule.until < *rule.start) {
    return usage_error("--until is before --start");
  }
  if (rule.kind == mail::RuleKind::every && reanchor) {
    rule.anchor = 0; // the store anchors it: --start, else one period after now (its clock)
  }
  if (rule.kind != mail::RuleKind::every) {
    rule.every = 0;
    rule.anchor = 0;
  }
  if (rule.kind != mail::RuleKind::cron) {
    rule.cron.clear();
  }
  return rule;
}

Result<void> apply_policies(const RuleOptions& options, mail::ScheduleSpec& spec)
{
  if (options.catch_up) {
    const auto parsed = mail::parse_catch_up(*options.catch_up);
    if (!parsed) {
      return usage_error(fmt::format("invalid --catch-up \"{}\"", text::cap_for_echo(*options.catch_up)),
                         "use latest or skip");
    }
    spec.catch_up = *parsed;
  }
  if (options.overlap) {
    const auto parsed = mail::parse_overlap(*options.overlap);
    if (!parsed) {
      return usage_error(fmt::format("invalid --overlap \"{}\"", text::cap_for_echo(*options.overlap)),
                         "use skip or send");
    }
    spec.overlap = *parsed;
  }
  return {};
}

Result<mail::ScheduleMessage> message_of(Session& session, const SendRequest& request,
                                         const mail::Mailbox& owner, bool notify,
                                         std::optional<std::string>* idempotency_key)
{
  TRY_ASSIGN(const mail::SendRequest checked, checked_message(session, request, owner));
  mail::ScheduleMessage message;
  message.to = checked.to;
  message.cc = checked.cc;
  message.subject = checked.subject;
  message.body = checked.body;
  message.priority = checked.priority;
  message.type = checked.type;
  message.ack = checked.ack;
  message.ttl = checked.ttl;
  message.notify = notify;
  if (idempotency_key != nullptr) {
    *idempotency_key = checked.idempotency_key;
  }
  TRY(reach_of(session, owner, message)); // the recipients as send would check them now
  return message;
}

Result<std::vector<mail::Mailbox>> reach_of(Session& session, const mail::Mailbox& owner,
                                            const mail::ScheduleMessage& message)
{
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  std::optional<mail::Directory> directory;
  if (mail::Registry* registry = provider->facets().registry) {
    TRY_ASSIGN(directory, registry->directory());
  }
  TRY_ASSIGN(const mail::Audience audience,
             mail::resolve_audience(owner, message.to, message.cc, directory ? &*directory : nullptr,
                                    session.policy));
  std::vector<mail::Mailbox> reach = audience.to;
  reach.insert(reach.end(), audience.cc.begin(), audience.cc.end());
  return reach;
}

} // namespace mailroom::ops::schedule_spec
