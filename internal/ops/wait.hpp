#pragma once

// wait: block until the caller has a matching unread message (or a reply to an id), then show it
// as peek does, or take it (read): contract "Waiting" and "Waiting ends when the answer is known".
// The loop is mail/waiting.hpp; this decides the query, what a found message is shown as, and the
// take.
//
// `read` without `reply_to` takes the message once (Provider::take): of several waiters one gets
// it, the others pass over it and wait on. With `reply_to`, the reply is read whether or not
// another marked it. Either way the message is marked read only after `deliver` wrote it, so a
// failed write, a wait stopped (Session::stop) before it, or a process killed while writing,
// marks nothing. A store that is not up when the wait starts is waited for (store_open.hpp).

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mail/waiting.hpp"
#include "render/table.hpp"
#include "send.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct WaitRequest {
  std::vector<std::string> types;      // any of these types (resolved: a typo is a did-you-mean)
  std::optional<std::string> from;     // one mailbox
  std::optional<std::string> thread;   // a thread id or a message id (or prefix) in it
  std::optional<std::string> reply_to; // a message id or prefix: a reply to it, even one already read
  std::optional<std::string> since;    // a duration ago or a time
  std::optional<std::string> after;    // a message id or prefix: only mail that arrived after it
  bool read = false;                   // take the message (see above)
  std::optional<std::chrono::steady_clock::time_point> deadline; // none: until stopped
  // Ends the wait when readable (the CLI's signal watch); -1: the session's stop token does.
  int interrupt_fd = -1;
};

struct WaitResult {
  mail::Mailbox mailbox;
  mail::WaitOutcome outcome; // outcome.message: what is shown (as read, with `read`)
  bool reply_to = false;
  bool read = false;
  std::optional<mail::MessageId> request; // reply_to, resolved
};

// Writes a found message; for `read`, the message is marked read only when this succeeded.
using WaitDeliver = std::function<Result<void>(const WaitResult& result)>;

// Returns once the wait ended: found (then already passed to `deliver`), timed out, interrupted
// or stopped (WaitEnd::interrupted), or the request ended without a reply. Errors: usage,
// not_found and ambiguous_id for the ids, the provider's that may not pass, deliver's.
Result<WaitResult> wait(Session& session, const WaitRequest& request, const WaitDeliver& deliver);

// {"schema_version":1,"message":{…}|null,"timed_out","outcome","notice"}
nlohmann::json to_json(const WaitResult& result);
// The found message as peek shows it; for a request answered by a question, a decline, a
// failure or a cancel, that notice; nothing otherwise.
text::DisplayText to_text(const WaitResult& result, const render::Style& style);
nlohmann::json wait_output_schema();

// send --wait-reply's answer: the send's JSON with the wait's keys and "reply".
nlohmann::json to_json(const SendResult& sent, const WaitResult& waited);
nlohmann::json send_wait_output_schema();

// True for the ends a notice answers: input_required, rejected, failed, canceled.
bool ends_with_answer(mail::WaitEnd end);

// The error a request that ended without a reply (a question, a decline, a failure, a cancel, set
// aside, escalated, expired) is reported as (exit 1; the hint names `status`, or for a question
// the `mailroom reply <question-id>` that answers it); nullopt for any other end. `stays_sent`:
// send --wait-reply says the message stays sent.
std::optional<Error> request_end_error(const WaitResult& result, bool stays_sent);

// The type names given, each resolved (a typo is a usage error with a did-you-mean).
Result<std::vector<std::string>> resolve_types(const Session& session, const std::vector<std::string>& types);

} // namespace mailroom::ops
