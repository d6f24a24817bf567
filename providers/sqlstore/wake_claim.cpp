// Claiming and finishing wakes (mail/facets/wakes.hpp): each row is claimed in its own
// transaction, in which the delivery is re-validated and the (recipient, target) row's one
// conditional update decides the cooldown, so no two processes ever run one wake, nor two wakes
// of a pair within the cooldown.

#include <fmt/format.h>

#include "sqlstore/store.hpp"
#include "sqlstore/wake_rows.hpp"

namespace mailroom::providers::sqlstore {

namespace {

// A claimed row whose process has not finished it after this long may be given up on.
constexpr mail::Millis k_claim_hold = 60 * mail::k_second_ms;

Result<void> bind_key(db::Statement& statement, const mail::WakeKey& key)
{
  return statement.bind(key.recipient, key.message, key.target, key.attempt);
}

// What claiming one row decided: run it (claimed), or a settled row, or nothing (another process
// had it first).
struct ClaimStep {
  std::optional<mail::ClaimedWake> claimed;
  std::optional<mail::WakeRow> settled;
};

} // namespace

// One row: claimed, settled or left alone, on `c` in the caller's transaction.
static Result<ClaimStep> claim_one(db::Connection& c, const WakeQueries& sql, const mail::WakeKey& key,
                                   const mail::WakeClaimRequest& request, mail::UnixMillis now)
{
  ClaimStep step;
  TRY_ASSIGN(db::Statement * claim, c.cached(sql.claim));
  TRY(bind_key(*claim, key));
  TRY(claim->bind_int(5, now));
  TRY_ASSIGN(const std::int64_t claimed, claim->exec());
  if (claimed == 0) {
    return step; // another process claimed it first, or it is no longer due
  }
  const auto settle = [&](mail::WakeOutcome outcome, const std::string& reason,
                          mail::UnixMillis due_at) -> Result<ClaimStep> {
    TRY_ASSIGN(db::Statement * update, c.cached(sql.settle));
    TRY(bind_key(*update, key));
    const std::string outcome_name(mail::to_string(outcome));
    TRY(update->bind_text(5, outcome_name));
    TRY(update->bind_text(6, reason));
    TRY(update->bind_int(7, due_at));
    TRY(update->bind_int(8, now));
    TRY(update->exec());
    TRY_ASSIGN(db::Statement * row, c.cached(sql.row));
    TRY(bind_key(*row, key));
    TRY(row->for_each_row([&](const db::Statement& r) { step.settled = wake_row_from(r); }));
    return step;
  };
  // Re-validation: the wake is for mail the recipient still has not seen.
  TRY_ASSIGN(db::Statement * validate, c.cached(sql.validate));
  TRY(validate->bind(key.message, key.recipient, now));
  TRY_ASSIGN(const bool delivered, validate->step());
  if (!delivered) {
    return settle(mail::WakeOutcome::skipped, "gone", now);
  }
  const std::string skip = validate->get<std::string>("skip");
  mail::ClaimedWake wake;
  wake.key = key;
  wake.from = validate->get<std::string>("sender");
  wake.subject = validate->get<std::string>("subject");
  validate->reset();
  if (!skip.empty()) {
    return settle(mail::WakeOutcome::skipped, skip, now);
  }
  TRY_ASSIGN(db::Statement * target, c.cached(sql.target_of));
  TRY(target->bind(key.recipient));
  TRY_ASSIGN(const bool has_target, target->step());
  std::optional<std::string> current;
  std::optional<mail::UnixMillis> hook_at;
  if (has_target) {
    current = target->get<std::string>("target");
    hook_at = target->get<std::optional<std::int64_t>>("hook_at");
    target->reset();
  }
  if (current != key.target) {
    return settle(mail::WakeOutcome::skipped, "target_changed", now);
  }
  if (request.idle_after > 0 && hook_at && *hook_at > now - request.idle_after) {
    return settle(mail::WakeOutcome::deferred, "active", *hook_at + request.idle_after);
  }
  // The cooldown: one conditional update of the pair's row, in this transaction.
  TRY_ASSIGN(db::Statement * pair, c.cached(sql.pair_insert));
  TRY(pair->bind(key.recipient, key.target));
  TRY(pair->exec());
  TRY_ASSIGN(db::Statement * take, c.cached(sql.pair_take));
  TRY(take->bind(key.recipient, key.target, now, request.cooldown));
  TRY_ASSIGN(const std::int64_t took, take->exec());
  if (took == 0) {
    TRY_ASSIGN(db::Statement * last, c.cached(sql.pair_last));
    TRY(last->bind(key.recipient, key.target));
    mail::UnixMillis last_at = now;
    TRY(last->for_each_row([&](const db::Statement& r) {
      last_at = r.get<std::optional<std::int64_t>>("last_wake_at").value_or(now);
    }));
    return settle(mail::WakeOutcome::deferred, "cooldown", last_at + request.cooldown + 1);
  }
  TRY_ASSIGN(db::Statement * combine, c.cached(sql.combine));
  TRY(combine->bind(key.recipient, key.target, key.message, now, key.attempt));
  TRY_ASSIGN(const std::int64_t combined, combine->exec());
  TRY_ASSIGN(db::Statement * count, c.cached(sql.set_combined));
  TRY(bind_key(*count, key));
  TRY(count->bind_int(5, combined));
  TRY(count->exec());
  TRY_ASSIGN(db::Statement * row, c.cached(sql.row));
  TRY(bind_key(*row, key));
  TRY(row->for_each_row([&](const db::Statement& r) { wake.socket = r.get<std::string>("socket"); }));
  wake.count = 1 + combined;
  step.claimed = std::move(wake);
  return step;
}

Result<mail::WakeClaims> SqlStore::claim_wakes(const mail::WakeClaimRequest& request)
{
  mail::WakeClaims out;
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  if (request.give_up_after > 0) {
    TRY_ASSIGN(out.settled, write([&](db::Connection& c) -> Result<std::vector<mail::WakeRow>> {
                 std::vector<mail::WakeRow> given_up;
                 TRY_ASSIGN(db::Statement * give_up, c.cached(m_sql.wakes.give_up));
                 TRY(give_up->bind(now, now - request.give_up_after, now - k_claim_hold));
                 TRY(give_up->for_each_row(
                     [&](const db::Statement& row) { given_up.push_back(wake_row_from(row)); }));
                 return given_up;
               }));
  }
  if (request.messages.empty() && request.keep_for > 0) {
    TRY(write([&](db::Connection& c) -> Result<bool> {
      TRY_ASSIGN(db::Statement * prune, c.cached(m_sql.wakes.prune));
      TRY(prune->bind(now - request.keep_for));
      TRY(prune->exec());
      return true;
    }));
  }
  std::vector<mail::WakeKey> keys;
  const auto add_keys = [&](db::Statement& select) {
    return select.for_each_row([&](const db::Statement& row) {
      keys.push_back(mail::WakeKey{row.get<std::string>("recipient"), row.get<std::string>("message"),
                                   row.get<std::string>("target"), row.get<std::int64_t>("attempt")});
    });
  };
  if (!request.messages.empty()) {
    TRY(write([&](db::Connection& c) -> Result<bool> {
      TRY_ASSIGN(db::Statement * plan, c.cached(m_sql.wakes.plan));
      const std::string only = request.recipient.value_or(std::string());
      for (const mail::MessageId& id : request.messages) {
        TRY(plan->bind(id, request.attempt, now, only));
        TRY(plan->exec());
      }
      return true;
    }));
    TRY_ASSIGN(db::Connection * reader, m_engine->reader());
    TRY_ASSIGN(db::Statement * mine, reader->cached(m_sql.wakes.of_message));
    for (const mail::MessageId& id : request.messages) {
      TRY(mine->bind(id, request.attempt, request.by.host, request.by.uid));
      TRY(add_keys(*mine));
    }
  } else {
    TRY_ASSIGN(db::Connection * reader, m_engine->reader());
    TRY_ASSIGN(db::Statement * due, reader->cached(m_sql.wakes.due));
    TRY(due->bind(request.by.host, request.by.uid, now, static_cast<std::int64_t>(request.limit)));
    TRY(add_keys(*due));
  }
  for (const mail::WakeKey& key : keys) {
    TRY_ASSIGN(ClaimStep step,
               write([&](db::Connection& c) { return claim_one(c, m_sql.wakes, key, request, now); }));
    if (step.claimed) {
      out.claimed.push_back(std::move(*step.claimed));
    } else if (step.settled) {
      out.settled.push_back(std::move(*step.settled));
    }
  }
  return out;
}

Result<void> SqlStore::finish_wake(const mail::WakeKey& key, const mail::WakeFinish& done)
{
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  TRY(write([&](db::Connection& c) -> Result<bool> {
    TRY_ASSIGN(db::Statement * finish, c.cached(m_sql.wakes.finish));
    TRY(bind_key(*finish, key));
    const std::string outcome_name(mail::to_string(done.outcome));
    TRY(finish->bind_text(5, outcome_name));
    TRY(finish->bind_text(6, done.detail));
    TRY(finish->bind_int(7, now));
    TRY(finish->bind_int(8, done.outcome == mail::WakeOutcome::deferred ? done.retry_at : now));
    TRY_ASSIGN(const std::int64_t finished, finish->exec());
    if (finished == 0) {
      return make_error(ErrorCode::not_found,
                        fmt::format("no claimed wake of {} for {}", key.recipient, key.message));
    }
    TRY(record_events(c, now,
                      {mail::EventDraft{mail::EventType::wake_done, key.message, key.recipient,
                                        std::string(mail::k_system_sender)}}));
    return true;
  }));
  return {};
}

} // namespace mailroom::providers::sqlstore
