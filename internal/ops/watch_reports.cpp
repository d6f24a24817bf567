// What `watch` reports about the deliveries it sets aside and their escalations (watch_loop.hpp;
// the decision is watch_escalations.hpp).

#include <algorithm>

#include <fmt/format.h>

#include "text/sanitize.hpp"
#include "text/strings.hpp"
#include "watch_loop.hpp"

namespace mailroom::ops {

void Watcher::set_aside(const mail::Claim& claim, std::int64_t attempts, const std::string& reason)
{
  const mail::Message& m = claim.message;
  nlohmann::json aside = {{"event", "set_aside"}, {"id", m.id}, {"attempts", attempts}};
  aside["escalation_id"] = nullptr;
  text::DisplayText text =
      text::DisplayText::format("Set aside {} after {} attempt{}", text::sanitize_line(m.id), attempts,
                                attempts == 1 ? text::DisplayText() : text::DisplayText("s"));
  const bool escalates = m_escalations.hold(mail::SetAside{m, attempts, reason}).has_value();
  const std::vector<HeldEscalations::Outcome> outcomes =
      escalates ? m_escalations.release(m_provider) : std::vector<HeldEscalations::Outcome>{};
  for (const HeldEscalations::Outcome& outcome : outcomes) {
    if (std::find(outcome.ids.begin(), outcome.ids.end(), m.id) == outcome.ids.end()) {
      continue;
    }
    if (outcome.sent) {
      aside["escalation_id"] = outcome.sent->message.id;
      aside["escalated_to"] = outcome.sent->recipients;
      text += text::DisplayText::format("; escalation {} sent to {}",
                                        text::sanitize_line(outcome.sent->message.id),
                                        text::sanitize_line(text::join(outcome.sent->recipients)));
    } else if (outcome.held_by) {
      aside["escalation_held_by"] = *outcome.held_by;
      text += text::DisplayText::format("; held for escalation until {} is read",
                                        text::sanitize_line(*outcome.held_by));
    }
  }
  emit(aside, text);
  report_escalations(outcomes, m.id);
}

void Watcher::report_escalations(const std::vector<HeldEscalations::Outcome>& outcomes,
                                 const std::optional<mail::MessageId>& current)
{
  for (const HeldEscalations::Outcome& outcome : outcomes) {
    if (outcome.error) {
      m_session.tell("escalation_failed",
                     fmt::format("escalating {} set-aside message(s) to {}: {} (tried again later)",
                                 outcome.ids.size(), outcome.recipient, outcome.error->message));
      continue;
    }
    const bool about_current =
        current && std::find(outcome.ids.begin(), outcome.ids.end(), *current) != outcome.ids.end();
    if (!outcome.sent || about_current) {
      continue;
    }
    emit({{"event", "escalated"},
          {"escalation_id", outcome.sent->message.id},
          {"escalated_to", outcome.sent->recipients},
          {"ids", outcome.ids}},
         text::DisplayText::format("Escalation {} sent to {} about {}",
                                   text::sanitize_line(outcome.sent->message.id),
                                   text::sanitize_line(text::join(outcome.sent->recipients)),
                                   text::sanitize_line(text::join(outcome.ids))));
  }
}

void Watcher::report_held()
{
  for (const HeldEscalations::Outcome& outcome : m_escalations.held()) {
    emit({{"event", "escalation_held"}, {"escalate_to", outcome.recipient}, {"ids", outcome.ids}},
         text::DisplayText::format("Not escalated yet (an earlier escalation to {} is unread): {}",
                                   text::sanitize_line(outcome.recipient),
                                   text::sanitize_line(text::join(outcome.ids))));
  }
}

WatchEnd Watcher::stopped(int sig)
{
  report_held();
  return WatchEnd{sig};
}

} // namespace mailroom::ops
