#pragma once

// What a hook invocation prints: the reminder text, bounded for an agent's context, the agent's
// hook JSON around it, the command prefix the reminder tells the agent to run, and the one short
// stderr line a failing hook leaves.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "config/config.hpp"
#include "config/discovery.hpp"
#include "hooks/agent.hpp"
#include "mail/message.hpp"
#include "render/render.hpp"
#include "text/display.hpp"

namespace mailroom::hooks {

// The most reminder text a hook hands an agent. Claude Code caps hook context at 10,000
// characters; bytes are counted here, which is never fewer than characters (UTF-16 units included).
inline constexpr std::size_t k_max_context_bytes = 8000;

// The most bytes of the one stderr line a failing hook prints.
inline constexpr std::size_t k_max_error_bytes = 300;

// The check --inject block (render::render_inject) for `unread` messages of which `messages` are
// the first listed, at most `max_bytes` long: when the whole block is longer, it lists fewer
// messages, so its "Showing the first K message(s) here; run '... inbox' ..." line says so. Only
// if even the block without messages is too long (a huge `program`) is it cut at a line or
// character boundary, ending with a "[cut ...]" line and the closing tag. Empty when `unread` <= 0.
// `now` labels redelivered messages (render_inject).
// `head` adds the mailbox and class lines (render::ReminderHead).
text::DisplayText bounded_reminder(const render::ReminderHead& head,
                                   const std::vector<mail::Message>& messages, std::string_view program,
                                   std::size_t max_bytes = k_max_context_bytes,
                                   std::optional<mail::UnixMillis> now = std::nullopt);
inline text::DisplayText bounded_reminder(std::int64_t unread, const std::vector<mail::Message>& messages,
                                          std::string_view program,
                                          std::size_t max_bytes = k_max_context_bytes,
                                          std::optional<mail::UnixMillis> now = std::nullopt)
{
  return bounded_reminder(render::ReminderHead{unread}, messages, program, max_bytes, now);
}

// The agent's hook JSON on one line plus '\n', for Claude Code, Codex and Gemini CLI alike:
// {"hookSpecificOutput":{"hookEventName":<event>,"additionalContext":<text without trailing
// newlines>}}. Empty when `text` is empty (no mail: the agent gets nothing at all).
std::string hook_output(Agent agent, std::string_view event, std::string_view text);

// The event a hook answers: `flag` (--hook-event) when given, else the payload's event name, else
// default_event(agent).
std::string choose_event(Agent agent, const std::optional<std::string>& flag, std::string_view payload_event);

// The command prefix the reminder tells the agent to run, so that it works as written in the
// agent's shell: "mailroom", plus `--config F` and `--db F` when those came from flags (the shell
// would not find the same files otherwise), plus `--as NAME` when the identity came from --as or
// when `mailbox` (the checked mailbox) is not the identity. Paths that need it are double-quoted.
std::string reminder_command(const config::Config& config, const config::Identity& me,
                             const mail::Mailbox& mailbox);

// `error` as a hook reports it, on one line: the message with the hint in parentheses after it,
// flattened (line breaks become spaces, other controls visible escapes) and cut to
// k_max_error_bytes with "...". No hint line. The code is kept.
Error hook_error(const Error& error);

} // namespace mailroom::hooks
