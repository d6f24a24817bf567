#pragma once

// The whole-sends facet, a facet whose presence is the fact: the store keeps each send as
// mail::compose decided it — one message with a delivery record per recipient (to and cc), its
// priority, type, ack and ttl, its idempotency key (a repeated key answers the original,
// SendReceipt::replayed), and its stream key (KeyUse: dedup and supersede judged per recipient in
// the send's transaction). A store without it (Facets::whole_sends null: the exec provider) takes
// one recipient per send and none of those extras, so ops::send sends once per recipient and
// refuses what would be dropped. No methods: Provider::send and reply are the operations.

namespace mailroom::mail {

class WholeSends {
protected:
  ~WholeSends() = default; // a facet is reached through Provider::facets(), never owned
};

} // namespace mailroom::mail
