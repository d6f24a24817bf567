#pragma once

// The settings entry that wires `mailroom check --hook-format <agent>` into a coding agent, and
// merging it into the agent's settings file (`hooks show` / `hooks install`).
//
// Merging keeps every other key and its order (nlohmann ordered_json), adds only the events that
// have no mailroom reminder yet, and writes 2-space indented JSON. A file that changes is first
// copied to `<file>.bak` (replacing an older backup); the new content goes to a temporary file in
// the same directory that is renamed over the file, with the file's mode. A symlinked settings
// file is written through to its target. Nothing is written when nothing changes.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "hooks/agent.hpp"
#include "mail/limits.hpp"
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

// The settings file: `<cwd>/<settings_file(agent)>` for the project, `$HOME/<settings_file(agent)>`
// for the user. Errors: usage when the user scope is asked for and HOME is unset or empty.
Result<std::string> settings_path(Agent agent, Scope scope, const util::Environment& env);

struct MergeResult {
  std::vector<std::string> added;   // events given the mailroom hook
  std::vector<std::string> already; // events that had a mailroom hook (left alone)
};

// Adds the snippet's entries to `settings` (a parsed settings file; null counts as {}), one
// matcher group appended per event that has no mailroom hook yet. Errors: usage, naming `file`,
// when the document, its "hooks" or an event's value has the wrong JSON type; `settings` is then
// unchanged.
Result<MergeResult> merge_settings(nlohmann::ordered_json& settings, Agent agent, std::string_view file,
                                   std::chrono::milliseconds budget = mail::k_default_hook_budget);

struct InstallResult {
  std::string path;                  // the file written (a symlink's target)
  bool created = false;              // there was no file
  bool changed = false;              // the file was written
  std::optional<std::string> backup; // "<path>.bak" when an existing file was changed
  MergeResult merge;
};

// Merges the snippet into the file at `path`, creating the file and its directory when missing.
// An empty (or all-blank) file counts as {}. Errors, with nothing written: usage naming
// `path:line:column` when the file is not JSON, or uses comments that a rewrite would lose, or
// has a wrong shape (merge_settings); store_error when a file cannot be read or written.
Result<InstallResult> install_hooks(const std::string& path, Agent agent,
                                    std::chrono::milliseconds budget = mail::k_default_hook_budget);

} // namespace mailroom::hooks
