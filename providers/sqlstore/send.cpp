// Sending and replying: compose decides, this file stores. Everything happens in one write
// transaction, so a message is stored whole (with its deliveries, key, registrations and the
// reply's acks) or not at all.

#include <array>
#include <optional>

#include <fmt/format.h>

#include "mail/compose.hpp"
#include "mail/message_fields.hpp"
#include "sqlstore/rows.hpp"
#include "sqlstore/store.hpp"
#include "text/strings.hpp"

namespace mailroom::providers::sqlstore {

namespace {

mail::SendReceipt receipt_of(const mail::Message& message, bool replayed)
{
  mail::SendReceipt receipt;
  receipt.recipients = message.to;
  receipt.recipients.insert(receipt.recipients.end(), message.cc.begin(), message.cc.end());
  receipt.message = message;
  receipt.replayed = replayed;
  return receipt;
}

// The receipt of a newly stored message, as its sender sees it: a sender who is also a recipient
// sees her own fresh delivery (as get and a replay show it), any other sender no state.
mail::SendReceipt fresh_receipt(const mail::Composed& composed)
{
  mail::SendReceipt receipt = receipt_of(composed.message, false);
  for (const mail::PlannedDelivery& delivery : composed.deliveries) {
    if (delivery.recipient == composed.message.from) {
      mail::DeliveryState state;
      state.ack_state = delivery.ack_state;
      receipt.message.state = state;
    }
  }
  return receipt;
}

} // namespace

Result<std::int64_t> insert_message_row(db::Connection& c, const Queries& sql, Engine& engine,
                                        const mail::Message& m)
{
  TRY_ASSIGN(db::Statement * insert_message, c.cached(sql.core.insert_message));
  // The joined lists must outlive the statement's run: engines may bind text without copying it.
  std::array<std::string, mail::count_message_fields(mail::FieldKind::names)> joined;
  std::size_t lists = 0;
  int parameter = 0;
  Result<void> bound;
  mail::for_each_message_field(
      [&](auto kind, const mail::MessageField& /*field*/, const auto& value) {
        constexpr mail::FieldKind k = decltype(kind)::value;
        ++parameter;
        if (!bound.ok()) {
          return;
        }
        if constexpr (k == mail::FieldKind::text || k == mail::FieldKind::name || k == mail::FieldKind::hex) {
          bound = insert_message->bind_text(parameter, value);
        } else if constexpr (k == mail::FieldKind::optional_text || k == mail::FieldKind::optional_hex ||
                             k == mail::FieldKind::optional_millis) {
          if (!value) {
            bound = insert_message->bind_null(parameter);
          } else if constexpr (k == mail::FieldKind::optional_millis) {
            bound = insert_message->bind_int(parameter, *value);
          } else {
            bound = insert_message->bind_text(parameter, *value);
          }
        } else if constexpr (k == mail::FieldKind::names) {
          joined[lists] = join_names(value);
          bound = insert_message->bind_text(parameter, joined[lists++]);
        } else if constexpr (k == mail::FieldKind::body) {
          bound = insert_message->bind_blob(parameter, value);
        } else if constexpr (k == mail::FieldKind::millis || k == mail::FieldKind::integer) {
          bound = insert_message->bind_int(parameter, value);
        } else if constexpr (k == mail::FieldKind::priority) {
          bound = insert_message->bind_int(parameter, static_cast<int>(value));
        } else {
          static_assert(mail::k_unhandled_field_kind<k>);
        }
      },
      m);
  TRY(std::move(bound));
  // The columns the stores keep beside the body (message_sql.hpp).
  TRY(insert_message->bind_int(parameter + 1, static_cast<std::int64_t>(m.body.size())));
  TRY(insert_message->bind_blob(parameter + 2, preview_of(m.body)));
  TRY_ASSIGN(const bool returned, insert_message->step());
  if (!returned) {
    return make_error(ErrorCode::store_error, "storing the message returned no row");
  }
  const std::int64_t seq = insert_message->get<std::int64_t>("seq");
  // Run the statement to its end: an INSERT … RETURNING that is reset early is not complete.
  TRY_ASSIGN(const bool more, insert_message->step());
  if (more) {
    insert_message->reset();
  }
  TRY(engine.mark_visible(c, m.from, seq));
  return seq;
}

Result<void> SqlStore::insert(db::Connection& c, const mail::Composed& composed,
                              std::vector<mail::EventDraft> events)
{
  const mail::Message& m = composed.message;
  const int priority = static_cast<int>(m.priority);
  TRY_ASSIGN(const std::int64_t seq, insert_message_row(c, m_sql, *m_engine, m));
  if (m.schedule && m.slot) {
    TRY_ASSIGN(db::Statement * scheduled, c.cached(m_sql.schedules.insert_scheduled_message));
    TRY(scheduled->bind(seq, *m.schedule, *m.slot));
    TRY(scheduled->exec());
  }

  TRY_ASSIGN(db::Statement * insert_delivery, c.cached(m_sql.core.insert_delivery));
  for (const mail::PlannedDelivery& d : composed.deliveries) {
    const std::string state(mail::to_string(d.ack_state));
    std::optional<std::string> request;
    if (d.request_state) {
      request = std::string(mail::to_string(*d.request_state));
    }
    TRY(insert_delivery->bind(seq, d.recipient, d.kind, priority, m.created_at, m.from, m.expires_at, state,
                              d.next_attempt_at, request));
    TRY(insert_delivery->exec());
    TRY(m_engine->mark_visible(c, d.recipient, seq));
    events.push_back(mail::EventDraft{mail::EventType::sent, m.id, d.recipient, m.from});
  }
  if (composed.plan_wakes) {
    // The send's wakes, recorded with it: whatever runs them later finds them (facets/wakes.hpp).
    TRY_ASSIGN(db::Statement * plan, c.cached(m_sql.wakes.plan));
    const std::string every_recipient; // '' (a bound string lives through the run)
    TRY(plan->bind(m.id, std::int64_t{0}, m.created_at, every_recipient));
    TRY(plan->exec());
  }
  if (composed.idempotency_key) {
    TRY_ASSIGN(db::Statement * insert_key, c.cached(m_sql.core.insert_key));
    TRY(insert_key->bind(m.from, *composed.idempotency_key, composed.fingerprint, seq, m.created_at));
    TRY(insert_key->exec());
  }
  for (const mail::Mailbox& name : composed.register_names) {
    TRY_ASSIGN(db::Statement * register_name, c.cached(m_sql.core.insert_mailbox));
    TRY(register_name->bind(name, m.created_at));
    TRY(register_name->exec());
  }
  if (composed.seen_via) {
    TRY(record_presence(c, m.from, m.created_at, 0, *composed.seen_via));
  }
  if (composed.reply_ack) {
    const mail::ReplyAck& ack = *composed.reply_ack;
    // Replying reads: the replier's delivery of the original is marked read and acked.
    TRY_ASSIGN(db::Statement * mark, c.cached(m_sql.core.mark_read));
    TRY(mark->bind(ack.replied, ack.recipient, m.created_at, std::nullopt));
    TRY_ASSIGN(const std::int64_t marked, mark->exec());
    if (marked > 0) {
      events.push_back(mail::EventDraft{mail::EventType::read, ack.replied, ack.recipient, ack.recipient});
    }
    TRY_ASSIGN(db::Statement * acks, c.cached(m_sql.core.ack_reply));
    TRY(acks->bind(ack.recipient, ack.thread_id, ack.original_sender, ack.through, ack.replied,
                   m.created_at));
    // RETURNING the id of each delivery it acked.
    TRY(acks->for_each_row([&](const db::Statement& row) {
      events.push_back(
          mail::EventDraft{mail::EventType::acked, row.get<std::string>("id"), ack.recipient, ack.recipient});
    }));
  }
  TRY(apply_moves(c, composed.request_moves, m.from, m.created_at, events));
  // Last: the events (which announce the delivery).
  return record_events(c, m.created_at, events);
}

Result<void> SqlStore::apply_moves(db::Connection& c, const std::vector<mail::RequestMove>& moves,
                                   const mail::Mailbox& actor, mail::UnixMillis now,
                                   std::vector<mail::EventDraft>& events)
{
  for (const mail::RequestMove& move : moves) {
    db::Statement* update = nullptr;
    if (move.kind == mail::RequestMove::Kind::resume) {
      TRY_ASSIGN(update, c.cached(m_sql.requests.resume));
      TRY(update->bind(move.message, move.recipient, now));
    } else {
      TRY_ASSIGN(update, c.cached(m_sql.requests.answer));
      TRY(update->bind(move.message, move.recipient, mail::to_string(move.to), now));
    }
    TRY_ASSIGN(const std::int64_t moved, update->exec());
    if (moved == 0) {
      continue; // the request had ended (or was not waiting for input): a state never moves back
    }
    if (move.kind == mail::RequestMove::Kind::resume) {
      // Taken up again: unread for the asker (and claimable by its watcher).
      events.push_back(mail::EventDraft{mail::EventType::unread, move.message, move.recipient, actor});
    }
    events.push_back(mail::EventDraft{mail::EventType::request_state, move.message, move.recipient, actor});
  }
  return {};
}

Result<std::optional<mail::SendReceipt>> SqlStore::replay(db::Connection& c, const mail::Composed& composed)
{
  if (!composed.idempotency_key) {
    return std::optional<mail::SendReceipt>();
  }
  std::string fingerprint;
  std::optional<mail::MessageId> stored;
  {
    TRY_ASSIGN(db::Statement * select, c.cached(m_sql.core.select_key));
    TRY(select->bind(composed.message.from, *composed.idempotency_key));
    TRY_ASSIGN(const bool seen, select->step());
    if (!seen) {
      return std::optional<mail::SendReceipt>();
    }
    db::ResetGuard reset(*select);
    fingerprint = select->get<std::string>("fingerprint");
    stored = select->get<std::optional<std::string>>("id");
  }
  if (!stored) {
    // purge keeps keys: the message is gone, and sending it again would be the duplicate the key
    // exists to prevent (docs/export-format.md).
    return make_error(
        ErrorCode::conflict,
        fmt::format("idempotency key \"{}\" was already used for a message that has since been purged",
                    text::cap_for_echo(*composed.idempotency_key)),
        "nothing was sent; use a new key to send it again");
  }
  const mail::MessageId& earlier = *stored;
  const auto differ = mail::fingerprint_differences(fingerprint, composed.fingerprint);
  if (!differ.empty()) {
    return make_error(
        ErrorCode::conflict,
        fmt::format("idempotency key \"{}\" was already used for message {} with a different {}",
                    text::cap_for_echo(*composed.idempotency_key), earlier, text::join(differ, ", ")),
        "use a new key for a new message");
  }
  TRY_ASSIGN(mail::Message original, load(c, composed.message.from, earlier));
  return std::optional<mail::SendReceipt>(receipt_of(original, true)); // nothing is written
}

Result<mail::SendReceipt> SqlStore::settle_unknown(Error lost, const mail::Composed& composed)
{
  const mail::MessageId& id = composed.message.id;
  auto looked_up = [&]() -> Result<bool> {
    TRY_ASSIGN(db::Connection * reader, m_engine->reader()); // a new connection: the old one is gone
    auto found = load(*reader, composed.message.from, id);
    if (found.ok()) {
      return true;
    }
    if (found.error().code == ErrorCode::not_found) {
      return false;
    }
    return std::move(found).error();
  }();
  if (looked_up.ok() && *looked_up) {
    return fresh_receipt(composed);
  }
  if (looked_up.ok()) {
    lost.message += fmt::format("; {} was not stored", id);
    lost.hint = "nothing was sent; send it again";
    lost.reason = "not_stored";
    return lost;
  }
  lost.message += fmt::format("; outcome unknown for {}; send again with the same --idempotency-key", id);
  lost.hint = looked_up.error().message;
  return lost;
}

Result<std::vector<mail::StreamCopy>> SqlStore::stream_copies(db::Connection& c,
                                                              const mail::Composed& composed,
                                                              mail::UnixMillis now,
                                                              std::vector<mail::EventDraft>& events)
{
  std::vector<mail::StreamCopy> copies;
  const mail::Message& m = composed.message;
  if (!m.dedup_key) {
    return copies;
  }
  const std::string& key = *m.dedup_key;
  for (const mail::PlannedDelivery& d : composed.deliveries) {
    if (!m_sql.core.lock_stream.empty()) {
      TRY_ASSIGN(db::Statement * lock, c.cached(m_sql.core.lock_stream));
      TRY(lock->bind(d.recipient, key));
      TRY(lock->exec());
    }
    if (composed.key_use == mail::KeyUse::dedup) {
      TRY_ASSIGN(db::Statement * live, c.cached(m_sql.core.live_copy));
      TRY(live->bind(m.from, key, d.recipient, now));
      TRY_ASSIGN(const bool found, live->step());
      if (found) {
        db::ResetGuard reset(*live);
        copies.push_back(mail::StreamCopy{d.recipient, live->get<std::string>("id")});
      }
      continue;
    }
    TRY_ASSIGN(db::Statement * supersede, c.cached(m_sql.core.supersede));
    TRY(supersede->bind(m.from, key, d.recipient, now));
    // RETURNING the id of each copy it archived: the recipient's delivery, changed by the sender.
    TRY(supersede->for_each_row([&](const db::Statement& row) {
      copies.push_back(mail::StreamCopy{d.recipient, row.get<std::string>("id")});
      events.push_back(mail::EventDraft{mail::EventType::archived, copies.back().id, d.recipient, m.from});
    }));
  }
  return copies;
}

Result<mail::SendReceipt> SqlStore::send(const mail::SendRequest& request)
{
  TRY(mail::check_send(request, m_policy)); // sizes and shapes before any lock
  std::optional<mail::Composed> attempted;
  auto sent = write([&](db::Connection& c) -> Result<mail::SendReceipt> {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    TRY_ASSIGN(mail::Directory directory, directory_on(c));
    TRY_ASSIGN(mail::Composed composed, mail::compose_send(request, directory, m_policy,
                                                           mail::Stamp{now, m_origin.uid, m_origin.host}));
    TRY_ASSIGN(std::optional<mail::SendReceipt> replayed, replay(c, composed));
    if (replayed) {
      return std::move(*replayed);
    }
    // The stream's copies are judged in this transaction, under the stream's lock, so two sends
    // of one stream never both see "no live copy" (contract "Round 4: decisions after review").
    std::vector<mail::EventDraft> events;
    TRY_ASSIGN(std::vector<mail::StreamCopy> copies, stream_copies(c, composed, now, events));
    if (composed.key_use == mail::KeyUse::dedup) {
      mail::drop_suppressed(composed, copies);
    }
    if (composed.deliveries.empty()) {
      mail::SendReceipt nothing; // every recipient holds a live copy: nothing is stored
      nothing.suppressed = std::move(copies);
      return nothing;
    }
    TRY(insert(c, composed, std::move(events)));
    attempted = composed;
    mail::SendReceipt receipt = fresh_receipt(composed);
    (composed.key_use == mail::KeyUse::dedup ? receipt.suppressed : receipt.superseded) = std::move(copies);
    return receipt;
  });
  if (!sent.ok() && attempted && sent.error().reason == db::k_reason_outcome_unknown) {
    return settle_unknown(std::move(sent).error(), *attempted);
  }
  return sent;
}

Result<mail::SendReceipt> SqlStore::reply(const mail::ReplyRequest& request)
{
  return write([&](db::Connection& c) -> Result<mail::SendReceipt> {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    TRY_ASSIGN(mail::Message original, load(c, request.from, request.id));
    TRY_ASSIGN(mail::Composed composed, mail::compose_reply(original, request, m_policy,
                                                            mail::Stamp{now, m_origin.uid, m_origin.host}));
    TRY_ASSIGN(std::optional<mail::SendReceipt> replayed, replay(c, composed));
    if (replayed) {
      return std::move(*replayed);
    }
    TRY(insert(c, composed));
    return fresh_receipt(composed);
  });
}

} // namespace mailroom::providers::sqlstore
