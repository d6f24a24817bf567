#include "sqlstore/transfer_rows.hpp"

namespace mailroom::providers::sqlstore {

mail::DeliveryRecord delivery_from_row(const db::Statement& row, const mail::MessageId& message)
{
  mail::DeliveryRecord r;
  r.message = message;
  mail::DeliveryStatus& s = r.status;
  s.recipient = row.get<std::string>("recipient");
  s.kind = row.get<std::string>("kind");
  s.delivered_at = row.get<std::int64_t>("delivered_at");
  s.read_at = row.get<std::optional<std::int64_t>>("read_at");
  s.archived_at = row.get<std::optional<std::int64_t>>("archived_at");
  // The stored state: expiry is applied when the record is shown, never written.
  s.ack_state = mail::parse_ack_state(row.get<std::string>("ack_state")).value_or(mail::AckState::none);
  s.acked_at = row.get<std::optional<std::int64_t>>("acked_at");
  s.attempts = row.get<std::int64_t>("attempts");
  s.last_attempt_at = row.get<std::optional<std::int64_t>>("last_attempt_at");
  s.acted_by = row.get<std::optional<std::string>>("acted_by");
  r.next_attempt_at = row.get<std::optional<std::int64_t>>("next_attempt_at");
  r.handler_attempts = row.get<std::int64_t>("handler_attempts");
  r.retry_at = row.get<std::optional<std::int64_t>>("retry_at");
  r.set_aside_at = row.get<std::optional<std::int64_t>>("set_aside_at");
  // As stored: expiry is never written (mail::effective_request_state applies it when shown).
  if (const auto request = row.get<std::optional<std::string>>("request_state")) {
    s.request_state = mail::parse_request_state(*request);
  }
  s.request_state_at = row.get<std::optional<std::int64_t>>("request_state_at");
  s.expires_at = row.get<std::optional<std::int64_t>>("expires_at");
  return r;
}

mail::KeyRecord key_from_row(const db::Statement& row)
{
  mail::KeyRecord r;
  r.sender = row.get<std::string>("sender");
  r.key = row.get<std::string>("key");
  r.fingerprint = row.get<std::string>("fingerprint");
  r.message = row.get<std::optional<std::string>>("message");
  r.created_at = row.get<std::int64_t>("created_at");
  return r;
}

} // namespace mailroom::providers::sqlstore
