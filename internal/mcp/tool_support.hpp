#pragma once

// What the tool implementations share: typed reads of already validated arguments, the acting
// mailbox, message shaping for MCP (bodies cut at max_body_bytes) and list documents.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "mail/message.hpp"
#include "mail/views.hpp"
#include "mcp/tools.hpp"

namespace mailroom::mcp {

std::optional<std::string> arg_string(const json& args, const char* key);
std::vector<std::string> arg_strings(const json& args, const char* key); // a string or a list
bool arg_flag(const json& args, const char* key);
std::optional<std::int64_t> arg_integer(const json& args, const char* key);

// The mailbox a view acts on: the server's own, or `mailbox` under --open-views.
// Errors: usage (another mailbox without --open-views).
Result<mail::Mailbox> view_mailbox(const ToolCall& call);
// `max_body_bytes` (default 16 KiB).
std::size_t max_body_bytes(const ToolCall& call);
// `message` with its body cut to max_body_bytes (body_truncated, body_bytes the whole size).
mail::Message shaped(const ToolCall& call, mail::Message message);
// `limit` (default mail::k_default_list_limit).
std::size_t list_limit(const ToolCall& call);

// The filters' arguments (from, to, type, priority, since, until, unread, archived, thread).
json filter_properties();
Result<mail::Filters> filters_from(const ToolCall& call);

// `value` as one mailbox. Errors: invalid_recipient, usage.
Result<mail::Mailbox> mailbox_arg(const std::string& value, std::string_view name);

// A usage error.
Error usage(std::string message, std::string hint = {});

// A list tool's output, rebuilt with only the first `keep` messages when the whole does not fit
// (call_tool cuts lists at the last whole message that fits; total stays).
struct ListShape {
  mail::Mailbox mailbox;
  mail::ListResult listed;
  json extra; // keys added to the document (e.g. "unread")
  text::DisplayText (*render)(const std::vector<mail::ListedMessage>& messages, const ToolCall& call);
};
ToolOutput list_output(const ToolCall& call, const ListShape& shape, std::size_t keep);

} // namespace mailroom::mcp
