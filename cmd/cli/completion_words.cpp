#include "completion_words.hpp"

#include <fmt/format.h>

#include "mail/types.hpp"
#include "support.hpp"

namespace mailroom::cli::completion {

namespace {
constexpr std::string_view k_agents = "claude codex gemini";
} // namespace

Completion for_value(const std::string& value_name)
{
  if (value_name == "NAME" || value_name == "MAILBOX") {
    return {Kind::mailboxes, {}};
  }
  if (value_name == "ADDR") {
    return {Kind::recipients, {}};
  }
  if (value_name == "TYPE") {
    return {Kind::types, {}};
  }
  if (value_name == "PATH" || value_name == "FILE" || value_name == "DIR") {
    return {Kind::files, {}};
  }
  if (value_name == "LEVEL") {
    return {Kind::words, "urgent high normal low backlog"};
  }
  if (value_name == "FORMAT" || value_name == "AGENT") {
    return {Kind::words, std::string(k_agents)};
  }
  return {};
}

std::string command_names(const CliModel& model)
{
  std::vector<std::string> names;
  for (const auto& c : model.commands) {
    names.push_back(c.name);
  }
  return join(names, " ");
}

Completion for_positional(const CliModel& model, const std::string& top, const CommandInfo& command)
{
  if (command.positionals.empty()) {
    return {};
  }
  const std::string& name = command.positionals.front();
  if (name == "id" || name == "ids" || (top == "reply" && name == "args")) {
    return {Kind::ids, {}};
  }
  if (top == "send" && name == "args") {
    return {Kind::recipients, {}};
  }
  if (name == "mailbox" || name == "names" || name == "name" || name == "peer") {
    return {Kind::mailboxes, {}};
  }
  if (name == "agent") {
    return {Kind::words, std::string(k_agents)};
  }
  if (name == "shell") {
    return {Kind::words, std::string(k_shells)};
  }
  if (name == "command" || name == "commands") {
    return {Kind::words, command_names(model)};
  }
  return {};
}

std::vector<std::string> all_names(const std::vector<OptionInfo>& options)
{
  std::vector<std::string> names;
  for (const auto& o : options) {
    names.insert(names.end(), o.names.begin(), o.names.end());
  }
  return names;
}

std::vector<std::string> value_names(const std::vector<OptionInfo>& options)
{
  std::vector<std::string> names;
  for (const auto& o : options) {
    if (!o.value_name.empty()) {
      names.insert(names.end(), o.names.begin(), o.names.end());
    }
  }
  return names;
}

std::string builtin_type_names()
{
  std::vector<std::string> names;
  for (const mail::MessageType& type : mail::builtin_types()) {
    names.push_back(type.name);
  }
  return join(names, " ");
}

std::string posix_helpers()
{
  return fmt::format(
      "_mailroom_mailboxes() {{ command mailroom \"$@\" --no-pager agents 2>/dev/null | awk 'NR > 1 {{ print "
      "$1 }}'; }}\n"
      "_mailroom_groups() {{ command mailroom \"$@\" --no-pager config 2>/dev/null | "
      "awk '$1 ~ /^groups\\./ {{ sub(/^groups\\./, \"@\", $1); print $1 }}'; }}\n"
      "_mailroom_types() {{ printf '%s\\n' {} ; command mailroom \"$@\" --no-pager config 2>/dev/null | "
      "awk '$1 ~ /^types\\./ {{ split($1, p, \".\"); print p[2] }}'; }}\n"
      "_mailroom_ids() {{ command mailroom \"$@\" --no-pager inbox --limit {} 2>/dev/null | "
      "awk '$1 ~ /^[a-z0-9]+-[0-9a-f]+$/ {{ print $1 }}'; }}\n",
      builtin_type_names(), k_max_ids);
}

std::string shell_quote(std::string_view text)
{
  std::string out = "'";
  for (const char c : text) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

} // namespace mailroom::cli::completion
