#pragma once

// Whose mail an operation is about, decided once for every surface.
//
// Listing operations (inbox, count, check, sent, search) take an optional mailbox: another's is a
// view of it, which records no presence.
//
// Per-recipient actions (read, mark-read, mark-unread, archive, unarchive, delete, ack) change one
// delivery: contract "Operators act for a recipient".
//   - `for NAME`: NAME's delivery, whoever the caller is; the caller is told `acting for NAME`
//     (Session::tell) and the store records the caller as `acted_by`.
//   - otherwise the caller's own delivery; when the caller is not a recipient and the config says
//     `[compat] gc = true`, the message's one recipient (Gas City's message has one state); with
//     several recipients, or without compat, exit 4 whose hint names the recipients and `--for`.

#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "mail/provider.hpp"
#include "session.hpp"

namespace mailroom::ops {

// The mailbox a listing operation is about: `mailbox` when given (it must be a mailbox, not @all
// or a group), else the caller. Naming another mailbox makes the operation a view of it: it
// records no presence (session.presence is cleared). Errors: invalid_recipient, usage.
Result<mail::Mailbox> listing_target(Session& session, const std::optional<std::string>& mailbox);

// The actor for `for NAME` (announced); under [compat] gc without `for`, the sole recipient of
// `id` when the caller is not one of its recipients (announced); else the caller.
Result<mail::Actor> choose_actor(Session& session, mail::Provider& provider, const mail::MessageId& id,
                                 const std::optional<std::string>& for_name);

// `failed` (a not_recipient error for `id`) with the recipients and `--for` in its hint.
Error explain_not_recipient(Session& session, mail::Provider& provider, const mail::MessageId& id,
                            Error failed);

// Runs `action(actor)` for the actor choose_actor picks; a not_recipient error is explained.
template <typename Action>
auto act_on(Session& session, mail::Provider& provider, const mail::MessageId& id,
            const std::optional<std::string>& for_name, Action&& action) -> decltype(action(mail::Actor{}))
{
  TRY_ASSIGN(const mail::Actor actor, choose_actor(session, provider, id, for_name));
  auto result = action(actor);
  if (result.ok() || result.error().code != ErrorCode::not_recipient) {
    return result;
  }
  return explain_not_recipient(session, provider, id, std::move(result).error());
}

// Gas City's `missing message ID` when `ids` is empty; otherwise nothing.
Result<void> require_ids(const std::vector<std::string>& ids);

} // namespace mailroom::ops
