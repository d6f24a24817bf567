#pragma once

// Message types and whether they expect a reply (contract "Message types and reply
// expectations"). The one table of built-in types lives in types.cpp.

#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"

namespace mailroom::mail {

struct MessageType {
  std::string name;
  bool expects_reply = false;
  std::string reply_type = "message"; // the default type of a reply to it
};

// A type the config declares ([types.NAME] expects_reply = …).
struct CustomType {
  std::string name;
  bool expects_reply = false;
};

// The built-in types in contract order: message, task_request, task_response, cron_task,
// cron_result, notification, escalation, then the request's own: input_required, declined,
// failed, canceled (mail/request.hpp).
const std::vector<MessageType>& builtin_types();

// The built-in type a writer of `name` most likely meant: one whose last `_` part is `name`'s own
// last part (request → task_request, result → cron_result; the first in table order), else the
// nearest by edit distance (ties: table order).
std::string closest_builtin_type(std::string_view name);

// True when `name` is a well-formed type name: 1 to 64 of [a-z0-9_.-], starting with a letter.
bool is_valid_type_name(std::string_view name);

// The built-in and configured types together.
class TypeRegistry {
public:
  TypeRegistry() = default;
  explicit TypeRegistry(std::vector<CustomType> custom) : m_custom(std::move(custom)) {}

  // The type `name` stands for: a built-in, a configured type, or — when `name` is well formed
  // and not within edit distance 2 of a known type — a custom type that expects no reply.
  // Errors: usage for a malformed name, and for a likely typo with a did-you-mean.
  Result<MessageType> resolve(std::string_view name) const;

  // Every known name (built-in, then configured), for completion and help.
  std::vector<std::string> names() const;

  // True when `name` is built in or configured ([types.NAME]); resolve() also accepts other
  // well-formed names far from every known one (contract "Round 4: decisions after review", Types).
  bool is_declared(std::string_view name) const;

private:
  std::vector<CustomType> m_custom;
};

} // namespace mailroom::mail
