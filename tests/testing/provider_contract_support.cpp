#include "testing/provider_contract_support.hpp"

#include <algorithm>
#include <tuple>

#include "mail/clock.hpp"
#include "render/transfer.hpp"

namespace mailroom::testing::contract {

Result<void> deliver_ok(const mail::Message& /*message*/)
{
  return {};
}

mail::Actor actor(const mail::Mailbox& mailbox)
{
  return mail::Actor{mailbox, mailbox, mail::SeenVia::command};
}

const mail::DeliveryState& state_of(const mail::Message& message)
{
  INFO("message ", message.id, " has no delivery state for this viewer");
  REQUIRE(message.state.has_value());
  return *message.state;
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

std::vector<mail::MessageId> ids_of(const std::vector<mail::ListedMessage>& messages)
{
  std::vector<mail::MessageId> ids;
  ids.reserve(messages.size());
  for (const mail::ListedMessage& listed : messages) {
    ids.push_back(listed.message.id);
  }
  return ids;
}

std::vector<mail::Mailbox> sorted(std::vector<mail::Mailbox> names)
{
  std::sort(names.begin(), names.end());
  return names;
}

bool contains(const std::vector<std::string>& list, const std::string& item)
{
  return std::find(list.begin(), list.end(), item) != list.end();
}

void check_inbox_order(const std::vector<mail::Message>& messages)
{
  for (std::size_t i = 1; i < messages.size(); ++i) {
    const mail::Message& a = messages[i - 1];
    const mail::Message& b = messages[i];
    INFO("inbox positions ", i - 1, " and ", i, ": ", a.id, " then ", b.id);
    CHECK(std::tie(a.priority, a.created_at) <= std::tie(b.priority, b.created_at));
  }
}

void check_chronological(const std::vector<mail::Message>& messages)
{
  for (std::size_t i = 1; i < messages.size(); ++i) {
    const mail::Message& a = messages[i - 1];
    const mail::Message& b = messages[i];
    INFO("positions ", i - 1, " and ", i, ": ", a.id, " then ", b.id);
    CHECK(a.created_at <= b.created_at);
  }
}

Fixture::Fixture(const ProviderMaker& make, const std::vector<mail::Mailbox>& mailboxes,
                 const mail::MailPolicy& policy)
    : m_put(make(policy))
{
  REQUIRE(m_put.provider != nullptr);
  m_facets = m_put.provider->facets();
  if (m_facets.registry != nullptr && !mailboxes.empty()) {
    MUST(reach(*m_put.provider).add_agents(mailboxes));
  }
}

mail::UnixMillis Fixture::now() const
{
  if (m_put.clock != nullptr) {
    return m_put.clock->now();
  }
  return mail::SystemClock().now();
}

void Fixture::tick()
{
  if (m_put.clock != nullptr) {
    m_put.clock->advance(1000);
  }
}

void Fixture::advance(mail::UnixMillis ms)
{
  REQUIRE(m_put.clock != nullptr);
  m_put.clock->advance(ms);
}

mail::SendRequest Fixture::request(const mail::Mailbox& from, std::vector<std::string> to,
                                   const std::string& subject, const std::string& body) const
{
  mail::SendRequest request;
  request.from = from;
  request.seen_via = mail::SeenVia::command; // as the CLI sends: the stores record what they are told
  request.to = std::move(to);
  request.subject = subject;
  request.body = body;
  return request;
}

mail::SendRequest Fixture::typed_request(const mail::Mailbox& from, const mail::Mailbox& to,
                                         const std::string& type, const std::string& subject) const
{
  mail::SendRequest typed = request(from, {to}, subject, "body");
  typed.type = type;
  return typed;
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

mail::ReplyRequest Fixture::reply_request(const mail::Mailbox& from, const mail::MessageId& id,
                                          const std::string& body)
{
  mail::ReplyRequest reply;
  reply.from = from;
  reply.seen_via = mail::SeenVia::command;
  reply.id = id;
  reply.body = body;
  return reply;
}

mail::SendReceipt Fixture::reply(const mail::Mailbox& from, const mail::MessageId& id,
                                 const std::string& body)
{
  return MUST(provider().reply(reply_request(from, id, body)));
}

std::vector<mail::Message> Fixture::inbox(const mail::Mailbox& mailbox, bool include_read,
                                          std::optional<std::size_t> limit)
{
  mail::ListQuery query;
  query.mailbox = mailbox;
  query.include_read = include_read;
  query.limit = limit;
  mail::ListResult listed = MUST(provider().list(query));
  std::vector<mail::Message> messages;
  for (mail::ListedMessage& entry : listed.messages) {
    CHECK_FALSE(entry.summary.has_value()); // summaries are for Box::sent
    messages.push_back(std::move(entry.message));
  }
  check_inbox_order(messages);
  const auto shown = static_cast<std::int64_t>(messages.size());
  // The unread rule: the viewer's delivery is unread and unarchived, and the message has not expired.
  const auto unread = std::count_if(messages.begin(), messages.end(), [](const mail::Message& m) {
    return m.unread() && !m.state->archived && !m.expired;
  });
  INFO("list of ", mailbox, include_read ? " (all)" : "");
  if (limit) {
    CHECK(shown <= static_cast<std::int64_t>(*limit));
    CHECK(listed.total >= shown);
  } else {
    CHECK(listed.total == shown);
    CHECK_FALSE(listed.has_more());
    CHECK(listed.unread == unread);
  }
  if (!include_read) {
    CHECK(unread == shown);
    CHECK(listed.total == listed.unread);
  }
  return messages;
}

std::vector<mail::MessageId> Fixture::inbox_ids(const mail::Mailbox& mailbox, bool include_read)
{
  return ids_of(inbox(mailbox, include_read));
}

mail::CheckResult Fixture::check(const mail::Mailbox& mailbox, std::size_t limit)
{
  return MUST(provider().check(mailbox, limit, std::nullopt));
}

mail::Message Fixture::read(const mail::Mailbox& viewer, const mail::MessageId& id)
{
  return MUST(provider().read(actor(viewer), id, deliver_ok));
}

mail::Message Fixture::get(const mail::Mailbox& viewer, const mail::MessageId& id)
{
  return MUST(provider().get(viewer, id));
}

mail::Counts Fixture::count(const mail::Mailbox& mailbox)
{
  return MUST(provider().count(mailbox));
}

Result<mail::ChangeOutcome> Fixture::change(const mail::Mailbox& mailbox, const mail::MessageId& id,
                                            mail::Change change)
{
  return provider().change(actor(mailbox), id, change);
}

void Fixture::expect_outcome(const Result<mail::ChangeOutcome>& result, mail::ChangeOutcome expected) const
{
  INFO("change -> ", describe(result));
  REQUIRE(result.ok());
  // A change that happened is always `changed`; only `already` may go unnoticed.
  if (m_put.exact_outcomes || expected == mail::ChangeOutcome::changed) {
    CHECK(result.value() == expected);
  }
}

std::vector<mail::Record> export_all(Fixture& f, std::optional<mail::UnixMillis> since)
{
  std::vector<mail::Record> records;
  mail::ExportRequest request;
  request.since = since;
  MUST(reach(f.provider()).export_records(request, [&](const mail::Record& record) {
    records.push_back(record);
    return Result<void>();
  }));
  return records;
}

std::vector<std::string> lines_of(const std::vector<mail::Record>& records)
{
  std::vector<std::string> lines;
  for (const mail::Record& record : records) {
    lines.push_back(render::encode_record(record));
  }
  return lines;
}

Result<mail::ImportReport> import_into(Fixture& f, const std::vector<mail::Record>& records)
{
  mail::VectorSource source(records);
  return reach(f.provider()).import_records(source);
}

} // namespace mailroom::testing::contract
