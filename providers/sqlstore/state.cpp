// Per-recipient state changes: each is one UPDATE … WHERE inside a write transaction, so two
// processes changing the same delivery cannot both "change" it, and nothing is read-then-written
// from outside the transaction.

#include "sqlstore/rows.hpp"
#include "sqlstore/store.hpp"
#include "text/strings.hpp"
#include "util/random.hpp"

namespace mailroom::providers::sqlstore {

namespace {

std::optional<std::string> acted_by(const mail::Actor& actor)
{
  if (actor.acted_by.empty() || actor.acted_by == actor.mailbox) {
    return std::nullopt;
  }
  return actor.acted_by;
}

// The event of `type` on `actor`'s delivery of `id`, by whoever acted (an operator acting for
// the mailbox, or the mailbox itself).
mail::EventDraft event_of(mail::EventType type, const mail::MessageId& id, const mail::Actor& actor)
{
  const mail::Mailbox& by = actor.acted_by.empty() ? actor.mailbox : actor.acted_by;
  return mail::EventDraft{type, id, actor.mailbox, by};
}

// The event a per-recipient change writes.
mail::EventType event_type_of(mail::Change change)
{
  switch (change) {
  case mail::Change::mark_read:
    return mail::EventType::read;
  case mail::Change::mark_unread:
    return mail::EventType::unread;
  case mail::Change::archive:
  case mail::Change::remove: // stored as an archive, and shown as one
    return mail::EventType::archived;
  case mail::Change::unarchive:
    return mail::EventType::unarchived;
  case mail::Change::ack:
    return mail::EventType::acked;
  }
  return mail::EventType::read;
}

// Why an UPDATE of `mailbox`'s delivery of `id` changed nothing, asked in the same transaction
// (`delivery_of` is CoreQueries::delivery_of): an unknown id or a mailbox that is not a recipient
// is an error; otherwise the delivery was already so.
Result<void> why_unchanged(db::Connection& c, std::string_view delivery_of, const mail::MessageId& id,
                           const mail::Mailbox& mailbox)
{
  TRY_ASSIGN(db::Statement * lookup, c.cached(delivery_of));
  TRY(lookup->bind(id, mailbox));
  TRY_ASSIGN(const bool exists, lookup->step());
  if (!exists) {
    return not_found(id);
  }
  db::ResetGuard reset(*lookup);
  if (!lookup->get<bool>("has_delivery")) {
    return not_recipient(mailbox, id);
  }
  return {};
}

} // namespace

Result<mail::Message> SqlStore::read(const mail::Actor& actor, const mail::MessageId& id,
                                     const mail::DeliverFn& deliver)
{
  mail::Message message;
  {
    TRY_ASSIGN(db::Connection * reader, m_engine->reader());
    TRY_ASSIGN(message, load(*reader, actor.mailbox, id));
  }
  if (!message.state && message.from != actor.mailbox) {
    return not_recipient(actor.mailbox, id);
  }
  // Deliver first, with no transaction open: the read mark is kept only if the output landed.
  TRY(deliver(message));
  if (message.state && !message.state->read) {
    TRY(change(actor, id, mail::Change::mark_read));
  }
  return message;
}

Result<std::optional<mail::Message>> SqlStore::take(const mail::Actor& actor, const mail::MessageId& id,
                                                    const mail::DeliverFn& deliver)
{
  const std::optional<std::string> by = acted_by(actor);
  const std::string token = text::to_hex(util::random_bytes(16));
  // The conditional hold is the take: of several takers only one changes the row. The message
  // stays unread while it is written, so a taker that dies now (SIGKILL) loses nothing.
  TRY_ASSIGN(
      std::optional<mail::Message> taken,
      write([&](db::Connection& c) -> Result<std::optional<mail::Message>> {
        TRY_ASSIGN(const mail::UnixMillis now, this->now());
        TRY_ASSIGN(db::Statement * hold, c.cached(m_sql.core.take_hold));
        TRY(hold->bind(id, actor.mailbox, token, by ? *by : actor.mailbox, now + mail::k_take_lease_ms, now));
        TRY_ASSIGN(const std::int64_t changed, hold->exec());
        if (changed == 0) {
          TRY(why_unchanged(c, m_sql.core.delivery_of, id, actor.mailbox));
          return std::optional<mail::Message>(); // read already, or another taker holds it
        }
        TRY_ASSIGN(mail::Message message, load(c, actor.mailbox, id));
        return std::optional<mail::Message>(std::move(message));
      }));
  if (!taken) {
    return taken;
  }
  // Written with no transaction open, then marked read; not written, it is let go unread.
  auto delivered = deliver(*taken);
  if (!delivered.ok()) {
    (void)write([&](db::Connection& c) -> Result<void> {
      TRY_ASSIGN(db::Statement * release, c.cached(m_sql.core.take_release));
      TRY(release->bind(id, actor.mailbox, token));
      TRY(release->exec());
      return {};
    });
    return std::move(delivered).error();
  }
  TRY(write([&](db::Connection& c) -> Result<void> {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    TRY_ASSIGN(db::Statement * mark, c.cached(m_sql.core.take_mark));
    TRY(mark->bind(id, actor.mailbox, token, now, by));
    TRY_ASSIGN(const std::int64_t marked, mark->exec());
    if (marked == 0) {
      // Read meanwhile (`read`, or another taker after the hold ran out): theirs stands.
      TRY_ASSIGN(db::Statement * release, c.cached(m_sql.core.take_release));
      TRY(release->bind(id, actor.mailbox, token));
      TRY(release->exec());
      return {};
    }
    if (actor.seen_via) {
      TRY(record_presence(c, by ? *by : actor.mailbox, now, 0, *actor.seen_via));
    }
    return record_events(c, now, {event_of(mail::EventType::read, id, actor)});
  }));
  taken->state->read = true; // as the mailbox sees it after the mark
  return taken;
}

Result<mail::ChangeOutcome> SqlStore::change(const mail::Actor& actor, const mail::MessageId& id,
                                             mail::Change change)
{
  std::string_view sql = m_sql.core.mark_read;
  switch (change) {
  case mail::Change::mark_read:
    sql = m_sql.core.mark_read;
    break;
  case mail::Change::mark_unread:
    sql = m_sql.core.mark_unread;
    break;
  case mail::Change::archive:
  case mail::Change::remove:
    sql = m_sql.core.archive;
    break; // delete is an archive (contract)
  case mail::Change::unarchive:
    sql = m_sql.core.unarchive;
    break;
  case mail::Change::ack:
    sql = m_sql.core.ack;
    break;
  }
  const std::optional<std::string> by = acted_by(actor);
  return write([&](db::Connection& c) -> Result<mail::ChangeOutcome> {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    TRY_ASSIGN(db::Statement * update, c.cached(sql));
    TRY(update->bind(id, actor.mailbox, now, by));
    TRY_ASSIGN(const std::int64_t changed, update->exec());
    if (changed == 0) {
      TRY(why_unchanged(c, m_sql.core.delivery_of, id, actor.mailbox));
      return mail::ChangeOutcome::already;
    }
    if (actor.seen_via) {
      TRY(record_presence(c, by ? *by : actor.mailbox, now, 0, *actor.seen_via));
    }
    TRY(record_events(c, now, {event_of(event_type_of(change), id, actor)}));
    return mail::ChangeOutcome::changed;
  });
}

Result<std::vector<mail::MessageId>> SqlStore::mark_all_read(const mail::Mailbox& mailbox)
{
  return write([&](db::Connection& c) -> Result<std::vector<mail::MessageId>> {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    // The ids first, in inbox order, then one UPDATE of the same rows; both under the write lock.
    TRY_ASSIGN(db::Statement * select, c.cached(m_sql.core.select_unread_ids));
    TRY(select->bind(mailbox, now));
    std::vector<mail::MessageId> ids;
    TRY(select->for_each_row([&](const db::Statement& row) { ids.push_back(row.get<std::string>("id")); }));
    if (ids.empty()) {
      return ids;
    }
    TRY_ASSIGN(db::Statement * update, c.cached(m_sql.core.mark_all_read));
    TRY(update->bind(mailbox, now));
    TRY(update->exec());
    std::vector<mail::EventDraft> events;
    events.reserve(ids.size());
    for (const mail::MessageId& id : ids) {
      events.push_back(mail::EventDraft{mail::EventType::read, id, mailbox, mailbox});
    }
    TRY(record_events(c, now, events));
    return ids;
  });
}

} // namespace mailroom::providers::sqlstore
