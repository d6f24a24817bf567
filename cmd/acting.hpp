#pragma once

// The --for option of the per-recipient actions (read, mark-read, mark-unread, archive,
// unarchive, delete, ack). Whose delivery they change is decided in ops/acting.hpp.

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "context.hpp"
#include "ops/acting.hpp"

namespace mailroom::cli {

// Adds `--for NAME` to `command`.
void add_for_option(CLI::App& command, std::optional<std::string>& name);

// ops::act_on with the command's session.
template <typename Action>
auto act_on(Context& ctx, mail::Provider& provider, const mail::MessageId& id,
            const std::optional<std::string>& for_name, Action&& action) -> decltype(action(mail::Actor{}))
{
  return ops::act_on(ctx.session, provider, id, for_name, std::forward<Action>(action));
}

} // namespace mailroom::cli
