#pragma once

// What `hooks status` and `doctor` check, per agent: the settings file and its mailroom hook, the
// hook command resolving to this binary from PATH, the agent's switch, the identity the hook will
// have, the store, and a second mail reminder (gc mail check --inject); and for the project: the
// configuration in force, a worktree's ignored mailroom.toml, and a worktree's own store with mail.
// Reads files only; opens no store.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "hooks/agent.hpp"
#include "hooks/settings.hpp"
#include "util/environment.hpp"

namespace mailroom::hooks {

struct Check {
  std::string agent; // "claude", "codex", "gemini", or "" for the project
  std::string check; // "settings", "command", "switch", "identity", "store", "second_hook", "config",
                     // "ignored_config", "worktree_store"
  bool ok = true;
  std::string detail;
};

struct StatusInputs {
  const util::Environment& env;
  const config::Config* config = nullptr; // null when the config could not be read
  std::string config_error;               // why, when config is null
  std::string self;                       // this binary's path (/proc/self/exe)
};

// Whether `agent` has a mailroom hook in its project (or user) settings file.
bool has_hooks_installed(Agent agent, Scope scope, const util::Environment& env);

// The checks for one agent's hook (its settings file in `scope`).
std::vector<Check> agent_checks(Agent agent, Scope scope, const StatusInputs& inputs);

// `program` (a command's first word) as execvp finds it on the PATH of `in.env`: ok when it is this
// binary (`in.self`), a problem when it is missing or another file.
Check program_check(const std::string& agent, std::string_view check, const std::string& program,
                    const StatusInputs& in);

// The identity a mailroom started with `as` (an --as value; nullopt or empty: none) in `in.env`
// will have: a problem when it is not a valid mailbox or falls through to the default `human`.
Check identity_check(const std::string& agent, std::string_view check, const std::optional<std::string>& as,
                     const StatusInputs& in);

// The project's checks: the configuration in force, an ignored worktree mailroom.toml (a problem
// only when it differs from the one in force), a worktree's own store (a problem with the
// `mailroom --db OLD export | mailroom import` line that merges it).
std::vector<Check> project_checks(const StatusInputs& inputs);

} // namespace mailroom::hooks
