#include "testing/provider_contract_model.hpp"

#include <algorithm>
#include <tuple>

namespace mailroom::testing::contract {

void Model::add(ModelMessage message)
{
  m_messages.push_back(std::move(message));
}

const ModelMessage* Model::find(const mail::MessageId& id) const
{
  const auto it = std::find_if(m_messages.begin(), m_messages.end(),
                               [&](const ModelMessage& message) { return message.id == id; });
  return it == m_messages.end() ? nullptr : &*it;
}

ModelDelivery* Model::delivery(const mail::Mailbox& mailbox, const mail::MessageId& id)
{
  for (ModelMessage& message : m_messages) {
    if (message.id == id) {
      const auto it = message.deliveries.find(mailbox);
      return it == message.deliveries.end() ? nullptr : &it->second;
    }
  }
  return nullptr;
}

bool Model::is_expired(const ModelMessage& message, mail::UnixMillis now)
{
  return message.expires_at && *message.expires_at <= now;
}

bool Model::is_unread(const ModelMessage& message, const ModelDelivery& delivery, mail::UnixMillis now)
{
  return !delivery.read && !delivery.archived && !is_expired(message, now);
}

std::vector<mail::MessageId> Model::inbox(const mail::Mailbox& mailbox, bool include_read,
                                          mail::UnixMillis now) const
{
  struct Entry {
    mail::Priority priority;
    mail::UnixMillis created_at;
    std::size_t arrival;
    mail::MessageId id;
  };
  std::vector<Entry> entries;
  for (std::size_t i = 0; i < m_messages.size(); ++i) {
    const ModelMessage& message = m_messages[i];
    const auto it = message.deliveries.find(mailbox);
    if (it == message.deliveries.end() || it->second.archived) {
      continue;
    }
    if (include_read || is_unread(message, it->second, now)) {
      entries.push_back(Entry{message.priority, message.created_at, i, message.id});
    }
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.priority, a.created_at, a.arrival) < std::tie(b.priority, b.created_at, b.arrival);
  });
  std::vector<mail::MessageId> ids;
  ids.reserve(entries.size());
  for (const Entry& entry : entries) {
    ids.push_back(entry.id);
  }
  return ids;
}

} // namespace mailroom::testing::contract
