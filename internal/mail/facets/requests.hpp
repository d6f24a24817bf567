#pragma once

// The requests facet: the life of a request beyond its reply (mail/request.hpp decides; the store
// applies). A store without it (Facets::requests null: the exec provider, whose script protocol
// keeps no per-delivery state) answers cancel, decline, ask and fail `unsupported`, and its
// messages carry no request_state.

#include "base/result.hpp"
#include "mail/compose.hpp"
#include "mail/request.hpp"
#include "mail/views.hpp"

namespace mailroom::mail {

class Requests {
public:
  // Withdraws request.id for every delivery whose request is open (or only request.only's), in one
  // write transaction: each becomes canceled and its life ends now (mail/request.hpp), and one
  // message of type `canceled` (compose_cancel_notice, request.reason as its body) goes to every
  // delivery it closed. Terminal deliveries are left as they are and listed as unchanged; with
  // none closed, nothing is sent. Errors: not_found, not_sender, usage (no reply expected),
  // not_recipient (`only` is not a recipient), store errors.
  virtual Result<CancelResult> cancel(const CancelRequest& request) = 0;
  // Answers request.id with request.verb (decline, ask or fail: set): the verb's notice is sent as
  // a reply (compose_reply) and the replier's request moves in the same transaction, as a reply's
  // acks do. Errors: as Provider::reply, and check_verb's (not_recipient, usage, conflict).
  virtual Result<SendReceipt> respond(const ReplyRequest& request) = 0;

protected:
  ~Requests() = default; // a facet is reached through Provider::facets(), never owned
};

} // namespace mailroom::mail
