// Watch claims: take the first claimable delivery with a lease, renew it, finish it. Each is one
// write transaction; the token written at claim time is what renew and finish must show, so a
// watcher whose lease ran out and was taken over can change nothing any more.

#include <fmt/format.h>

#include "sqlstore/rows.hpp"
#include "sqlstore/store.hpp"
#include "text/strings.hpp"
#include "util/random.hpp"

namespace mailroom::providers::sqlstore {

namespace {

struct Candidate {
  std::int64_t seq = 0;
  mail::MessageId id;
  std::int64_t attempts = 0;
};

Error lost(const mail::Claim& claim)
{
  return make_error(
      ErrorCode::conflict,
      fmt::format("the claim on {} for {} is no longer held (its lease ran out and it was taken "
                  "over, or it was finished)",
                  claim.message.id, claim.mailbox));
}

// Runs an UPDATE … RETURNING to its end; calls `row` for its row. False when no row changed.
template <typename Fn> Result<bool> update_returning(db::Statement& statement, Fn&& row)
{
  TRY_ASSIGN(const bool has_row, statement.step());
  if (!has_row) {
    return false;
  }
  row(statement);
  // Run it to its end: an UPDATE … RETURNING that is reset early is not complete on every engine.
  TRY_ASSIGN(const bool more, statement.step());
  if (more) {
    statement.reset();
  }
  return true;
}

// Sets delivery (seq, mailbox) aside: watch skips it until mark-unread.
Result<void> set_aside(db::Connection& c, const ClaimQueries& sql, std::int64_t seq,
                       const mail::Mailbox& mailbox, mail::UnixMillis now)
{
  TRY_ASSIGN(db::Statement * aside, c.cached(sql.set_aside));
  TRY(aside->bind(seq, mailbox, now));
  TRY_ASSIGN(const std::int64_t changed, aside->exec());
  if (changed != 1) {
    return make_error(ErrorCode::store_error,
                      fmt::format("setting a delivery of {} aside changed {} rows", mailbox, changed));
  }
  return {};
}

// The event of a watch on `mailbox`'s delivery of `id`: the watcher acts as the mailbox.
mail::EventDraft event_on(mail::EventType type, const mail::MessageId& id, const mail::Mailbox& mailbox)
{
  return mail::EventDraft{type, id, mailbox, mailbox};
}

// The events of setting `message` (as its recipient `mailbox` saw it) aside: mail.set_aside, and
// request.state when it is a request (its open request failed with it).
std::vector<mail::EventDraft> set_aside_events(const mail::Message& message, const mail::Mailbox& mailbox)
{
  std::vector<mail::EventDraft> events{event_on(mail::EventType::set_aside, message.id, mailbox)};
  if (message.state && message.state->request_state) {
    events.push_back(event_on(mail::EventType::request_state, message.id, mailbox));
  }
  return events;
}

} // namespace

Result<mail::ClaimNext> SqlStore::claim_next(const mail::ClaimRequest& request)
{
  const std::string types = join_names(request.types);
  return write([&](db::Connection& c) -> Result<mail::ClaimNext> {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    mail::ClaimNext next;
    std::optional<Candidate> found;
    {
      TRY_ASSIGN(db::Statement * select, c.cached(m_sql.claims.select_claimable));
      TRY(select->bind(request.mailbox, now, request.from, types));
      TRY_ASSIGN(const bool has_row, select->step());
      if (has_row) {
        db::ResetGuard reset(*select);
        found = Candidate{select->get<std::int64_t>("seq"), select->get<std::string>("id"),
                          select->get<std::int64_t>("handler_attempts")};
      }
    }
    if (!found) {
      TRY_ASSIGN(db::Statement * pending, c.cached(m_sql.claims.next_claimable));
      TRY(pending->bind(request.mailbox, now, request.from, types));
      TRY_ASSIGN(const bool has_row, pending->step());
      if (has_row) {
        db::ResetGuard reset(*pending);
        if (const auto at = pending->get<std::optional<std::int64_t>>("next_at")) {
          next.wake_in_ms = std::max<std::int64_t>(*at - now, 1);
        }
      }
      return next;
    }
    if (mail::attempts_spent(found->attempts, request.max_attempts)) {
      // Its earlier attempts ended unseen (a watcher killed, a lease lost): set it aside, not run.
      TRY(set_aside(c, m_sql.claims, found->seq, request.mailbox, now));
      mail::Claim spent;
      TRY_ASSIGN(spent.message, load(c, request.mailbox, found->id));
      spent.mailbox = request.mailbox;
      spent.attempts = found->attempts;
      TRY(record_events(c, now, set_aside_events(spent.message, request.mailbox)));
      next.set_aside = std::move(spent);
      return next;
    }
    const std::string token = text::to_hex(util::random_bytes(16));
    TRY_ASSIGN(db::Statement * take, c.cached(m_sql.claims.take));
    const std::int64_t until = now + request.lease_ms;
    TRY(take->bind(found->seq, request.mailbox, token, request.watcher, until, now));
    TRY_ASSIGN(const std::int64_t taken, take->exec());
    if (taken != 1) {
      // Cannot happen under the write lock; say so rather than hand out a claim that is not held.
      return make_error(ErrorCode::store_error, fmt::format("claiming {} changed {} rows", found->id, taken));
    }
    mail::Claim claim;
    TRY_ASSIGN(claim.message, load(c, request.mailbox, found->id));
    claim.mailbox = request.mailbox;
    claim.token = token;
    claim.attempts = found->attempts;
    next.claim = std::move(claim);
    TRY(record_events(c, now, {event_on(mail::EventType::claimed, found->id, request.mailbox)}));
    return next;
  });
}

Result<void> SqlStore::renew_claim(const mail::Claim& claim, std::int64_t lease_ms)
{
  return write([&](db::Connection& c) -> Result<void> {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    TRY_ASSIGN(db::Statement * renew, c.cached(m_sql.claims.renew));
    const std::int64_t until = now + lease_ms;
    TRY(renew->bind(claim.message.id, claim.mailbox, claim.token, until));
    TRY_ASSIGN(const std::int64_t changed, renew->exec());
    if (changed == 0) {
      return lost(claim);
    }
    return {};
  });
}

Result<mail::ClaimResult> SqlStore::finish_claim(const mail::Claim& claim, const mail::ClaimFinish& finish)
{
  return write([&](db::Connection& c) -> Result<mail::ClaimResult> {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    mail::ClaimResult result;
    bool held = false;
    switch (finish.outcome) {
    case mail::ClaimOutcome::done: {
      TRY_ASSIGN(db::Statement * done, c.cached(m_sql.claims.finish_done));
      TRY(done->bind(claim.message.id, claim.mailbox, claim.token, now));
      TRY_ASSIGN(held, update_returning(*done, [&](const db::Statement& row) {
                   result.attempts = row.get<std::int64_t>("handler_attempts");
                 }));
      break;
    }
    case mail::ClaimOutcome::failed: {
      TRY_ASSIGN(db::Statement * failed, c.cached(m_sql.claims.finish_failed));
      const std::int64_t retry_at = now + std::max<std::int64_t>(finish.retry_after_ms, 0);
      TRY(failed->bind(claim.message.id, claim.mailbox, claim.token, retry_at));
      std::int64_t seq = 0;
      TRY_ASSIGN(held, update_returning(*failed, [&](const db::Statement& row) {
                   seq = row.get<std::int64_t>("seq");
                   result.attempts = row.get<std::int64_t>("handler_attempts");
                 }));
      if (held && mail::attempts_spent(result.attempts, finish.max_attempts)) {
        TRY(set_aside(c, m_sql.claims, seq, claim.mailbox, now));
        result.set_aside = true;
      }
      break;
    }
    case mail::ClaimOutcome::released: {
      TRY_ASSIGN(db::Statement * released, c.cached(m_sql.claims.finish_released));
      TRY(released->bind(claim.message.id, claim.mailbox, claim.token));
      TRY_ASSIGN(held, update_returning(*released, [&](const db::Statement& row) {
                   result.attempts = row.get<std::int64_t>("handler_attempts");
                 }));
      break;
    }
    }
    if (!held) {
      return lost(claim);
    }
    std::vector<mail::EventDraft> events;
    if (finish.outcome == mail::ClaimOutcome::done) {
      events.push_back(event_on(mail::EventType::read, claim.message.id, claim.mailbox));
      events.push_back(event_on(mail::EventType::acked, claim.message.id, claim.mailbox));
    } else if (result.set_aside) {
      events = set_aside_events(claim.message, claim.mailbox);
    }
    TRY(record_events(c, now, events));
    return result;
  });
}

} // namespace mailroom::providers::sqlstore
