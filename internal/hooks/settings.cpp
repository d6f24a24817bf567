#include "hooks/settings.hpp"

#include "hooks/budget.hpp"
#include "hooks/json_file.hpp"
#include "text/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace mailroom::hooks {

namespace {

using Json = nlohmann::ordered_json;

std::vector<std::string_view> words(std::string_view text)
{
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t start = text.find_first_not_of(" \t\n", pos);
    if (start == std::string_view::npos) {
      break;
    }
    const std::size_t end = std::min(text.find_first_of(" \t\n", start), text.size());
    std::string_view word = text.substr(start, end - start);
    // Quoted words ("/opt/bin/mailroom") count without their quotes.
    while (!word.empty() && (word.front() == '"' || word.front() == '\'')) {
      word.remove_prefix(1);
    }
    while (!word.empty() && (word.back() == '"' || word.back() == '\'')) {
      word.remove_suffix(1);
    }
    out.push_back(word);
    pos = end;
  }
  return out;
}

Json hook_entry(Agent agent, std::chrono::milliseconds budget)
{
  const int timeout_seconds = agent_timeout_seconds(budget);
  Json hook = Json::object();
  hook["type"] = "command";
  if (agent == Agent::gemini) {
    hook["name"] = "mailroom";
  }
  hook["command"] = hook_command(agent);
  hook["timeout"] = agent == Agent::gemini ? timeout_seconds * 1000 : timeout_seconds;
  return hook;
}

Json matcher_group(Agent agent, std::chrono::milliseconds budget)
{
  Json group = Json::object();
  group["matcher"] = "";
  group["hooks"] = Json::array({hook_entry(agent, budget)});
  return group;
}

// True when some hook of `groups` (an event's array) runs a mailroom reminder.
bool has_mailroom_hook(const Json& groups)
{
  for (const Json& group : groups) {
    if (!group.is_object() || !group.contains("hooks") || !group["hooks"].is_array()) {
      continue;
    }
    for (const Json& hook : group["hooks"]) {
      if (hook.is_object() && hook.contains("command") && hook["command"].is_string() &&
          is_mailroom_hook_command(hook["command"].get_ref<const std::string&>())) {
        return true;
      }
    }
  }
  return false;
}

Error shape_error(std::string_view file, std::string_view what)
{
  return make_error(ErrorCode::usage, fmt::format("{}: {}; left unchanged", file, what),
                    "fix the file, or add the entry by hand (see 'mailroom hooks show')");
}

} // namespace

std::string hook_command(Agent agent)
{
  return fmt::format("mailroom check --hook-format {}", to_string(agent));
}

bool is_mailroom_hook_command(std::string_view command)
{
  const auto all = words(command);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::string_view word = all[i];
    const std::size_t slash = word.rfind('/');
    if (word.substr(slash == std::string_view::npos ? 0 : slash + 1) != "mailroom") {
      continue;
    }
    bool check = false;
    bool hook_mode = false;
    for (std::size_t j = i + 1; j < all.size(); ++j) {
      check = check || all[j] == "check";
      hook_mode = hook_mode || all[j] == "--inject" || text::starts_with(all[j], "--hook-format");
    }
    if (check && hook_mode) {
      return true;
    }
  }
  return false;
}

nlohmann::ordered_json settings_snippet(Agent agent, std::chrono::milliseconds budget)
{
  Json events = Json::object();
  for (const std::string_view event : hook_events(agent)) {
    events[std::string(event)] = Json::array({matcher_group(agent, budget)});
  }
  Json doc = Json::object();
  doc["hooks"] = std::move(events);
  return doc;
}

Result<std::string> settings_path(Agent agent, Scope scope, const util::Environment& env)
{
  std::filesystem::path base;
  if (scope == Scope::user) {
    const auto home = env.get("HOME");
    if (!home || home->empty()) {
      return make_error(ErrorCode::usage, "HOME is not set, so there is no user settings file",
                        "leave out --user to use the project's settings");
    }
    base = *home;
  } else {
    base = env.cwd();
  }
  return (base / settings_file(agent)).string();
}

Result<MergeResult> merge_settings(nlohmann::ordered_json& settings, Agent agent, std::string_view file,
                                   std::chrono::milliseconds budget)
{
  if (settings.is_null()) {
    settings = Json::object();
  }
  if (!settings.is_object()) {
    return shape_error(file, "the top level is not a JSON object");
  }
  const Json* hooks = settings.contains("hooks") ? &settings["hooks"] : nullptr;
  if (hooks != nullptr && !hooks->is_object()) {
    return shape_error(file, "\"hooks\" is not a JSON object");
  }
  // Every check comes before the first change, so an error leaves `settings` as it was.
  MergeResult result;
  for (const std::string_view event : hook_events(agent)) {
    const std::string name(event);
    if (hooks == nullptr || !hooks->contains(name)) {
      result.added.push_back(name);
      continue;
    }
    const Json& groups = (*hooks)[name];
    if (!groups.is_array()) {
      return shape_error(file, fmt::format("\"hooks.{}\" is not a JSON array", name));
    }
    (has_mailroom_hook(groups) ? result.already : result.added).push_back(name);
  }
  for (const std::string& name : result.added) {
    settings["hooks"][name].push_back(matcher_group(agent, budget));
  }
  return result;
}

Result<InstallResult> install_hooks(const std::string& path, Agent agent, std::chrono::milliseconds budget)
{
  InstallResult result;
  TRY_ASSIGN(result.path, resolve_symlink(path));
  TRY_ASSIGN(std::optional<FileContent> existing, read_settings_file(result.path));
  result.created = !existing.has_value();
  Json settings = Json::object();
  if (existing) {
    TRY_ASSIGN(settings, parse_settings(existing->text, result.path));
  }
  TRY_ASSIGN(result.merge, merge_settings(settings, agent, result.path, budget));
  if (result.merge.added.empty()) {
    return result;
  }
  const std::string text = settings.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
  if (existing) {
    const std::string backup = result.path + ".bak";
    TRY(write_atomically(backup, existing->text, existing->mode));
    result.backup = backup;
    TRY(write_atomically(result.path, text, existing->mode));
  } else {
    TRY(make_parent_directory(result.path));
    TRY(write_atomically(result.path, text, new_file_mode()));
  }
  result.changed = true;
  return result;
}

} // namespace mailroom::hooks
