#include "exec/order.hpp"

#include <algorithm>

namespace mailroom::providers::exec {

bool is_party(const mail::Message& m, const mail::Mailbox& mailbox)
{
  const auto in = [&](const std::vector<mail::Mailbox>& list) {
    return std::find(list.begin(), list.end(), mailbox) != list.end();
  };
  return m.from == mailbox || in(m.to) || in(m.cc);
}

bool is_recipient(const mail::Message& m, const mail::Mailbox& mailbox)
{
  return std::find(m.to.begin(), m.to.end(), mailbox) != m.to.end() ||
         std::find(m.cc.begin(), m.cc.end(), mailbox) != m.cc.end();
}

mail::Message as_seen_by(WireMessage wire, const mail::Mailbox& viewer,
                         std::optional<bool> read_if_unreported)
{
  mail::Message message = std::move(wire.message);
  const std::optional<bool> read = wire.read ? wire.read : read_if_unreported;
  if (read && is_recipient(message, viewer)) {
    mail::DeliveryState state;
    state.read = *read;
    state.archived = wire.archived.value_or(false);
    message.state = state;
  }
  return message;
}

void sort_thread(std::vector<mail::Message>& messages)
{
  std::stable_sort(messages.begin(), messages.end(), [](const mail::Message& a, const mail::Message& b) {
    return a.created_at != b.created_at ? a.created_at < b.created_at : a.id < b.id;
  });
}

} // namespace mailroom::providers::exec
