#include "completion_words.hpp"

#include "support.hpp"

namespace mailroom::cli::completion {

Completion for_value(const std::string& value_name)
{
  if (value_name == "NAME" || value_name == "ADDR" || value_name == "MAILBOX") {
    return {Kind::mailboxes, {}};
  }
  if (value_name == "PATH" || value_name == "FILE" || value_name == "DIR") {
    return {Kind::files, {}};
  }
  if (value_name == "LEVEL") {
    return {Kind::words, "urgent high normal low backlog"};
  }
  if (value_name == "FORMAT") {
    return {Kind::words, "claude codex gemini"};
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
  if (name == "mailbox" || name == "names" || name == "name" || (top == "send" && name == "args")) {
    return {Kind::mailboxes, {}};
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

std::string shell_quote(std::string_view text)
{
  std::string out = "'";
  for (const char c : text) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

} // namespace mailroom::cli::completion
