#pragma once

// The typed configuration read from `mailroom.toml`. Every value remembers where it came from (a
// flag, an environment variable, `file:line` or the default) so `mailroom config` can say so.
// TOML is parsed only in config.cpp; commands read fields from Config, never from a TOML tree.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "mail/message.hpp"
#include "base/result.hpp"
#include "mail/settings.hpp"

namespace mailroom::config {

// Where a resolved value came from.
struct Origin {
  enum class Kind { default_value, file, env, flag };
  Kind kind = Kind::default_value;
  std::string detail; // "mailroom.toml:7" for file, "MAILROOM_DB" for env, "--db" for flag
};

// "default", "env MAILROOM_DB", "flag --db" or the file location ("mailroom.toml:7").
std::string to_string(const Origin& origin);

inline Origin default_origin() { return {}; }
inline Origin env_origin(std::string name) { return {Origin::Kind::env, std::move(name)}; }
inline Origin flag_origin(std::string name) { return {Origin::Kind::flag, std::move(name)}; }

template<typename T>
struct Setting {
  T value{};
  Origin origin;
};

enum class RecipientPolicy { registered, any };

struct Config {
  // The file this config was read from ("" when none was found) and how it was chosen.
  std::string file;
  Origin file_origin;
  // The directory holding the workspace's mailroom.toml ("" outside a workspace).
  std::string workspace;

  Setting<std::string> identity;                    // "" = not set
  Setting<std::string> provider{"beads", {}};       // "beads" or "exec:<path-or-command>"
  Setting<RecipientPolicy> recipients{RecipientPolicy::registered, {}};
  Setting<std::string> store_path;                  // absolute once discovery resolved it
  Setting<bool> synchronous_full{true, {}};
  Setting<std::string> id_prefix{"mr", {}};
  Setting<std::int64_t> busy_timeout_ms{5000, {}};
  Setting<bool> allow_network_fs{false, {}};
  Setting<std::int64_t> exec_timeout_ms{30000, {}};
  Setting<std::vector<std::string>> notify_command;  // argv; empty = none configured
  std::map<std::string, Setting<std::vector<mail::Mailbox>>> groups;
  Setting<std::vector<mail::Mailbox>> agents;              // registered on first use of the store
};

// Parses `text` as a mailroom config. `display_path` names the file in errors and origins.
// Unknown keys, wrong types, bad values and TOML syntax errors are usage errors reading
// "<display_path>:<line>:<column>: <what>". `store.path` is kept as written (not resolved).
Result<Config> parse_config(std::string_view text, const std::string& display_path);

// Reads and parses the file at `path` (see parse_config). A missing or unreadable file is a usage
// error naming it.
Result<Config> load_config(const std::string& path, const std::string& display_path);

// The commented mailroom.toml that `mailroom init` writes; parse_config accepts it.
std::string config_template();

// The provider settings `config` selects (kind, store and exec sections).
// Errors: usage for a provider value that is neither "beads" nor "exec:<command>".
Result<mail::ProviderSettings> provider_settings(const Config& config);

} // namespace mailroom::config
