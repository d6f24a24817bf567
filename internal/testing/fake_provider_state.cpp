// FakeProvider: listing, viewing and the per-recipient state changes.

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "testing/fake_provider.hpp"

namespace mailroom::testing {

using mail::ChangeOutcome;

namespace {

bool inbox_order(const mail::Message& a, const mail::Message& b)
{
  if (a.priority != b.priority) {
    return a.priority < b.priority;
  }
  if (a.created_at != b.created_at) {
    return a.created_at < b.created_at;
  }
  return a.id < b.id;
}

Error not_found(const mail::MessageId& id)
{
  return make_error(ErrorCode::not_found, fmt::format("message \"{}\" not found", id));
}

} // namespace

FakeProvider::Stored* FakeProvider::find(const mail::MessageId& id)
{
  const auto it = std::find_if(m_messages.begin(), m_messages.end(),
                               [&](const Stored& stored) { return stored.message.id == id; });
  return it == m_messages.end() ? nullptr : &*it;
}

Result<FakeProvider::Stored*> FakeProvider::find_visible(const mail::Mailbox& viewer,
                                                         const mail::MessageId& id)
{
  Stored* stored = find(id);
  if (stored == nullptr) {
    return not_found(id);
  }
  const bool received = std::any_of(stored->deliveries.begin(), stored->deliveries.end(),
                                    [&](const Delivery& d) { return d.recipient == viewer; });
  if (!received && stored->message.from != viewer) {
    return make_error(ErrorCode::not_recipient,
                      fmt::format("\"{}\" is not a recipient of message \"{}\"", viewer, id));
  }
  return stored;
}

Result<FakeProvider::Delivery*> FakeProvider::find_delivery(const mail::Mailbox& mailbox,
                                                            const mail::MessageId& id)
{
  Stored* stored = find(id);
  if (stored == nullptr) {
    return not_found(id);
  }
  for (Delivery& delivery : stored->deliveries) {
    if (delivery.recipient == mailbox) {
      return &delivery;
    }
  }
  return make_error(ErrorCode::not_recipient,
                    fmt::format("\"{}\" is not a recipient of message \"{}\"", mailbox, id));
}

mail::Message FakeProvider::view(const Stored& stored, const mail::Mailbox& viewer) const
{
  mail::Message message = stored.message;
  // A sender who is not a recipient has nothing unread and nothing archived.
  message.read = true;
  message.archived = false;
  for (const Delivery& delivery : stored.deliveries) {
    if (delivery.recipient == viewer) {
      message.read = delivery.read_at.has_value();
      message.archived = delivery.archived_at.has_value();
    }
  }
  return message;
}

std::vector<mail::Message> FakeProvider::open_messages(const mail::Mailbox& mailbox,
                                                       bool include_read) const
{
  std::vector<mail::Message> result;
  for (const Stored& stored : m_messages) {
    for (const Delivery& delivery : stored.deliveries) {
      if (delivery.recipient == mailbox && !delivery.archived_at
          && (include_read || !delivery.read_at)) {
        result.push_back(view(stored, mailbox));
      }
    }
  }
  std::sort(result.begin(), result.end(), inbox_order);
  return result;
}

Result<std::vector<mail::Message>> FakeProvider::inbox(const mail::Mailbox& mailbox,
                                                       const mail::ListOptions& options)
{
  if (auto failure = begin("inbox")) {
    return *std::move(failure);
  }
  std::vector<mail::Message> result = open_messages(mailbox, options.include_read);
  if (options.limit && result.size() > *options.limit) {
    result.resize(*options.limit);
  }
  return result;
}

Result<mail::CheckResult> FakeProvider::check(const mail::Mailbox& mailbox, std::size_t limit)
{
  if (auto failure = begin("check")) {
    return *std::move(failure);
  }
  mail::CheckResult result;
  result.messages = open_messages(mailbox, false);
  result.unread = static_cast<std::int64_t>(result.messages.size());
  if (result.messages.size() > limit) {
    result.messages.resize(limit);
  }
  return result;
}

Result<mail::Counts> FakeProvider::count(const mail::Mailbox& mailbox)
{
  if (auto failure = begin("count")) {
    return *std::move(failure);
  }
  mail::Counts counts;
  for (const mail::Message& message : open_messages(mailbox, true)) {
    ++counts.total;
    if (!message.read) {
      ++counts.unread;
    }
  }
  return counts;
}

Result<mail::Message> FakeProvider::get(const mail::Mailbox& viewer, const mail::MessageId& id)
{
  if (auto failure = begin("get")) {
    return *std::move(failure);
  }
  TRY_ASSIGN(const Stored* stored, find_visible(viewer, id));
  return view(*stored, viewer);
}

Result<mail::Message> FakeProvider::read(const mail::Mailbox& viewer, const mail::MessageId& id,
                                         const mail::DeliverFn& deliver)
{
  if (auto failure = begin("read")) {
    return *std::move(failure);
  }
  TRY_ASSIGN(Stored* stored, find_visible(viewer, id));
  mail::Message message = view(*stored, viewer);
  // The mark is kept only when the caller really handed the message on (a hook that failed to
  // print must not lose mail).
  TRY(deliver(message));
  for (Delivery& delivery : stored->deliveries) {
    if (delivery.recipient == viewer && !delivery.read_at) {
      delivery.read_at = m_clock.now();
      ++m_state_changes;
    }
  }
  touch(viewer);
  return message;
}

Result<ChangeOutcome> FakeProvider::mark_read(const mail::Mailbox& mailbox, const mail::MessageId& id)
{
  if (auto failure = begin("mark_read")) {
    return *std::move(failure);
  }
  TRY_ASSIGN(Delivery* delivery, find_delivery(mailbox, id));
  touch(mailbox);
  if (delivery->read_at) {
    return ChangeOutcome::already;
  }
  delivery->read_at = m_clock.now();
  ++m_state_changes;
  return ChangeOutcome::changed;
}

Result<ChangeOutcome> FakeProvider::mark_unread(const mail::Mailbox& mailbox,
                                                const mail::MessageId& id)
{
  if (auto failure = begin("mark_unread")) {
    return *std::move(failure);
  }
  TRY_ASSIGN(Delivery* delivery, find_delivery(mailbox, id));
  touch(mailbox);
  if (!delivery->read_at) {
    return ChangeOutcome::already;
  }
  delivery->read_at.reset();
  ++m_state_changes;
  return ChangeOutcome::changed;
}

Result<ChangeOutcome> FakeProvider::archive(const mail::Mailbox& mailbox, const mail::MessageId& id)
{
  if (auto failure = begin("archive")) {
    return *std::move(failure);
  }
  TRY_ASSIGN(Delivery* delivery, find_delivery(mailbox, id));
  touch(mailbox);
  if (delivery->archived_at) {
    return ChangeOutcome::already;
  }
  delivery->archived_at = m_clock.now();
  ++m_state_changes;
  return ChangeOutcome::changed;
}

Result<ChangeOutcome> FakeProvider::unarchive(const mail::Mailbox& mailbox, const mail::MessageId& id)
{
  if (auto failure = begin("unarchive")) {
    return *std::move(failure);
  }
  if (!m_capabilities.unarchive) {
    return make_error(ErrorCode::unsupported, "this provider cannot unarchive");
  }
  TRY_ASSIGN(Delivery* delivery, find_delivery(mailbox, id));
  touch(mailbox);
  if (!delivery->archived_at) {
    return ChangeOutcome::already;
  }
  delivery->archived_at.reset();
  ++m_state_changes;
  return ChangeOutcome::changed;
}

Result<std::vector<mail::MessageId>> FakeProvider::mark_all_read(const mail::Mailbox& mailbox)
{
  if (auto failure = begin("mark_all_read")) {
    return *std::move(failure);
  }
  std::vector<mail::MessageId> changed;
  for (const mail::Message& message : open_messages(mailbox, false)) {
    Delivery* delivery = find_delivery(mailbox, message.id).value();
    delivery->read_at = m_clock.now();
    ++m_state_changes;
    changed.push_back(message.id);
  }
  touch(mailbox);
  return changed;
}

Result<mail::ThreadResult> FakeProvider::thread(const mail::Mailbox& viewer,
                                                const std::string& thread_or_message_id)
{
  if (auto failure = begin("thread")) {
    return *std::move(failure);
  }
  mail::ThreadResult result;
  const bool is_thread = std::any_of(m_messages.begin(), m_messages.end(), [&](const Stored& s) {
    return s.message.thread_id == thread_or_message_id;
  });
  if (is_thread) {
    result.thread_id = thread_or_message_id;
  } else if (const Stored* named = find(thread_or_message_id)) {
    result.thread_id = named->message.thread_id;
  } else {
    return make_error(ErrorCode::not_found,
                      fmt::format("no thread or message \"{}\"", thread_or_message_id));
  }
  for (const Stored& stored : m_messages) {
    if (stored.message.thread_id != result.thread_id) {
      continue;
    }
    const bool received = std::any_of(stored.deliveries.begin(), stored.deliveries.end(),
                                      [&](const Delivery& d) { return d.recipient == viewer; });
    if (received || stored.message.from == viewer) {
      result.messages.push_back(view(stored, viewer));
    }
  }
  std::sort(result.messages.begin(), result.messages.end(),
            [](const mail::Message& a, const mail::Message& b) {
              return a.created_at != b.created_at ? a.created_at < b.created_at : a.id < b.id;
            });
  return result;
}

Result<std::vector<mail::DeliveryStatus>> FakeProvider::status(const mail::Mailbox& viewer,
                                                               const mail::MessageId& id)
{
  if (auto failure = begin("status")) {
    return *std::move(failure);
  }
  if (!m_capabilities.status) {
    return make_error(ErrorCode::unsupported, "this provider does not keep delivery status");
  }
  TRY_ASSIGN(const Stored* stored, find_visible(viewer, id));
  std::vector<mail::DeliveryStatus> result;
  for (const Delivery& delivery : stored->deliveries) {
    result.push_back(mail::DeliveryStatus{delivery.recipient, delivery.kind, delivery.delivered_at,
                                          delivery.read_at, delivery.archived_at});
  }
  return result;
}

} // namespace mailroom::testing
