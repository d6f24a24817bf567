#include "sqlstore/transfer_rows.hpp"

#include "mail/ack.hpp"
#include "mail/delivery_fields.hpp"
#include "mail/request.hpp"

namespace mailroom::providers::sqlstore {

mail::DeliveryStatus stored_delivery_from_row(const db::Statement& row)
{
  mail::DeliveryStatus s;
  mail::for_each_delivery_field(
      [&](auto kind, const mail::DeliveryField& field, auto& value) {
        constexpr mail::DeliveryFieldKind k = decltype(kind)::value;
        if constexpr (k == mail::DeliveryFieldKind::name || k == mail::DeliveryFieldKind::text) {
          value = row.get<std::string>(field.column);
        } else if constexpr (k == mail::DeliveryFieldKind::millis || k == mail::DeliveryFieldKind::integer) {
          value = row.get<std::int64_t>(field.column);
        } else if constexpr (k == mail::DeliveryFieldKind::optional_millis) {
          value = row.get<std::optional<std::int64_t>>(field.column);
        } else if constexpr (k == mail::DeliveryFieldKind::optional_name) {
          value = row.get<std::optional<std::string>>(field.column);
        } else if constexpr (k == mail::DeliveryFieldKind::ack_state) {
          value = mail::parse_ack_state(row.get<std::string>(field.column)).value_or(mail::AckState::none);
        } else if constexpr (k == mail::DeliveryFieldKind::request_state) {
          // A state a newer mailroom wrote reads as the open state it most likely continues.
          if (const auto stored = row.get<std::optional<std::string>>(field.column)) {
            value = mail::parse_request_state(*stored).value_or(mail::RequestState::working);
          }
        } else {
          static_assert(mail::k_unhandled_delivery_field_kind<k>);
        }
      },
      s);
  return s;
}

mail::DeliveryRecord delivery_from_row(const db::Statement& row, const mail::MessageId& message)
{
  mail::DeliveryRecord record;
  record.message = message;
  record.status = stored_delivery_from_row(row);
  return record;
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
