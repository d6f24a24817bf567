#pragma once

// send and reply: a message decided (mail/compose), stored, and its receipts.
//
// send stores one message when the provider stores multi-recipient messages; otherwise the
// addresses are expanded here (mail::resolve_audience without a registry) and the message is sent
// once per recipient, stopping at the first failure and saying which copies were stored.
// Input (the body from a file, standard input or the editor) is the caller's: a request holds
// the text.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mail/compose.hpp"
#include "mail/ids.hpp"
#include "mail/views.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

// What send and reply share, as typed.
struct Sending {
  std::optional<std::string> priority;        // urgent, high, normal, low, backlog or 0-4
  bool urgent = false;                        // the same as priority urgent
  std::optional<std::string> type;            // send: default "message"; reply: the original's reply type
  bool ack = false;                           // track its deliveries until each recipient replies or acks
  std::optional<std::string> idempotency_key; // else $MAILROOM_IDEMPOTENCY_KEY
  std::optional<std::string> ttl;             // a duration
  bool wake = false; // --notify or --wake: wake the recipients that have a target ("notify" in [wake] on)
};

struct SendRequest {
  std::vector<std::string> to; // addresses as written (mailboxes, @groups, @all)
  std::vector<std::string> cc;
  std::optional<std::string> subject; // nullopt: derived from the body by the store's rules
  std::string body;
  Sending sending;
  std::optional<std::string> trace; // a traceparent or a message id to join (else $TRACEPARENT)
  // `send A B BODY`: A, whose B was taken as the subject; B must not name a recipient.
  std::optional<std::string> subject_argument_of;
  std::string usage; // the hint of a missing recipient (the surface's usage line)
  // A surface's cap on how many mailboxes one send reaches (groups and @all expanded; the MCP
  // server's 20): over it the send is a usage error with `reach_hint`, before anything is stored.
  std::optional<std::size_t> max_reach;
  std::string reach_hint;
  // The message's stream (mail::KeyUse; contract "Gas City, round 4"), at most one of them:
  // --dedup KEY leaves out each recipient that still has a live copy of it (every one: nothing is
  // stored), --supersede KEY archives each recipient's earlier unread copies. A store that cannot
  // tell (no whole_sends facet: exec) sends without --dedup and says so (notice
  // `dedup_unsupported`), and answers --supersede unsupported.
  std::optional<std::string> dedup;
  std::optional<std::string> supersede;
};

struct SendResult {
  std::vector<mail::SendReceipt> receipts; // one, or one per recipient (see above)
  std::optional<std::string> idempotency_key;
  std::vector<Notice> warnings; // also told: unknown_type (ops/types.hpp)
};

// Errors: usage (priority, ttl, key, no recipient, a subject naming a recipient, both --dedup and
// --supersede), those of mail::check_send and resolve_audience, the provider's (unsupported for
// @all, cc or --supersede without the whole_sends facet).
Result<SendResult> send(Session& session, const SendRequest& request);

// {"schema_version":1,"ok":true,"id","thread_id","recipients","ids","replayed","suppressed",
// "superseded"}, and "warnings" when there are some: id and thread_id null when nothing was stored;
// suppressed and superseded lists of {"recipient","id"}. The message `request` stands for, sent by `from`,
// with every check send makes before it stores (sizes, shapes, the type, a subject naming a recipient, the
// reach); its trace parent is not resolved. Errors: those of send before it stores.
Result<mail::SendRequest> checked_message(Session& session, const SendRequest& request,
                                          const mail::Mailbox& from);

nlohmann::json to_json(const SendResult& result);
// `Sent message <id> to <a, b>` per receipt (`Already sent message … (idempotency key K)` for a
// replay), then `Suppressed duplicate of <id>` per recipient left out (` for <name>` when the send
// had several) and `Superseded <id> for <name>` per copy archived.
text::DisplayText to_text(const SendResult& result, const render::Style& style);
nlohmann::json send_output_schema();

struct ReplyRequest {
  std::string id; // the message replied to: an id or a unique prefix
  std::optional<std::string> subject;
  std::string body;
  bool all = false;       // everyone on the original, not only its sender
  bool confirmed = false; // reply --all to more than the confirmation limit
  Sending sending;
};

struct ReplyResult {
  mail::MessageId reply_to; // resolved
  mail::SendReceipt receipt;
  std::vector<Notice> warnings; // also told: unknown_type for a --type given (ops/types.hpp)
};

// Errors: usage, not_found, ambiguous_id, not_recipient, those of mail::reply_audience, the provider's.
Result<ReplyResult> reply(Session& session, const ReplyRequest& request);

// {"schema_version":1,"ok":true,"id","ids","thread_id","recipients","reply_to","replayed"}, and
// "warnings" when there are some
nlohmann::json to_json(const ReplyResult& result);
// `Replied to <id> — sent message <id> to <a, b>`
text::DisplayText to_text(const ReplyResult& result, const render::Style& style);
nlohmann::json reply_output_schema();

// "@all (499 mailboxes)", "@ops (3 mailboxes), bob" or "alice, bob": who a message went to, as
// its sender addressed it. Names are sanitised (Sink::terminal_line).
text::DisplayText recipients_summary(const mail::Message& message,
                                     const std::vector<mail::Mailbox>& recipients);

// "stored <ids> but <why>": a stored message whose answer could not be written.
Result<void> after_store(const std::vector<mail::MessageId>& ids, Result<void> written);
std::vector<mail::MessageId> ids_of(const std::vector<mail::SendReceipt>& receipts);
// [{"code","message"}]: a result's warnings, as MCP's and HTTP's `warnings[]`.
nlohmann::json warnings_to_json(const std::vector<Notice>& warnings);

} // namespace mailroom::ops
