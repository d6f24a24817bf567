#include "testing/provider_contract_support.hpp"

#include <algorithm>
#include <tuple>

#include "mail/clock.hpp"

namespace mailroom::testing::contract {

Result<void> deliver_ok(const mail::Message& /*message*/)
{
  return {};
}

std::vector<mail::MessageId> ids_of(const std::vector<mail::Message>& messages)
{
  std::vector<mail::MessageId> ids;
  ids.reserve(messages.size());
  for (const mail::Message& message : messages) {
    ids.push_back(message.id);
  }
  return ids;
}

std::vector<mail::Mailbox> sorted(std::vector<mail::Mailbox> names)
{
  std::sort(names.begin(), names.end());
  return names;
}

void check_inbox_order(const std::vector<mail::Message>& messages)
{
  for (std::size_t i = 1; i < messages.size(); ++i) {
    const mail::Message& a = messages[i - 1];
    const mail::Message& b = messages[i];
    INFO("inbox positions ", i - 1, " and ", i, ": ", a.id, " then ", b.id);
    CHECK(std::tie(a.priority, a.created_at, a.id) < std::tie(b.priority, b.created_at, b.id));
  }
}

void check_chronological(const std::vector<mail::Message>& messages)
{
  for (std::size_t i = 1; i < messages.size(); ++i) {
    const mail::Message& a = messages[i - 1];
    const mail::Message& b = messages[i];
    INFO("positions ", i - 1, " and ", i, ": ", a.id, " then ", b.id);
    CHECK(std::tie(a.created_at, a.id) < std::tie(b.created_at, b.id));
  }
}

Fixture::Fixture(const ProviderMaker& make, const std::vector<mail::Mailbox>& mailboxes)
    : m_put(make())
{
  REQUIRE(m_put.provider != nullptr);
  m_caps = m_put.provider->capabilities();
  if (m_caps.registry && !mailboxes.empty()) {
    MUST(m_put.provider->add_agents(mailboxes));
  }
}

mail::UnixMillis Fixture::now() const
{
  if (m_put.now) {
    return m_put.now();
  }
  return mail::SystemClock().now();
}

void Fixture::tick()
{
  if (m_put.advance_clock) {
    m_put.advance_clock();
  }
}

mail::SendRequest Fixture::request(const mail::Mailbox& from, std::vector<mail::Mailbox> to,
                                   const std::string& subject, const std::string& body) const
{
  mail::SendRequest request;
  request.from = from;
  request.to = std::move(to);
  request.require_registered = m_caps.registry;
  request.subject = subject;
  request.body = body;
  return request;
}

mail::SendReceipt Fixture::send(const mail::SendRequest& request)
{
  return MUST(provider().send(request));
}

mail::SendReceipt Fixture::send(const mail::Mailbox& from, const mail::Mailbox& to,
                                const std::string& subject, const std::string& body)
{
  return send(request(from, {to}, subject, body));
}

std::vector<mail::MessageId> Fixture::inbox_ids(const mail::Mailbox& mailbox, bool include_read)
{
  mail::ListOptions options;
  options.include_read = include_read;
  const auto messages = MUST(provider().inbox(mailbox, options));
  check_inbox_order(messages);
  return ids_of(messages);
}

mail::Message Fixture::read(const mail::Mailbox& viewer, const mail::MessageId& id)
{
  return MUST(provider().read(viewer, id, deliver_ok));
}

mail::Message Fixture::get(const mail::Mailbox& viewer, const mail::MessageId& id)
{
  return MUST(provider().get(viewer, id));
}

mail::Counts Fixture::count(const mail::Mailbox& mailbox)
{
  return MUST(provider().count(mailbox));
}

} // namespace mailroom::testing::contract
