#include "testing/fake_provider.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "mail/address.hpp"

namespace mailroom::testing {


mail::Capabilities all_capabilities()
{
  mail::Capabilities caps;
  caps.registry = true;
  caps.cc = true;
  caps.unarchive = true;
  caps.status = true;
  caps.multi_recipient = true;
  caps.idempotency = true;
  return caps;
}

FakeProvider::FakeProvider(const mail::Clock& clock, mail::Capabilities capabilities)
    : m_clock(clock), m_capabilities(capabilities)
{
}

mail::Capabilities FakeProvider::capabilities() const
{
  return m_capabilities;
}

void FakeProvider::fail_next(const std::string& operation, Error error)
{
  m_failures.insert_or_assign(operation, std::move(error));
}

std::optional<Error> FakeProvider::begin(const std::string& operation)
{
  m_operations.push_back(operation);
  const auto failure = m_failures.find(operation);
  if (failure == m_failures.end()) {
    return std::nullopt;
  }
  Error error = std::move(failure->second);
  m_failures.erase(failure);
  return error;
}

Result<mail::SendReceipt> FakeProvider::send(const mail::SendRequest& request)
{
  if (auto failure = begin("send")) {
    return *std::move(failure);
  }
  Draft draft;
  draft.from = request.from;
  draft.to = request.to;
  draft.cc = request.cc;
  draft.broadcast = request.broadcast;
  draft.require_registered = request.require_registered;
  draft.subject = request.subject;
  draft.body = request.body;
  draft.priority = request.priority;
  draft.type = request.type;
  draft.idempotency_key = request.idempotency_key;
  draft.content = Content{std::nullopt, request.to,      request.cc,       request.broadcast, false,
                          request.subject, request.body, request.priority, request.type};
  return store(std::move(draft));
}

Result<mail::SendReceipt> FakeProvider::reply(const mail::MessageId& id,
                                              const mail::ReplyRequest& request)
{
  if (auto failure = begin("reply")) {
    return *std::move(failure);
  }
  TRY_ASSIGN(const Stored* original, find_visible(request.from, id));
  const mail::Message& message = original->message;

  Draft draft;
  draft.from = request.from;
  draft.to.push_back(message.from);
  if (request.reply_all) {
    draft.to.insert(draft.to.end(), message.to.begin(), message.to.end());
    draft.cc = message.cc;
    // Everyone on the original except the replier; dedupe happens in store().
    const auto is_replier = [&](const mail::Mailbox& name) { return name == request.from; };
    std::erase_if(draft.to, is_replier);
    std::erase_if(draft.cc, is_replier);
  }
  // Replies go to people already in the conversation, so they are not held to the registry.
  draft.require_registered = false;
  draft.subject = request.subject ? *request.subject : mail::reply_subject(message.subject);
  draft.body = request.body;
  draft.priority = request.priority;
  draft.type = request.type;
  draft.thread_id = message.thread_id;
  draft.reply_to = id;
  draft.idempotency_key = request.idempotency_key;
  draft.content = Content{id, {}, {}, false, request.reply_all, request.subject, request.body,
                          request.priority, request.type};
  return store(std::move(draft));
}

Result<mail::SendReceipt> FakeProvider::store(Draft draft)
{
  if (draft.broadcast && !m_capabilities.registry) {
    return make_error(ErrorCode::unsupported, "@all needs a provider with a registry");
  }
  if (!draft.cc.empty() && !m_capabilities.cc) {
    return make_error(ErrorCode::unsupported, "this provider does not support cc");
  }
  if ((draft.broadcast || draft.to.size() + draft.cc.size() > 1) && !m_capabilities.multi_recipient) {
    return make_error(ErrorCode::unsupported,
                      "this provider takes one recipient per message");
  }
  if (draft.idempotency_key && !m_capabilities.idempotency) {
    return make_error(ErrorCode::unsupported, "this provider does not support idempotency keys");
  }
  if (draft.idempotency_key) {
    for (const Stored& stored : m_messages) {
      if (stored.message.from == draft.from && stored.idempotency_key == draft.idempotency_key) {
        if (stored.content == draft.content) {
          return receipt(stored, true);
        }
        return make_error(ErrorCode::conflict,
                          fmt::format("idempotency key \"{}\" was used for a different message",
                                      *draft.idempotency_key));
      }
    }
  }

  // Explicit names are checked against the registry; the broadcast audience is registered already.
  std::vector<mail::Mailbox> explicit_names = draft.to;
  explicit_names.insert(explicit_names.end(), draft.cc.begin(), draft.cc.end());
  if (auto error = check_recipients(draft, explicit_names)) {
    return *std::move(error);
  }

  std::vector<mail::Mailbox> to;
  std::vector<mail::Mailbox> cc;
  const auto add_unique = [&](std::vector<mail::Mailbox>& list, const mail::Mailbox& name) {
    if (std::find(to.begin(), to.end(), name) == to.end()
        && std::find(cc.begin(), cc.end(), name) == cc.end()) {
      list.push_back(name);
    }
  };
  for (const mail::Mailbox& name : draft.to) {
    add_unique(to, name);
  }
  if (draft.broadcast) {
    for (const mail::Mailbox& name : broadcast_audience(draft.from)) {
      add_unique(to, name);
    }
  }
  // Added after every `to`, so a mailbox in both lists keeps its `to` record.
  for (const mail::Mailbox& name : draft.cc) {
    add_unique(cc, name);
  }
  if (to.empty() && cc.empty()) {
    return make_error(ErrorCode::usage, draft.broadcast ? "@all has no recipients besides the sender"
                                                        : "no recipients");
  }

  const mail::UnixMillis now = m_clock.now();
  Stored stored;
  mail::Message& message = stored.message;
  message.id = fmt::format("fake-{}", m_messages.size() + 1);
  message.from = draft.from;
  message.to = to;
  message.cc = cc;
  message.subject = std::move(draft.subject);
  message.body = std::move(draft.body);
  message.created_at = now;
  if (draft.thread_id.empty()) {
    message.thread_id = fmt::format("thread-{:012x}", m_next_thread++);
  } else {
    message.thread_id = draft.thread_id;
  }
  message.reply_to = draft.reply_to;
  message.priority = draft.priority;
  message.type = std::move(draft.type);
  for (const mail::Mailbox& name : to) {
    stored.deliveries.push_back(Delivery{name, "to", now, std::nullopt, std::nullopt});
  }
  for (const mail::Mailbox& name : cc) {
    stored.deliveries.push_back(Delivery{name, "cc", now, std::nullopt, std::nullopt});
  }
  stored.idempotency_key = std::move(draft.idempotency_key);
  stored.content = std::move(draft.content);
  m_messages.push_back(std::move(stored));
  ++m_state_changes;
  register_mailbox(draft.from);
  touch(draft.from);
  return receipt(m_messages.back(), false);
}

std::optional<Error> FakeProvider::check_recipients(const Draft& draft,
                                                    const std::vector<mail::Mailbox>& explicit_names) const
{
  if (!m_capabilities.registry || !draft.require_registered) {
    return std::nullopt;
  }
  std::vector<std::string> known;
  for (const auto& entry : m_registry) {
    known.push_back(entry.first);
  }
  for (const mail::Mailbox& name : explicit_names) {
    if (name == mail::k_human || m_registry.count(name) != 0) {
      continue;
    }
    Error error = make_error(ErrorCode::unknown_recipient, fmt::format("unknown recipient \"{}\"", name));
    error.input = name;
    error.suggestions = mail::suggest_mailboxes(name, known);
    return error;
  }
  return std::nullopt;
}

std::vector<mail::Mailbox> FakeProvider::broadcast_audience(const mail::Mailbox& from) const
{
  std::vector<mail::Mailbox> audience;
  for (const auto& entry : m_registry) {
    if (entry.first != from && entry.first != mail::k_human) {
      audience.push_back(entry.first);
    }
  }
  return audience;
}

mail::SendReceipt FakeProvider::receipt(const Stored& stored, bool replayed) const
{
  mail::SendReceipt result;
  result.message = view(stored, stored.message.from);
  for (const Delivery& delivery : stored.deliveries) {
    result.recipients.push_back(delivery.recipient);
  }
  result.replayed = replayed;
  return result;
}

Result<void> FakeProvider::ensure_registered(const mail::Mailbox& mailbox)
{
  if (auto failure = begin("ensure_registered")) {
    return *std::move(failure);
  }
  register_mailbox(mailbox);
  return {};
}

Result<std::vector<mail::Agent>> FakeProvider::agents()
{
  if (auto failure = begin("agents")) {
    return *std::move(failure);
  }
  if (!m_capabilities.registry) {
    return make_error(ErrorCode::unsupported, "this provider has no registry");
  }
  std::vector<mail::Agent> result;
  for (const auto& [name, registration] : m_registry) {
    mail::Agent agent;
    agent.name = name;
    agent.registered_at = registration.registered_at;
    agent.last_seen = registration.last_seen;
    agent.unread = static_cast<std::int64_t>(open_messages(name, false).size());
    result.push_back(std::move(agent));
  }
  return result;
}

Result<std::vector<mail::Mailbox>> FakeProvider::add_agents(const std::vector<mail::Mailbox>& names)
{
  if (auto failure = begin("add_agents")) {
    return *std::move(failure);
  }
  if (!m_capabilities.registry) {
    return make_error(ErrorCode::unsupported, "this provider has no registry");
  }
  std::vector<mail::Mailbox> added;
  for (const mail::Mailbox& name : names) {
    if (m_registry.count(name) == 0) {
      register_mailbox(name);
      added.push_back(name);
    }
  }
  return added;
}

Result<void> FakeProvider::remove_agent(const mail::Mailbox& name)
{
  if (auto failure = begin("remove_agent")) {
    return *std::move(failure);
  }
  if (!m_capabilities.registry) {
    return make_error(ErrorCode::unsupported, "this provider has no registry");
  }
  if (m_registry.erase(name) == 0) {
    return make_error(ErrorCode::not_found, fmt::format("no agent \"{}\"", name));
  }
  ++m_state_changes;
  return {};
}

void FakeProvider::register_mailbox(const mail::Mailbox& mailbox)
{
  if (!m_capabilities.registry || m_registry.count(mailbox) != 0) {
    return;
  }
  m_registry.emplace(mailbox, Registration{m_clock.now(), std::nullopt});
  ++m_state_changes;
}

void FakeProvider::touch(const mail::Mailbox& mailbox)
{
  const auto entry = m_registry.find(mailbox);
  if (entry != m_registry.end()) {
    entry->second.last_seen = m_clock.now();
  }
}

} // namespace mailroom::testing
