#pragma once

// Internal to the SQL stores' export and import (transfer.cpp, import.cpp): the rows of a delivery
// and of an idempotency key as records.

#include "db/statement.hpp"
#include "mail/transfer.hpp"

namespace mailroom::providers::sqlstore {

// The delivery in the current row (TransferQueries::deliveries' columns) of message `message`.
mail::DeliveryRecord delivery_from_row(const db::Statement& row, const mail::MessageId& message);
// The key in the current row (TransferQueries::keys' columns).
mail::KeyRecord key_from_row(const db::Statement& row);

} // namespace mailroom::providers::sqlstore
