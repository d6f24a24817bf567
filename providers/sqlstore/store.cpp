// SqlStore: construction, facets, loading one message and the change signal. The
// operations are in send.cpp, lists.cpp, state.cpp, registry.cpp and views.cpp.

#include "sqlstore/store.hpp"

#include <array>

#include <unistd.h>

#include "sqlstore/rows.hpp"

namespace mailroom::providers::sqlstore {

Origin current_origin()
{
  Origin origin;
  origin.uid = static_cast<std::int64_t>(::getuid());
  origin.pid = static_cast<std::int64_t>(::getpid());
  std::array<char, 256> host{};
  if (::gethostname(host.data(), host.size() - 1) == 0) {
    origin.host = host.data();
  }
  return origin;
}

SqlStore::SqlStore(std::unique_ptr<Engine> engine, const Queries& queries, mail::MailPolicy policy,
                   Origin origin)
    : m_engine(std::move(engine)), m_sql(queries), m_policy(std::move(policy)), m_origin(std::move(origin))
{
}

mail::Facets SqlStore::facets()
{
  mail::Facets facets;
  facets.registry = this;
  facets.views = this;
  facets.health = this;
  facets.claims = this;
  facets.events = this;
  facets.signals = this;
  facets.transfer = this;
  facets.whole_sends = this;
  facets.unarchive = this;
  facets.requests = this;
  facets.schedules = this;
  facets.wakes = this;
  return facets;
}

Result<mail::Message> SqlStore::load(db::Connection& connection, const mail::Mailbox& viewer,
                                     const mail::MessageId& id, std::optional<std::size_t> body_bytes)
{
  TRY_ASSIGN(mail::UnixMillis now, this->now());
  TRY_ASSIGN(db::Statement * select, connection.cached(m_sql.core.select_message));
  const std::int64_t bound = body_bound(body_bytes);
  TRY(select->bind(id, viewer, bound));
  TRY_ASSIGN(const bool found, select->step());
  if (!found) {
    return not_found(id);
  }
  db::ResetGuard reset(*select);
  return message_from_row(*select, now);
}

Result<mail::Message> SqlStore::get(const mail::Mailbox& viewer, const mail::MessageId& id)
{
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  return load(*reader, viewer, id);
}

Result<std::unique_ptr<mail::ChangeSignal>> SqlStore::change_signal()
{
  return m_engine->change_signal();
}

} // namespace mailroom::providers::sqlstore
