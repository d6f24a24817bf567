#pragma once

// Internal to the SQL stores: the rows of a delivery (export, import, status and trace) and of an
// idempotency key (export, import) as records.

#include "db/statement.hpp"
#include "mail/transfer.hpp"

namespace mailroom::providers::sqlstore {

// Every field of mail/delivery_fields.hpp in the current row, as stored (states never expired), by
// column name: the columns of MR_SQL_DELIVERY_FIELDS (shared_sql.hpp) in any statement that has them.
mail::DeliveryStatus stored_delivery_from_row(const db::Statement& row);
// The delivery in the current row (TransferQueries::deliveries' columns) of message `message`.
mail::DeliveryRecord delivery_from_row(const db::Statement& row, const mail::MessageId& message);
// The key in the current row (TransferQueries::keys' columns).
mail::KeyRecord key_from_row(const db::Statement& row);

} // namespace mailroom::providers::sqlstore
