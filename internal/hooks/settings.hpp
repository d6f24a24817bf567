#pragma once

// The settings entry that wires `mailroom check --hook-format <agent>` into a coding agent, and
// merging it into the agent's settings file (`hooks show` / `hooks install`).
//
// Merging keeps every other key and its order (nlohmann ordered_json), adds only the events that
// have no mailroom reminder yet, and writes 2-space indented JSON, through the settings-file module
// (settingsfile/install.hpp: backups under $XDG_STATE_HOME/mailroom/backups/, a record of what was
// added, so `hooks uninstall` removes exactly that). Gemini CLI's switch (hooksConfig.enabled) is
// set in the file being installed; Codex's lives in another file and is only printed.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "hooks/agent.hpp"
#include "mail/limits.hpp"
#include "settingsfile/install.hpp"
#include "util/environment.hpp"

namespace mailroom::hooks {

enum class Scope { project, user };

// "mailroom check --hook-format <agent>": no --as, so each agent's identity comes from
// $MAILROOM_IDENTITY (or the config) in that agent's environment.
std::string hook_command(Agent agent);

// True when `command` already runs a mailroom reminder: a word whose last path component is
// "mailroom", followed by "check" and by --inject or --hook-format (any spelling, any agent).
bool is_mailroom_hook_command(std::string_view command);

// The settings object for `agent`: {"hooks":{<event>:[{"matcher":"","hooks":[{...}]}] ...}} for
// both hook_events(agent). A hook is {"type":"command","command":hook_command(agent),"timeout":5}
// for Claude Code and Codex, and {"type":"command","name":"mailroom","command":...,
// "timeout":5000} for Gemini CLI (with the default 1 s budget).
// The hook's "timeout" is budget.hpp's agent_timeout_seconds(budget): seconds for Claude Code and
// Codex, the same time in milliseconds for Gemini CLI.
nlohmann::ordered_json settings_snippet(Agent agent,
                                        std::chrono::milliseconds budget = mail::k_default_hook_budget);

// The settings file: `<project>/<settings_file(agent)>` where <project> is the top of the git
// worktree holding the cwd (else the cwd), or `$HOME/<settings_file(agent)>` for the user.
// Errors: usage when the user scope is asked for and HOME is unset or empty.
Result<std::string> settings_path(Agent agent, Scope scope, const util::Environment& env);

// True when `command` runs another mail reminder that would double mailroom's: Gas City's
// `gc mail check` (any flags).
bool is_other_mail_hook_command(std::string_view command);

struct MergeResult {
  std::vector<std::string> added;            // events given the mailroom hook
  std::vector<std::string> already;          // events that had a mailroom hook (left alone)
  std::vector<std::string> other_mail_hooks; // "<event>: <command>" of other mail reminders found
};

// Adds the snippet's entries to `settings` (a parsed settings file; null counts as {}), one
// matcher group appended per event that has no mailroom hook yet. Errors: usage, naming `file`,
// when the document, its "hooks" or an event's value has the wrong JSON type; `settings` is then
// unchanged.
Result<MergeResult> merge_settings(nlohmann::ordered_json& settings, Agent agent, std::string_view file,
                                   std::chrono::milliseconds budget = mail::k_default_hook_budget);

// The switch that turns an agent's hooks on, when the agent has one: Gemini CLI's
// `"hooksConfig": {"enabled": true}` in the same settings.json; Codex's `[features] hooks = true`
// in config.toml (the default in current releases).
struct Switch {
  std::string where;   // "settings.json" or "~/.codex/config.toml"
  std::string setting; // as the user would write it
  bool in_installed_file = false;
};
std::optional<Switch> hook_switch(Agent agent);

struct InstallResult {
  std::string path;                  // the file written (a symlink's target)
  bool created = false;              // there was no file
  bool changed = false;              // the file was written
  std::optional<std::string> backup; // the previous file, under $XDG_STATE_HOME/mailroom/backups/
  MergeResult merge;
  bool switch_set = false;               // the agent's switch was added to the file
  std::optional<std::string> switch_off; // the file turns hooks off (left alone): what to change
};

// Merges the snippet into the file at `path`, creating the file and its directory when missing,
// and sets the agent's switch when it belongs in that file and is absent. An empty (or all-blank)
// file counts as {}. Errors, with nothing written: usage naming `path:line:column` when the file
// is not JSON, or uses comments that a rewrite would lose, or has a wrong shape (merge_settings);
// store_error when a file cannot be read or written.
Result<InstallResult> install_hooks(const std::string& path, Agent agent, std::chrono::milliseconds budget,
                                    const settingsfile::Surroundings& around);

// Removes what install_hooks added to the file at `path`: the recorded additions, or (with no
// record) every matcher group that holds only a mailroom reminder for `agent`.
Result<settingsfile::FileReport> uninstall_hooks(const std::string& path, Agent agent,
                                                 const settingsfile::Surroundings& around);

// "hooks": the settings-file owner name of hook installs.
inline constexpr std::string_view k_owner = "hooks";

} // namespace mailroom::hooks
