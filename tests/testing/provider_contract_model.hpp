#pragma once

// The property test's model of a mailbox store (provider_contract_property.cpp): what each
// mailbox's inbox must hold, in which order, after any sequence of sends, replies and changes.
// It knows only the contract's rules, never a provider's.

#include <cstddef>
#include <map>
#include <optional>
#include <vector>

#include "mail/message.hpp"

namespace mailroom::testing::contract {

struct ModelDelivery {
  bool read = false;
  bool archived = false;
};

struct ModelMessage {
  mail::MessageId id;
  mail::Mailbox from;
  std::vector<mail::Mailbox> to;
  std::vector<mail::Mailbox> cc;
  mail::Priority priority = mail::Priority::normal;
  mail::UnixMillis created_at = 0;
  std::optional<mail::UnixMillis> expires_at;
  std::map<mail::Mailbox, ModelDelivery> deliveries;
};

class Model {
public:
  // Records a stored message; messages arrive in the order they are added.
  void add(ModelMessage message);

  bool empty() const { return m_messages.empty(); }
  const std::vector<ModelMessage>& messages() const { return m_messages; }
  // The message `id`, or nullptr.
  const ModelMessage* find(const mail::MessageId& id) const;
  // `mailbox`'s delivery of `id`, or nullptr when it has none (or `id` is unknown).
  ModelDelivery* delivery(const mail::Mailbox& mailbox, const mail::MessageId& id);

  // The contract's unread rule at `now`: delivered, not read, not archived, not expired.
  static bool is_unread(const ModelMessage& message, const ModelDelivery& delivery, mail::UnixMillis now);
  static bool is_expired(const ModelMessage& message, mail::UnixMillis now);

  // `mailbox`'s inbox at `now`, in inbox order (priority, then created_at, then arrival): unread
  // messages, or every unarchived one with `include_read`.
  std::vector<mail::MessageId> inbox(const mail::Mailbox& mailbox, bool include_read,
                                     mail::UnixMillis now) const;

private:
  std::vector<ModelMessage> m_messages; // arrival order
};

} // namespace mailroom::testing::contract
