#pragma once

// The life of a request (contract "The life of a request (A2A task states)" and its decisions
// after review): the state of each delivery of a message whose type expects a reply, named as
// A2A v1.0's task states, which moves it makes and who may make them. The stores keep the state
// in the delivery's `request_state` column and apply the moves decided here under guards that
// only let a state move forward (sql_rules.hpp: MR_SQL_REQUEST_*).
//
// The moves:
//   send            every delivery of a reply-expecting type starts `submitted`
//   read, claim     submitted -> working (read, mark-read, wait --read, a watch claim or done)
//   reply           the replier's delivery of the replied message -> completed, from any open
//                   state or after expiry (a late reply completes as a late ack acks)
//   decline         -> rejected, fail -> failed: from submitted, working or input_required
//   ask             submitted or working -> input_required: its TTL pauses
//   an answer       any reply to the question (type input_required) moves the asker's delivery of
//                   the request from input_required back to working, unread again, with its own
//                   expires_at pushed back by the time it spent waiting
//   cancel          the sender closes every open delivery (or one recipient's): canceled, and the
//                   delivery's life ends now (its expires_at becomes the cancel time, so every
//                   unread view drops it as it drops an expired one)
//   set aside       a watcher gave up: submitted or working -> failed; mark-unread returns such a
//                   delivery (set_aside_at still set) to submitted
// Terminal states (completed, failed, rejected, canceled, expired) never change otherwise.
// `expired` is never stored: a submitted or working delivery past its own expires_at reads as
// expired; an input_required one is paused and never expires while it waits.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "mail/message.hpp"
#include "mail/views.hpp"

namespace mailroom::mail {

// RequestState, its names and parse_request_state are in message.hpp (defined in request.cpp).

// completed, failed, rejected, canceled, expired.
bool is_terminal(RequestState state);
// Not terminal: submitted, working or input_required (a schedule's `--overlap skip` asks this).
bool is_open(RequestState state);
// What a stored state reads as: submitted or working past the delivery's expires_at (`expired`)
// is expired; every other state is itself.
RequestState effective_request_state(RequestState stored, bool expired);

// True when some delivery of `status` has an open request (is_open): the message's request is
// still open for some recipient.
bool request_open(const StatusResult& status);

// A delivery is owed (team, trace --recent) when its request is submitted or working, or, with no
// request, when it awaits an ack or was escalated. `request` is the effective state.
bool is_owed(std::optional<RequestState> request, AckState ack);

// The recipient's answers to a request that are not its reply.
enum class RequestVerb { decline, ask, fail };

std::string_view to_string(RequestVerb verb); // "decline", "ask", "fail"

// The types of the notices the verbs and cancel send (mail/types.cpp has them in its table).
inline constexpr std::string_view k_input_required_type = "input_required";
inline constexpr std::string_view k_declined_type = "declined";
inline constexpr std::string_view k_failed_type = "failed";
inline constexpr std::string_view k_canceled_type = "canceled";

// True for the four notice types above: a reply of such a type never answers a wait as `replied`.
bool is_request_notice(std::string_view type);
// The type of the reply `verb` sends.
std::string_view notice_type(RequestVerb verb);
// The verb whose notice has `type`; nullopt for any other type (canceled is cancel's, no verb's).
std::optional<RequestVerb> verb_of_notice(std::string_view type);
// The state `verb` leaves the replier's delivery in.
RequestState state_after(RequestVerb verb);
// The subject of a notice about `original_subject`: "Declined: …", "Question: …", "Failed: …",
// "Canceled: …" (once, however often it is prefixed).
std::string notice_subject(std::string_view type, std::string_view original_subject);

// Whether `replier` may answer `original` (as `replier` sees it: its state is the replier's
// delivery) with `verb`. Errors: not_recipient (no delivery), usage (the message expects no reply;
// a question without text), conflict (the request is already in a state the verb cannot leave).
Result<void> check_verb(RequestVerb verb, const Message& original, const Mailbox& replier);

// One state change a reply makes, applied in the reply's transaction under the store's guard.
struct RequestMove {
  enum class Kind {
    complete, // the replier's delivery of the replied message -> completed
    respond,  // the replier's delivery -> `to` (a verb)
    resume,   // input_required -> working, unread again, expires_at pushed back
  };
  Kind kind = Kind::complete;
  MessageId message;
  Mailbox recipient;
  RequestState to = RequestState::completed;
};

// The moves of `replier`'s reply of type `reply_type` to `original` (as the replier sees it):
// with `verb`, the respond move; else the completion of the replier's request, if it has one; and,
// when `original` is a question (type input_required), the resumption of its asker's delivery of
// the request it asked about.
std::vector<RequestMove> reply_moves(const Message& original, const Mailbox& replier,
                                     std::optional<RequestVerb> verb);

// What `cancel` does to one message (Requests::cancel).
struct CancelRequest {
  Mailbox sender;              // who cancels: the sender (or an operator acting as it)
  Mailbox acted_by;            // the caller, when it acts for the sender (else empty)
  MessageId id;                // full id
  std::optional<Mailbox> only; // --to NAME: only that recipient's delivery
  std::string reason;          // the notice's body
};

// Which deliveries a cancel closes and which it leaves (terminal ones, listed as unchanged).
struct CancelPlan {
  std::vector<Mailbox> closed;
  struct Unchanged {
    Mailbox recipient;
    RequestState state = RequestState::completed;
  };
  std::vector<Unchanged> unchanged;
};

// The plan for `request` on `status` (read in the cancel's transaction). Errors: not_sender (the
// canceller did not send it), usage (it expects no reply), not_recipient (`only` names no
// delivery of it).
Result<CancelPlan> plan_cancel(const StatusResult& status, const CancelRequest& request);

// What a cancel did, for its caller.
struct CancelResult {
  MessageId id;
  std::vector<Mailbox> canceled;
  std::vector<CancelPlan::Unchanged> unchanged;
  std::optional<MessageId> notice; // the `canceled` message sent to `canceled` (none when empty)
};

} // namespace mailroom::mail
