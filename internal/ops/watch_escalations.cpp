#include "watch_escalations.hpp"

#include <utility>

namespace mailroom::ops {

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

} // namespace mailroom::ops
