#pragma once

// Whose delivery a per-recipient action (read, mark-read, mark-unread, archive, unarchive, delete,
// ack) changes: contract "Operators act for a recipient".
//   - `--for NAME`: NAME's delivery, whoever the caller is; stderr says `acting for NAME` and the
//     store records the caller as `acted_by`.
//   - otherwise the caller's own delivery; when the caller is not a recipient and the config says
//     `[compat] gc = true`, the message's one recipient (Gas City's message has one state); with
//     several recipients, or without compat, exit 4 whose hint names the recipients and `--for`.

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "base/result.hpp"
#include "context.hpp"
#include "mail/provider.hpp"

namespace mailroom::cli {

// Adds `--for NAME` to `command`.
void add_for_option(CLI::App& command, std::optional<std::string>& name);

// The actor for `--for NAME` (announced on stderr); under [compat] gc without --for, the sole
// recipient of `id` when the caller is not one of its recipients (announced); else the caller.
Result<mail::Actor> choose_actor(Context& ctx, mail::Provider& provider, const mail::MessageId& id,
                                 const std::optional<std::string>& for_name);

// `failed` (a not_recipient error for `id`) with the recipients and `--for` in its hint.
Error explain_not_recipient(Context& ctx, mail::Provider& provider, const mail::MessageId& id, Error failed);

// Runs `action(actor)` for the actor choose_actor picks; a not_recipient error is explained.
template <typename Action>
auto act_on(Context& ctx, mail::Provider& provider, const mail::MessageId& id,
            const std::optional<std::string>& for_name, Action&& action) -> decltype(action(mail::Actor{}))
{
  TRY_ASSIGN(const mail::Actor actor, choose_actor(ctx, provider, id, for_name));
  auto result = action(actor);
  if (result.ok() || result.error().code != ErrorCode::not_recipient) {
    return result;
  }
  return explain_not_recipient(ctx, provider, id, std::move(result).error());
}

} // namespace mailroom::cli
