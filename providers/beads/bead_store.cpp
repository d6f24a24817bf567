// BeadStore: construction and every read path. Writes are in bead_store_write.cpp (send, reply),
// state.cpp (per-recipient changes) and registry.cpp; opening the file is in open.cpp.

#include "beads/bead_store.hpp"

#include <array>

#include <fmt/format.h>
#include <unistd.h>

#include "beads/rows.hpp"
#include "beads/sql.hpp"

namespace mailroom::providers::beads {

using db::Statement;

BeadStore::BeadStore(sqlite::Database db, const mail::Clock& clock, std::string id_prefix)
    : m_db(std::move(db)), m_clock(clock), m_id_prefix(std::move(id_prefix)),
      m_uid(static_cast<std::int64_t>(::getuid()))
{
  std::array<char, 256> host{};
  if (::gethostname(host.data(), host.size() - 1) == 0) {
    m_host = host.data();
  }
}

mail::Capabilities BeadStore::capabilities() const
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

Result<std::vector<mail::Message>> BeadStore::inbox(const mail::Mailbox& mailbox,
                                                          const mail::ListOptions& options)
{
  TRY_ASSIGN(Statement * statement,
             m_db.cached(options.include_read ? sql::k_select_open : sql::k_select_unread));
  const std::int64_t limit = options.limit ? static_cast<std::int64_t>(*options.limit) : -1;
  TRY(statement->bind(mailbox, limit));
  return detail::collect_messages(*statement);
}

Result<mail::CheckResult> BeadStore::check(const mail::Mailbox& mailbox, std::size_t limit)
{
  mail::CheckResult result;
  if (limit == 0) {
    TRY_ASSIGN(Statement * statement, m_db.cached(sql::k_count_unread));
    TRY(statement->bind(mailbox));
    TRY_ASSIGN(const bool has_row, statement->step());
    if (has_row) {
      result.unread = statement->get<std::int64_t>(0);
      statement->reset();
    }
    return result;
  }
  TRY_ASSIGN(Statement * statement, m_db.cached(sql::k_check));
  TRY(statement->bind(mailbox, static_cast<std::int64_t>(limit)));
  while (true) {
    TRY_ASSIGN(const bool has_row, statement->step());
    if (!has_row) {
      break;
    }
    result.unread = statement->get<std::int64_t>(0);
    if (!statement->is_null(1)) {
      result.messages.push_back(detail::message_from_row(*statement, 1));
    }
  }
  return result;
}

Result<mail::Counts> BeadStore::count(const mail::Mailbox& mailbox)
{
  TRY_ASSIGN(Statement * statement, m_db.cached(sql::k_count));
  TRY(statement->bind(mailbox));
  mail::Counts counts;
  TRY_ASSIGN(const bool has_row, statement->step());
  if (has_row) {
    counts.total = statement->get<std::int64_t>(0);
    counts.unread = statement->get<std::int64_t>(1);
    statement->reset();
  }
  return counts;
}

Result<BeadStore::Loaded> BeadStore::load(const mail::Mailbox& viewer,
                                                const mail::MessageId& id, bool allow_stranger)
{
  TRY_ASSIGN(Statement * statement, m_db.cached(sql::k_select_message));
  TRY(statement->bind(id, viewer));
  TRY_ASSIGN(const bool has_row, statement->step());
  if (!has_row) {
    return detail::not_found(id);
  }
  sqlite::ResetGuard reset(*statement);
  Loaded loaded;
  loaded.message = detail::message_from_row(*statement);
  loaded.is_recipient = statement->get<bool>(13);
  loaded.seq = statement->get<std::int64_t>(14);
  if (!loaded.is_recipient) {
    if (loaded.message.from != viewer && !allow_stranger) {
      return detail::not_recipient(viewer, id);
    }
    // The sender's own copy: nothing to read, nothing archived.
    loaded.message.read = true;
    loaded.message.archived = false;
  }
  return loaded;
}

Result<mail::Message> BeadStore::get(const mail::Mailbox& viewer, const mail::MessageId& id)
{
  TRY_ASSIGN(Loaded loaded, load(viewer, id));
  return std::move(loaded.message);
}

Result<mail::Message> BeadStore::read(const mail::Mailbox& viewer, const mail::MessageId& id,
                                            const mail::DeliverFn& deliver)
{
  TRY_ASSIGN(Loaded loaded, load(viewer, id));
  // Deliver first, with no transaction open: the read mark is kept only if the output landed.
  TRY(deliver(loaded.message));
  if (loaded.is_recipient && !loaded.message.read) {
    TRY(change(sql::k_mark_read, viewer, id, true));
  }
  return std::move(loaded.message);
}

Result<mail::ThreadResult> BeadStore::thread(const mail::Mailbox& viewer,
                                                   const std::string& thread_or_message_id)
{
  mail::ThreadResult result;
  {
    TRY_ASSIGN(Statement * resolve, m_db.cached(sql::k_resolve_thread));
    TRY(resolve->bind(thread_or_message_id));
    TRY_ASSIGN(const bool has_row, resolve->step());
    if (!has_row) {
      return make_error(ErrorCode::not_found,
                              fmt::format("thread \"{}\" not found", thread_or_message_id));
    }
    result.thread_id = resolve->get<std::string>(0);
    resolve->reset();
  }
  TRY_ASSIGN(Statement * statement, m_db.cached(sql::k_select_thread));
  TRY(statement->bind(result.thread_id, viewer));
  while (true) {
    TRY_ASSIGN(const bool has_row, statement->step());
    if (!has_row) {
      break;
    }
    mail::Message message = detail::message_from_row(*statement);
    if (!statement->get<bool>(13)) {
      message.read = true;
      message.archived = false;
    }
    result.messages.push_back(std::move(message));
  }
  return result;
}

Result<std::vector<mail::DeliveryStatus>> BeadStore::status(const mail::Mailbox& viewer,
                                                                  const mail::MessageId& id)
{
  TRY_ASSIGN(Loaded loaded, load(viewer, id));
  TRY_ASSIGN(Statement * statement, m_db.cached(sql::k_select_status));
  TRY(statement->bind(loaded.seq));
  std::vector<mail::DeliveryStatus> out;
  while (true) {
    TRY_ASSIGN(const bool has_row, statement->step());
    if (!has_row) {
      break;
    }
    mail::DeliveryStatus record;
    record.recipient = statement->get<std::string>(0);
    record.kind = statement->get<std::string>(1);
    record.delivered_at = statement->get<std::int64_t>(2);
    record.read_at = statement->get<std::optional<std::int64_t>>(3);
    record.archived_at = statement->get<std::optional<std::int64_t>>(4);
    out.push_back(std::move(record));
  }
  return out;
}

} // namespace mailroom::providers::beads
