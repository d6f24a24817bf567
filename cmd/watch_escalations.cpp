#include "watch_escalations.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "support.hpp"
#include "text/sanitize.hpp"
#include "wait_support.hpp"
#include "watch_loop.hpp"

namespace mailroom::cli {

HeldEscalations::HeldEscalations(mail::Mailbox mailbox, const std::vector<std::string>& argv,
                                 const mail::RedeliverySchedule& redelivery)
    : m_mailbox(std::move(mailbox)), m_argv(argv), m_pair_line(mail::watch_pair_line(m_mailbox, m_argv)),
      m_redelivery(redelivery)
{
}

std::optional<mail::Mailbox> HeldEscalations::hold(mail::SetAside set_aside)
{
  std::optional<mail::Mailbox> recipient = mail::watch_escalation_recipient(set_aside.message, m_redelivery);
  if (recipient) {
    m_held[*recipient].push_back(std::move(set_aside));
  }
  return recipient;
}

Result<std::optional<mail::MessageId>> HeldEscalations::unread_escalation(mail::Provider& provider,
                                                                          const mail::Mailbox& recipient)
{
  mail::ListQuery query;
  query.mailbox = recipient;
  query.box = mail::Box::inbox;
  query.filters.from = std::string(mail::k_system_sender);
  query.filters.types = {"escalation"};
  TRY_ASSIGN(const mail::ListResult unread, provider.list(query));
  for (const mail::ListedMessage& listed : unread.messages) {
    if (mail::is_watch_escalation_for(listed.message, m_pair_line)) {
      return std::optional<mail::MessageId>(listed.message.id);
    }
  }
  return std::optional<mail::MessageId>();
}

std::vector<HeldEscalations::Outcome> HeldEscalations::release(mail::Provider& provider)
{
  std::vector<Outcome> outcomes;
  for (auto it = m_held.begin(); it != m_held.end();) {
    Outcome outcome;
    outcome.recipient = it->first;
    for (const mail::SetAside& one : it->second) {
      outcome.ids.push_back(one.message.id);
    }
    auto earlier = unread_escalation(provider, it->first);
    if (earlier.ok() && !*earlier) {
      auto sent = provider.send(mail::watch_escalation(it->second, m_mailbox, m_argv, it->first));
      if (sent.ok()) {
        outcome.sent = std::move(sent).value();
        outcomes.push_back(std::move(outcome));
        it = m_held.erase(it);
        continue;
      }
      outcome.error = std::move(sent).error();
    } else if (earlier.ok()) {
      outcome.held_by = **earlier;
    } else {
      outcome.error = std::move(earlier).error();
    }
    outcomes.push_back(std::move(outcome));
    ++it;
  }
  return outcomes;
}

std::vector<HeldEscalations::Outcome> HeldEscalations::held() const
{
  std::vector<Outcome> outcomes;
  for (const auto& [recipient, set_aside] : m_held) {
    Outcome outcome;
    outcome.recipient = recipient;
    for (const mail::SetAside& one : set_aside) {
      outcome.ids.push_back(one.message.id);
    }
    outcomes.push_back(std::move(outcome));
  }
  return outcomes;
}

} // namespace mailroom::cli

// ---- the watcher's side: what it reports (watch_loop.hpp) -------------------------------------

namespace mailroom::cli {

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
      text += text::DisplayText::format("; escalation {} sent to {}", text::sanitize_line(outcome.sent->message.id),
                                        text::sanitize_line(join(outcome.sent->recipients)));
    } else if (outcome.held_by) {
      aside["escalation_held_by"] = *outcome.held_by;
      text += text::DisplayText::format("; held for escalation until {} is read", text::sanitize_line(*outcome.held_by));
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
      warn(m_ctx, "escalation_failed",
           fmt::format("escalating {} set-aside message(s) to {}: {} (tried again later)", outcome.ids.size(),
                       outcome.recipient, outcome.error->message));
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
         text::DisplayText::format("Escalation {} sent to {} about {}", text::sanitize_line(outcome.sent->message.id),
                                   text::sanitize_line(join(outcome.sent->recipients)),
                                   text::sanitize_line(join(outcome.ids))));
  }
}

void Watcher::report_held()
{
  for (const HeldEscalations::Outcome& outcome : m_escalations.held()) {
    emit({{"event", "escalation_held"}, {"escalate_to", outcome.recipient}, {"ids", outcome.ids}},
         text::DisplayText::format("Not escalated yet (an earlier escalation to {} is unread): {}",
                                   text::sanitize_line(outcome.recipient), text::sanitize_line(join(outcome.ids))));
  }
}

ExitCode Watcher::stopped(int sig)
{
  report_held();
  return interrupted_exit(sig);
}

} // namespace mailroom::cli
