// Views open to any caller: id prefixes, a message's delivery records, a trace, recent traces.

#include <fmt/format.h>

#include "mail/ack.hpp"
#include "mail/ids.hpp"
#include "mail/request.hpp"
#include "sqlstore/rows.hpp"
#include "sqlstore/store.hpp"
#include "sqlstore/transfer_rows.hpp"
#include "text/strings.hpp"

namespace mailroom::providers::sqlstore {

namespace {

// The smallest string greater than every string that starts with `prefix` (ids are ASCII).
std::string after_prefix(std::string prefix)
{
  while (!prefix.empty() && static_cast<unsigned char>(prefix.back()) == 0x7F) {
    prefix.pop_back();
  }
  if (!prefix.empty()) {
    prefix.back() = static_cast<char>(prefix.back() + 1);
  }
  return prefix;
}

// One delivery record from select_status's (or trace_deliveries') columns, its ack and request
// states as its own expiry makes them and its claim only while the lease holds at `now`.
mail::DeliveryStatus delivery_as_shown(const db::Statement& row, mail::UnixMillis now)
{
  mail::DeliveryStatus record = stored_delivery_from_row(row);
  const bool expired = record.expires_at && *record.expires_at <= now;
  record.ack_state = mail::effective_ack_state(record.ack_state, expired);
  if (record.request_state) {
    record.request_state = mail::effective_request_state(*record.request_state, expired);
  }
  const auto claimed_by = row.get<std::optional<std::string>>("claimed_by");
  const auto claim_until = row.get<std::optional<std::int64_t>>("claim_until");
  if (claimed_by && claim_until && *claim_until > now) {
    record.claim = mail::DeliveryStatus::Claim{*claimed_by, *claim_until, *claim_until - now};
  }
  return record;
}

} // namespace

Result<mail::MessageId> SqlStore::resolve_id(const std::string& typed)
{
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  {
    TRY_ASSIGN(db::Statement * exists, reader->cached(m_sql.core.id_exists));
    TRY(exists->bind(typed));
    TRY_ASSIGN(const bool found, exists->step());
    if (found) {
      exists->reset();
      return typed;
    }
  }
  const mail::IdPattern pattern = mail::parse_id_pattern(typed);
  if (!pattern.may_be_prefix) {
    const bool hex =
        !pattern.tail.empty() && pattern.tail.find_first_not_of("0123456789abcdef") == std::string::npos;
    // Only a prefix of this store's ids ("3f9", "mr-3f9") is too short; another system's id
    // ("gc-999") is simply not here.
    const bool ours = typed.find('-') == std::string::npos || typed.rfind(m_policy.id_prefix + "-", 0) == 0;
    if (hex && ours && pattern.tail.size() < mail::k_min_id_prefix) {
      return make_error(ErrorCode::usage,
                        fmt::format("id prefix \"{}\" is too short", text::cap_for_echo(typed)),
                        fmt::format("type at least {} characters of the id", mail::k_min_id_prefix));
    }
    return not_found(typed);
  }
  const std::string low =
      typed.find('-') == std::string::npos ? fmt::format("{}-{}", m_policy.id_prefix, typed) : typed;
  const std::string high = after_prefix(low);
  TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.views.ids_with_prefix));
  TRY(select->bind(low, high));
  std::vector<std::string> candidates;
  TRY(select->for_each_row(
      [&](const db::Statement& row) { candidates.push_back(row.get<std::string>("id")); }));
  if (candidates.empty()) {
    return not_found(typed);
  }
  if (candidates.size() > 1) {
    Error error =
        make_error(ErrorCode::ambiguous_id,
                   fmt::format("id prefix \"{}\" matches several messages", text::cap_for_echo(typed)),
                   "type more of the id");
    error.input = typed;
    error.suggestions = std::move(candidates);
    return error;
  }
  return candidates.front();
}

Result<mail::StatusResult> SqlStore::status(const mail::MessageId& id)
{
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  std::int64_t seq = 0;
  return status_on(*reader, id, now, seq);
}

Result<mail::StatusResult> SqlStore::status_on(db::Connection& c, const mail::MessageId& id,
                                               mail::UnixMillis now, std::int64_t& seq)
{
  mail::StatusResult result;
  {
    TRY_ASSIGN(db::Statement * select, c.cached(m_sql.core.select_message));
    const std::string nobody;
    TRY(select->bind(id, nobody, body_bound(std::nullopt)));
    TRY_ASSIGN(const bool found, select->step());
    if (!found) {
      return not_found(id);
    }
    db::ResetGuard reset(*select);
    result.message = message_from_row(*select, now);
    seq = select->get<std::int64_t>("seq");
  }
  TRY_ASSIGN(db::Statement * select, c.cached(m_sql.views.select_status));
  TRY(select->bind(seq, now));
  TRY(select->for_each_row(
      [&](const db::Statement& row) { result.deliveries.push_back(delivery_as_shown(row, now)); }));
  return result;
}

Result<mail::TraceResult> SqlStore::trace(const mail::Mailbox& viewer, const std::string& trace_or_message_id)
{
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  mail::TraceResult result;
  {
    TRY_ASSIGN(db::Statement * resolve, reader->cached(m_sql.views.resolve_trace));
    TRY(resolve->bind(trace_or_message_id));
    TRY_ASSIGN(const bool found, resolve->step());
    if (!found) {
      return make_error(ErrorCode::not_found,
                        fmt::format("trace \"{}\" not found", text::cap_for_echo(trace_or_message_id)));
    }
    db::ResetGuard reset(*resolve);
    result.trace_id = resolve->get<std::string>("trace_id");
  }
  TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.views.select_trace));
  TRY(select->bind(result.trace_id, viewer, body_bound(std::nullopt)));
  TRY_ASSIGN(result.messages, collect_messages(*select, now));
  TRY_ASSIGN(db::Statement * deliveries, reader->cached(m_sql.views.trace_deliveries));
  TRY(deliveries->bind(result.trace_id));
  TRY(deliveries->for_each_row([&](const db::Statement& row) {
    result.deliveries[row.get<std::string>("id")].push_back(delivery_as_shown(row, now));
  }));
  return result;
}

Result<std::vector<mail::TraceSummary>> SqlStore::recent_traces(std::size_t limit)
{
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.views.recent_traces));
  TRY(select->bind(static_cast<std::int64_t>(limit), now));
  std::vector<mail::TraceSummary> traces;
  TRY(select->for_each_row([&](const db::Statement& row) {
    mail::TraceSummary trace;
    trace.trace_id = row.get<std::string>("trace_id");
    trace.root_id = row.get<std::string>("root_id");
    trace.root_from = row.get<std::string>("root_from");
    trace.subject = row.get<std::string>("subject");
    trace.started_at = row.get<std::int64_t>("started_at");
    trace.last_at = row.get<std::int64_t>("last_at");
    trace.message_count = row.get<std::int64_t>("message_count");
    trace.open_requests = row.get<std::int64_t>("open_requests");
    traces.push_back(std::move(trace));
  }));
  return traces;
}

Result<std::vector<mail::OpenDelivery>> SqlStore::open_deliveries(const mail::OpenDeliveriesQuery& query)
{
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.views.open_deliveries));
  TRY(select->bind(query.from, static_cast<std::int64_t>(query.include_read ? 1 : 0),
                   body_bound(query.body_bytes)));
  std::vector<mail::OpenDelivery> deliveries;
  TRY(select->for_each_row([&](const db::Statement& row) {
    deliveries.push_back(mail::OpenDelivery{row.get<std::string>("recipient"), message_from_row(row, now)});
  }));
  return deliveries;
}

} // namespace mailroom::providers::sqlstore
