// Wake targets and the wake ledger (mail/facets/wakes.hpp): each row is claimed in its own
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

mail::WakeRow wake_row_from(const db::Statement& row)
{
  mail::WakeRow out;
  out.key.recipient = row.get<std::string>("recipient");
  out.key.message = row.get<std::string>("message");
  out.key.target = row.get<std::string>("target");
  out.key.attempt = row.get<std::int64_t>("attempt");
  out.outcome =
      mail::parse_wake_outcome(row.get<std::string>("outcome")).value_or(mail::WakeOutcome::pending);
  out.reason = row.get<std::string>("reason");
  out.created_at = row.get<std::int64_t>("created_at");
  out.due_at = row.get<std::int64_t>("due_at");
  out.claimed_at = row.get<std::optional<std::int64_t>>("claimed_at");
  out.updated_at = row.get<std::int64_t>("updated_at");
  out.combined = row.get<std::int64_t>("combined");
  out.combined_into = row.get<std::optional<std::string>>("combined_into");
  return out;
}

mail::WakeTarget wake_target_from(const db::Statement& row)
{
  mail::WakeTarget out;
  out.mailbox = row.get<std::string>("mailbox");
  out.target = row.get<std::string>("target");
  out.set_from.host = row.get<std::string>("host");
  out.set_from.uid = row.get<std::int64_t>("uid");
  out.socket = row.get<std::string>("socket");
  out.set_at = row.get<std::int64_t>("set_at");
  return out;
}

mail::WakeRecord wake_record_from(const db::Statement& row)
{
  mail::WakeRecord out;
  out.row = wake_row_from(row);
  out.host.host = row.get<std::string>("host");
  out.host.uid = row.get<std::int64_t>("uid");
  out.socket = row.get<std::string>("socket");
  return out;
}

mail::WakeTargetRecord wake_target_record_from(const db::Statement& row)
{
  return mail::WakeTargetRecord{wake_target_from(row), row.get<std::optional<std::int64_t>>("hook_at")};
}

Result<void> bind_wake_record(db::Statement& statement, const mail::WakeRecord& r)
{
  const mail::WakeRow& w = r.row;
  // Every bound text outlives the statement's run in the caller: `r`'s fields, and the outcome's
  // name, a string literal.
  TRY(statement.bind(w.key.recipient, w.key.message, w.key.target, w.key.attempt));
  TRY(statement.bind_text(5, mail::to_string(w.outcome)));
  TRY(statement.bind_text(6, w.reason));
  TRY(statement.bind_int(7, w.created_at));
  TRY(statement.bind_int(8, w.due_at));
  if (w.claimed_at) {
    TRY(statement.bind_int(9, *w.claimed_at));
  } else {
    TRY(statement.bind_null(9));
  }
  TRY(statement.bind_int(10, w.updated_at));
  TRY(statement.bind_int(11, w.combined));
  if (w.combined_into) {
    TRY(statement.bind_text(12, *w.combined_into));
  } else {
    TRY(statement.bind_null(12));
  }
  TRY(statement.bind_text(13, r.socket));
  TRY(statement.bind_text(14, r.host.host));
  TRY(statement.bind_int(15, r.host.uid));
  return {};
}

Result<void> SqlStore::set_wake_target(const mail::Mailbox& mailbox,
                                       const std::optional<mail::WakeTarget>& target)
{
  TRY(write([&](db::Connection& c) -> Result<bool> {
    if (!target) {
      TRY_ASSIGN(db::Statement * remove, c.cached(m_sql.wakes.remove_target));
      TRY(remove->bind(mailbox));
      TRY(remove->exec());
      return true;
    }
    TRY_ASSIGN(db::Statement * known, c.cached(m_sql.core.select_mailbox));
    TRY(known->bind(mailbox));
    TRY_ASSIGN(const bool found, known->step());
    bool retired = false;
    if (found) {
      retired = known->get<bool>("retired");
      known->reset();
    }
    if (!found || retired) {
      return make_error(ErrorCode::not_found, fmt::format("mailbox \"{}\" is not registered", mailbox));
    }
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    TRY_ASSIGN(db::Statement * set, c.cached(m_sql.wakes.set_target));
    TRY(set->bind(mailbox, target->target, target->set_from.host, target->set_from.uid, target->socket, now));
    TRY(set->exec());
    return true;
  }));
  return {};
}

Result<std::vector<mail::WakeStatus>> SqlStore::wake_statuses()
{
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  std::map<mail::Mailbox, mail::WakeStatus> by_name;
  TRY_ASSIGN(db::Statement * targets, reader->cached(m_sql.wakes.targets));
  TRY(targets->for_each_row([&](const db::Statement& row) {
    mail::WakeTarget target = wake_target_from(row);
    mail::WakeStatus& status = by_name[target.mailbox];
    status.mailbox = target.mailbox;
    status.target = std::move(target);
  }));
  std::vector<mail::Mailbox> recipients;
  TRY_ASSIGN(db::Statement * names, reader->cached(m_sql.wakes.recipients));
  TRY(names->for_each_row(
      [&](const db::Statement& row) { recipients.push_back(row.get<std::string>("recipient")); }));
  TRY_ASSIGN(db::Statement * newest, reader->cached(m_sql.wakes.newest));
  for (const mail::Mailbox& name : recipients) {
    TRY(newest->bind(name));
    TRY(newest->for_each_row([&](const db::Statement& row) {
      const mail::WakeRow last = wake_row_from(row);
      mail::WakeStatus& status = by_name[name];
      status.mailbox = name;
      status.last_at = last.updated_at;
      status.outcome = last.outcome;
      status.reason = last.reason;
    }));
  }
  std::vector<mail::WakeStatus> out;
  out.reserve(by_name.size());
  for (auto& [name, status] : by_name) {
    out.push_back(std::move(status));
  }
  return out;
}

Result<std::vector<mail::WakeTarget>> SqlStore::wake_targets(const std::vector<mail::Mailbox>& mailboxes)
{
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.wakes.target_of));
  std::vector<mail::WakeTarget> out;
  for (const mail::Mailbox& name : mailboxes) {
    TRY(select->bind(name));
    TRY(select->for_each_row([&](const db::Statement& row) { out.push_back(wake_target_from(row)); }));
  }
  return out;
}

Result<void> SqlStore::hook_ran(const mail::Mailbox& mailbox)
{
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Statement * target, reader->cached(m_sql.wakes.target_of));
  TRY(target->bind(mailbox));
  TRY_ASSIGN(const bool has_target, target->step());
  if (!has_target) {
    return {}; // nothing reads hook_at without a target: the hook stays read-only
  }
  target->reset();
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  auto written = write_if_free([&](db::Connection& c) -> Result<bool> {
    TRY_ASSIGN(db::Statement * ran, c.cached(m_sql.wakes.hook_ran));
    TRY(ran->bind(mailbox, now));
    TRY(ran->exec());
    return true;
  });
  if (!written.ok() && written.error().code != ErrorCode::timeout) {
    return std::move(written).error();
  }
  return {};
}

Result<bool> SqlStore::wake_ready(const mail::MessageId& message,
                                  const std::vector<mail::Mailbox>& recipients, const mail::WakeHost& by,
                                  mail::Millis cooldown)
{
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Statement * ready, reader->cached(m_sql.wakes.ready));
  for (const mail::Mailbox& recipient : recipients) {
    TRY(ready->bind(recipient, message, by.host, by.uid, now, cooldown));
    TRY_ASSIGN(const bool found, ready->step());
    if (found) {
      ready->reset();
      return true;
    }
  }
  return false;
}

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

Result<std::vector<mail::WakeRow>> SqlStore::wake_ledger(const mail::Mailbox& recipient, std::size_t limit)
{
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.wakes.ledger));
  TRY(select->bind(recipient, static_cast<std::int64_t>(limit)));
  std::vector<mail::WakeRow> out;
  TRY(select->for_each_row([&](const db::Statement& row) { out.push_back(wake_row_from(row)); }));
  return out;
}

} // namespace mailroom::providers::sqlstore
