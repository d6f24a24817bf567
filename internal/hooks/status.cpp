#include "hooks/status.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "config/discovery.hpp"
#include "config/worktree.hpp"
#include "mail/stores.hpp"
#include "settingsfile/file_io.hpp"
#include "text/conninfo.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"
#include "util/file_read.hpp"

namespace mailroom::hooks {

namespace fs = std::filesystem;

namespace {

using Json = nlohmann::ordered_json;

bool exists(const std::string& path)
{
  std::error_code ec;
  return fs::exists(path, ec);
}

// The parsed settings file, or nullopt with `why` set.
std::optional<Json> read_json(const std::string& path, std::string& why)
{
  auto content = settingsfile::read_settings_file(path);
  if (!content.ok()) {
    why = content.error().message;
    return std::nullopt;
  }
  if (!*content) {
    why = "missing";
    return std::nullopt;
  }
  auto doc = settingsfile::parse_settings((*content)->text, path);
  if (!doc.ok()) {
    why = doc.error().message;
    return std::nullopt;
  }
  return *doc;
}

// The hook commands of `event` in `doc`.
std::vector<std::string> commands_of(const Json& doc, const std::string& event)
{
  std::vector<std::string> out;
  if (!doc.is_object() || !doc.contains("hooks") || !doc["hooks"].is_object() ||
      !doc["hooks"].contains(event) || !doc["hooks"][event].is_array()) {
    return out;
  }
  for (const Json& group : doc["hooks"][event]) {
    if (!group.is_object() || !group.contains("hooks") || !group["hooks"].is_array()) {
      continue;
    }
    for (const Json& hook : group["hooks"]) {
      if (hook.is_object() && hook.contains("command") && hook["command"].is_string()) {
        out.push_back(hook["command"].get<std::string>());
      }
    }
  }
  return out;
}

// The program the hook command starts: its first word that is not an assignment or `env`.
std::string program_of(const std::string& command)
{
  std::size_t pos = 0;
  while (pos < command.size()) {
    const std::size_t start = command.find_first_not_of(" \t", pos);
    if (start == std::string::npos) {
      break;
    }
    const std::size_t end = std::min(command.find_first_of(" \t", start), command.size());
    std::string word = command.substr(start, end - start);
    pos = end;
    if (word == "env" || word.find('=') != std::string::npos) {
      continue;
    }
    while (!word.empty() && (word.front() == '"' || word.front() == '\'')) {
      word.erase(0, 1);
    }
    while (!word.empty() && (word.back() == '"' || word.back() == '\'')) {
      word.pop_back();
    }
    return word;
  }
  return {};
}

// `program` as execvp would find it in `path_env`, or "".
std::string which(const std::string& program, const std::string& path_env)
{
  if (program.find('/') != std::string::npos) {
    return ::access(program.c_str(), X_OK) == 0 ? program : std::string();
  }
  std::size_t start = 0;
  while (start <= path_env.size()) {
    const std::size_t colon = std::min(path_env.find(':', start), path_env.size());
    const std::string dir = path_env.substr(start, colon - start);
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + program;
    struct stat info {};
    if (::stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    start = colon + 1;
  }
  return {};
}

bool same_file(const std::string& a, const std::string& b)
{
  std::error_code ec;
  return fs::equivalent(a, b, ec);
}

} // namespace

Check program_check(const std::string& agent, std::string_view check, const std::string& program,
                    const StatusInputs& in)
{
  const std::string found = which(program, in.env.get("PATH").value_or(""));
  if (found.empty()) {
    return {agent, std::string(check), false,
            fmt::format("'{}' is not found on PATH ({})", program,
                        text::truncate_line(in.env.get("PATH").value_or(""), 200))};
  }
  if (!in.self.empty() && !same_file(found, in.self)) {
    return {agent, std::string(check), false,
            fmt::format("'{}' resolves to {}, not this mailroom ({})", program, found, in.self)};
  }
  return {agent, std::string(check), true, fmt::format("'{}' resolves to {}", program, found)};
}

Check identity_check(const std::string& agent, std::string_view check, const std::optional<std::string>& as,
                     const StatusInputs& in)
{
  if (in.config == nullptr) {
    return {agent, std::string(check), false, in.config_error};
  }
  auto identity = config::resolve_identity(in.env, *in.config, as, "--as");
  if (!identity.ok()) {
    return {agent, std::string(check), false, identity.error().message};
  }
  if (identity->origin.kind == config::Origin::Kind::default_value) {
    return {agent, std::string(check), false,
            fmt::format("{} (default): give each agent MAILROOM_IDENTITY=<name> in its environment, or "
                        "write the name to {} at its worktree's top",
                        identity->name, config::k_identity_file)};
  }
  return {agent, std::string(check), true,
          fmt::format("{} (from {})", identity->name, config::to_string(identity->origin))};
}

bool has_hooks_installed(Agent agent, Scope scope, const util::Environment& env)
{
  auto path = settings_path(agent, scope, env);
  if (!path.ok()) {
    return false;
  }
  std::string why;
  const auto doc = read_json(*path, why);
  if (!doc) {
    return why != "missing";
  }
  for (const std::string_view event : hook_events(agent)) {
    for (const std::string& command : commands_of(*doc, std::string(event))) {
      if (is_mailroom_hook_command(command)) {
        return true;
      }
    }
  }
  return false;
}

std::vector<Check> agent_checks(Agent agent, Scope scope, const StatusInputs& in)
{
  const std::string name(to_string(agent));
  std::vector<Check> checks;
  auto path = settings_path(agent, scope, in.env);
  if (!path.ok()) {
    checks.push_back({name, "settings", false, path.error().message});
    return checks;
  }
  std::string why;
  const auto doc = read_json(*path, why);
  std::string mailroom_command;
  if (!doc) {
    checks.push_back(
        {name, "settings", false,
         why == "missing" ? fmt::format("no {} (run 'mailroom hooks install {}')", *path, name) : why});
  } else {
    std::vector<std::string> with;
    std::vector<std::string> without;
    std::vector<std::string> others;
    for (const std::string_view event : hook_events(agent)) {
      bool found = false;
      for (const std::string& command : commands_of(*doc, std::string(event))) {
        if (is_mailroom_hook_command(command)) {
          found = true;
          mailroom_command = command;
        } else if (is_other_mail_hook_command(command)) {
          others.push_back(fmt::format("'{}' on {}", command, event));
        }
      }
      (found ? with : without).emplace_back(event);
    }
    checks.push_back({name, "settings", without.empty(),
                      without.empty()
                          ? fmt::format("{}: the mailroom hook on {}", *path, text::join(with))
                          : fmt::format("{}: no mailroom hook on {} (run 'mailroom hooks install {}')", *path,
                                        text::join(without), name)});
    checks.push_back({name, "second_hook", others.empty(),
                      others.empty() ? std::string("no other mail reminder")
                                     : fmt::format("{} also runs {}: the agent gets two reminders; remove it "
                                                   "(mailroom's hook covers it)",
                                                   *path, text::join(others))});
    if (agent == Agent::gemini) {
      const bool off = doc->contains("hooksConfig") && (*doc)["hooksConfig"].is_object() &&
                       (*doc)["hooksConfig"].value("enabled", true) == false;
      checks.push_back(
          {name, "switch", !off,
           off ? fmt::format("{} has \"hooksConfig\": {{\"enabled\": false}}: Gemini CLI runs no hook", *path)
               : std::string("hooks are on (hooksConfig.enabled)")});
    }
  }
  if (agent == Agent::codex) {
    // Codex's switch is in config.toml, never in the file mailroom installs: report it.
    std::string off_in;
    const auto home = in.env.get("CODEX_HOME");
    const auto user_home = in.env.get("HOME");
    std::vector<std::string> files;
    if (home && !home->empty()) {
      files.push_back(*home + "/config.toml");
    } else if (user_home && !user_home->empty()) {
      files.push_back(*user_home + "/.codex/config.toml");
    }
    files.push_back((fs::path(*path).parent_path() / "config.toml").string());
    for (const std::string& file : files) {
      const auto text = util::read_file(file);
      if (!text) {
        continue;
      }
      std::string compact;
      for (const char c : *text) {
        if (c != ' ' && c != '\t') {
          compact += c;
        }
      }
      if (compact.find("\nhooks=false") != std::string::npos ||
          compact.find("codex_hooks=false") != std::string::npos || compact.rfind("hooks=false", 0) == 0) {
        off_in = file;
      }
    }
    checks.push_back({name, "switch", off_in.empty(),
                      off_in.empty()
                          ? std::string("on by default; Codex loads a project's .codex/ only when you trust "
                                        "the project (older releases also need [features] codex_hooks = "
                                        "true in ~/.codex/config.toml)")
                          : fmt::format("{} turns hooks off ([features] hooks = false)", off_in)});
  }
  const std::string program = program_of(mailroom_command.empty() ? hook_command(agent) : mailroom_command);
  checks.push_back(program_check(name, "command", program, in));
  if (in.config == nullptr) {
    checks.push_back({name, "identity", false, in.config_error});
    checks.push_back({name, "store", false, in.config_error});
    return checks;
  }
  checks.push_back(identity_check(name, "identity", std::nullopt, in));
  const std::string store = in.config->store_path.value;
  if (in.config->provider.value != "beads") {
    checks.push_back({name, "store", true, fmt::format("provider {}", in.config->provider.value)});
  } else if (!mail::is_path_location(store)) {
    checks.push_back(
        {name, "store", true, fmt::format("{} (PostgreSQL; not opened)", text::redact_conninfo(store))});
  } else if (!exists(store)) {
    checks.push_back({name, "store", false, fmt::format("no store at {} (run 'mailroom init')", store)});
  } else {
    checks.push_back({name, "store", true, fmt::format("{} ({})", store, in.config->store_reason)});
  }
  return checks;
}

std::vector<Check> project_checks(const StatusInputs& in)
{
  std::vector<Check> checks;
  if (in.config == nullptr) {
    checks.push_back({"", "config", false, in.config_error});
    return checks;
  }
  const config::Config& c = *in.config;
  checks.push_back({"", "config", true,
                    c.file.empty() ? std::string("no config file (defaults)")
                                   : fmt::format("{} ({})", c.file, config::to_string(c.file_origin))});
  if (!c.ignored_config.empty()) {
    const auto mine = util::read_file(c.ignored_config);
    const auto shared = util::read_file(c.file);
    const bool same = mine && shared && *mine == *shared;
    checks.push_back(
        {"", "ignored_config", same,
         fmt::format("{} is ignored: {} is the one configuration of this repository{}", c.ignored_config,
                     c.file, same ? " (same content)" : "; they differ, so edit that one instead")});
  }
  if (!c.worktree_top.empty()) {
    const std::string own = (fs::path(c.worktree_top) / ".mailroom" / "mail.db").string();
    if (exists(own) && !same_file(own, c.store_path.value)) {
      checks.push_back(
          {"", "worktree_store", false,
           fmt::format("{} is this worktree's own store, no longer used; to keep its mail, merge it: "
                       "mailroom --db '{}' export | mailroom import -",
                       own, own)});
    }
  }
  return checks;
}

} // namespace mailroom::hooks
