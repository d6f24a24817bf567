#pragma once

// The delivery JSON of `status` (recipients[]) and `trace` (messages[].deliveries[]): every field
// of mail/delivery_fields.hpp the table shows, and `claim` ({"claimed_by","claim_until",
// "lease_left_ms"} while a lease holds, else null). Its schema is ops::schema::delivery().

#include <nlohmann/json.hpp>

#include "mail/message.hpp"

namespace mailroom::render {

nlohmann::json delivery_to_json(const mail::DeliveryStatus& delivery);

} // namespace mailroom::render
