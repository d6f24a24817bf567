#include "mail/types.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "mail/message.hpp"
#include "text/strings.hpp"

namespace mailroom::mail {

const std::vector<MessageType>& builtin_types()
{
  // A function-local constant table, built once; holds no mutable state.
  static const std::vector<MessageType> k_types = {
      {"message", false, "message"},
      {"task_request", true, "task_response"},
      {"task_response", false, "message"},
      {"cron_task", true, "cron_result"},
      {"cron_result", false, "message"},
      {"notification", false, "message"},
      {"escalation", false, "message"},
      // The life of a request (mail/request.hpp): a question to the sender, which expects its
      // answer, and the notices of a declined, failed or canceled request.
      {"input_required", true, "message"},
      {"declined", false, "message"},
      {"failed", false, "message"},
      {"canceled", false, "message"},
  };
  return k_types;
}

bool is_valid_type_name(std::string_view name)
{
  if (name.empty() || name.size() > 64 || name[0] < 'a' || name[0] > 'z') {
    return false;
  }
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
    if (!ok) {
      return false;
    }
  }
  return true;
}

Result<MessageType> TypeRegistry::resolve(std::string_view name) const
{
  for (const MessageType& type : builtin_types()) {
    if (type.name == name) {
      return type;
    }
  }
  for (const CustomType& custom : m_custom) {
    if (custom.name == name) {
      return MessageType{custom.name, custom.expects_reply, std::string(k_default_type)};
    }
  }
  if (!is_valid_type_name(name)) {
    return make_error(
        ErrorCode::usage,
        fmt::format("invalid type \"{}\": a type is a lower-case name like task_request", name));
  }
  for (const std::string& known : names()) {
    if (text::edit_distance(name, known) <= 2) {
      return make_error(
          ErrorCode::usage, fmt::format("unknown type \"{}\"", name),
          fmt::format("did you mean \"{}\"? (declare a custom type under [types.{}] to use this "
                      "name)",
                      known, name));
    }
  }
  return MessageType{std::string(name), false, std::string(k_default_type)};
}

bool TypeRegistry::is_declared(std::string_view name) const
{
  const auto builtin = std::find_if(builtin_types().begin(), builtin_types().end(),
                                    [&](const MessageType& type) { return type.name == name; });
  const auto custom = std::find_if(m_custom.begin(), m_custom.end(),
                                   [&](const CustomType& type) { return type.name == name; });
  return builtin != builtin_types().end() || custom != m_custom.end();
}

std::string closest_builtin_type(std::string_view name)
{
  const auto last_part = [](std::string_view word) {
    const std::size_t underscore = word.rfind('_');
    return underscore == std::string_view::npos ? word : word.substr(underscore + 1);
  };
  const std::string_view wanted = last_part(name);
  for (const MessageType& type : builtin_types()) {
    if (!wanted.empty() && last_part(type.name) == wanted) {
      return type.name;
    }
  }
  const MessageType* best = &builtin_types().front();
  std::size_t best_distance = text::edit_distance(name, best->name);
  for (const MessageType& type : builtin_types()) {
    const std::size_t d = text::edit_distance(name, type.name);
    if (d < best_distance) {
      best = &type;
      best_distance = d;
    }
  }
  return best->name;
}

std::vector<std::string> TypeRegistry::names() const
{
  std::vector<std::string> out;
  for (const MessageType& type : builtin_types()) {
    out.push_back(type.name);
  }
  for (const CustomType& custom : m_custom) {
    out.push_back(custom.name);
  }
  return out;
}

} // namespace mailroom::mail
