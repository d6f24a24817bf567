#include "hooks/settings.hpp"

#include "hooks/budget.hpp"
#include "settingsfile/placement.hpp"
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

Error shape_error(std::string_view file, std::string_view what);

// "<event>: <command>" for each hook of `groups` that runs another mail reminder.
void collect_other_mail_hooks(const Json& groups, const std::string& event, std::vector<std::string>& out)
{
  for (const Json& group : groups) {
    if (!group.is_object() || !group.contains("hooks") || !group["hooks"].is_array()) {
      continue;
    }
    for (const Json& hook : group["hooks"]) {
      if (hook.is_object() && hook.contains("command") && hook["command"].is_string() &&
          is_other_mail_hook_command(hook["command"].get_ref<const std::string&>())) {
        out.push_back(fmt::format("{}: {}", event, hook["command"].get_ref<const std::string&>()));
      }
    }
  }
}

// The checks of merge_settings, before any change: what to add, what is there already.
Result<MergeResult> plan_merge(const Json& settings, Agent agent, std::string_view file)
{
  if (!settings.is_null() && !settings.is_object()) {
    return shape_error(file, "the top level is not a JSON object");
  }
  const Json* hooks = settings.is_object() && settings.contains("hooks") ? &settings["hooks"] : nullptr;
  if (hooks != nullptr && !hooks->is_object()) {
    return shape_error(file, "\"hooks\" is not a JSON object");
  }
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
    collect_other_mail_hooks(groups, name, result.other_mail_hooks);
  }
  return result;
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

bool is_other_mail_hook_command(std::string_view command)
{
  const auto all = words(command);
  for (std::size_t i = 0; i + 2 < all.size(); ++i) {
    const std::string_view word = all[i];
    const std::size_t slash = word.rfind('/');
    if (word.substr(slash == std::string_view::npos ? 0 : slash + 1) == "gc" && all[i + 1] == "mail" &&
        all[i + 2] == "check") {
      return true;
    }
  }
  return false;
}

std::optional<Switch> hook_switch(Agent agent)
{
  switch (agent) {
  case Agent::gemini:
    return Switch{".gemini/settings.json", "\"hooksConfig\": {\"enabled\": true}", true};
  case Agent::codex:
    return Switch{"~/.codex/config.toml", "[features] codex_hooks = true", false};
  case Agent::claude:
    return std::nullopt;
  }
  return std::nullopt;
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
    base = settingsfile::project_placement(env).dir;
  }
  return (base / settings_file(agent)).string();
}

Result<MergeResult> merge_settings(nlohmann::ordered_json& settings, Agent agent, std::string_view file,
                                   std::chrono::milliseconds budget)
{
  // Every check comes before the first change, so an error leaves `settings` as it was.
  TRY_ASSIGN(MergeResult result, plan_merge(settings, agent, file));
  settingsfile::JsonEditor editor(settings, std::string(file));
  for (const std::string& name : result.added) {
    TRY(editor.append({"hooks", name}, matcher_group(agent, budget)));
  }
  return result;
}

Result<InstallResult> install_hooks(const std::string& path, Agent agent, std::chrono::milliseconds budget,
                                    const settingsfile::Surroundings& around)
{
  InstallResult result;
  auto change = [&](settingsfile::JsonEditor& editor) -> Result<void> {
    Json current = Json::object();
    if (const Json* top = editor.find({})) {
      current = *top;
    }
    TRY_ASSIGN(result.merge, plan_merge(current, agent, editor.file()));
    for (const std::string& name : result.merge.added) {
      TRY(editor.append({"hooks", name}, matcher_group(agent, budget)));
    }
    if (agent == Agent::gemini && !result.merge.added.empty()) {
      const Json* config = editor.find({"hooksConfig"});
      if (config == nullptr || config->is_object()) {
        TRY_ASSIGN(const settingsfile::Member member, editor.set_member({"hooksConfig", "enabled"}, true));
        result.switch_set = member == settingsfile::Member::added;
        if (member == settingsfile::Member::different) {
          result.switch_off = "\"hooksConfig\": {\"enabled\": true}";
        }
      }
    }
    return {};
  };
  TRY_ASSIGN(settingsfile::FileReport report, settingsfile::install_json(path, k_owner, change, around));
  result.path = report.path;
  result.created = report.created;
  result.changed = report.changed;
  result.backup = report.backup;
  return result;
}

Result<settingsfile::FileReport> uninstall_hooks(const std::string& path, Agent agent,
                                                 const settingsfile::Surroundings& around)
{
  // Without a record: each matcher group whose only hook is a mailroom reminder for this agent.
  auto guess = [agent](const Json& doc) {
    std::vector<settingsfile::Edit> edits;
    if (!doc.contains("hooks") || !doc["hooks"].is_object()) {
      return edits;
    }
    for (const std::string_view event : hook_events(agent)) {
      const std::string name(event);
      if (!doc["hooks"].contains(name) || !doc["hooks"][name].is_array()) {
        continue;
      }
      for (const Json& group : doc["hooks"][name]) {
        const bool ours = group.is_object() && group.contains("hooks") && group["hooks"].is_array() &&
                          group["hooks"].size() == 1 && group["hooks"][0].is_object() &&
                          group["hooks"][0].value("command", std::string()) == hook_command(agent);
        if (ours) {
          edits.push_back({settingsfile::Edit::Kind::created_object, {"hooks", name}, Json()});
          edits.push_back({settingsfile::Edit::Kind::appended, {"hooks", name}, group});
        }
      }
    }
    if (!edits.empty()) {
      edits.insert(edits.begin(),
                   settingsfile::Edit{settingsfile::Edit::Kind::created_object, {"hooks"}, Json()});
    }
    return edits;
  };
  return settingsfile::uninstall_json(path, k_owner, guess, around);
}

} // namespace mailroom::hooks
