#pragma once

// The claims facet: leases on deliveries for `watch` (mail/claims.hpp has the types and rules).

#include <cstdint>

#include "base/result.hpp"
#include "mail/claims.hpp"

namespace mailroom::mail {

class Claims {
public:
  // Claims, in one write transaction, the first delivery of request.mailbox in inbox order that is
  // unread, unarchived, unexpired, not set aside, matches the filters, whose retry time has come
  // and whose lease is free or has run out, for request.lease_ms from now (the store's clock),
  // with a fresh token; the handler attempt is counted now, so a watcher that dies mid-handler
  // still used one. A first delivery whose attempts are already spent (mail::attempts_spent with
  // request.max_attempts: earlier attempts ended unseen) is set aside in the same transaction and
  // returned as ClaimNext::set_aside instead of claimed. None: ClaimNext::wake_in_ms says when a
  // matching delivery becomes claimable by time alone. Two claimers never get the same delivery
  // while its lease holds.
  virtual Result<ClaimNext> claim_next(const ClaimRequest& request) = 0;
  // Extends `claim` to `lease_ms` from now. Errors: conflict when the token no longer holds (the
  // lease ran out and another watcher took it, or it was finished).
  virtual Result<void> renew_claim(const Claim& claim, std::int64_t lease_ms) = 0;
  // Ends `claim`: done marks the delivery read and acked; failed keeps it unread and claimable
  // again after retry_after_ms, or sets it aside when its attempts reached max_attempts (watch
  // skips it until mark_unread); released takes back the attempt claim_next counted, as if it had
  // never been claimed. The lease is cleared in every case. Errors: conflict when the token no
  // longer holds (nothing is changed).
  virtual Result<ClaimResult> finish_claim(const Claim& claim, const ClaimFinish& finish) = 0;

protected:
  ~Claims() = default; // a facet is reached through Provider::facets(), never owned
};

} // namespace mailroom::mail
