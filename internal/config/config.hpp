#pragma once

// The typed configuration read from `mailroom.toml`. Every value remembers where it came from (a
// flag, an environment variable, `file:line` or the default) so `mailroom config` can say so.
// TOML is parsed only in config.cpp, driven by the one key table in keys.hpp; commands read
// fields from Config (or the MailPolicy built from it), never from a TOML tree.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "mail/message.hpp"
#include "mail/policy.hpp"
#include "mail/settings.hpp"

namespace mailroom::config {

// The per-worktree identity file at a worktree's top (git-ignored; one mailbox name).
inline constexpr std::string_view k_identity_file = ".mailroom-identity";

// Where a resolved value came from.
struct Origin {
  enum class Kind { default_value, file, env, flag };
  Kind kind = Kind::default_value;
  std::string detail; // "mailroom.toml:7" for file, "MAILROOM_DB" for env, "--db" for flag
};

// "default", "env MAILROOM_DB", "flag --db" or the file location ("mailroom.toml:7").
std::string to_string(const Origin& origin);

inline Origin default_origin()
{
  return {};
}
inline Origin env_origin(std::string name)
{
  return {Origin::Kind::env, std::move(name)};
}
inline Origin flag_origin(std::string name)
{
  return {Origin::Kind::flag, std::move(name)};
}

template <typename T> struct Setting {
  T value{};
  Origin origin;
};

// [store] synchronous and [store] pooler (the names of every choice key are in the key table).
enum class Synchronous { full, normal };
enum class Pooler { none, transaction };

// The choice keys (recipients, synchronous, pooler, register, ack) hold their enum; the key table
// (keys.cpp) maps each allowed TOML value to it.
struct Config {
  // The file this config was read from ("" when none was found) and how it was chosen.
  std::string file;
  Origin file_origin;
  // The directory holding the workspace's mailroom.toml ("" outside a workspace).
  std::string workspace;
  // How the store was chosen, in words, for `config` and --verbose ("the workspace's default store",
  // "the main worktree's store", "the user-wide store (no mailroom.toml above this directory)").
  std::string store_reason;
  bool user_wide_store = false; // the XDG store outside any workspace
  // Inside a git worktree: the store every worktree of the repository shares by default (the
  // main worktree's or the bare repository's), and why; "" otherwise.
  std::string default_store;
  std::string default_store_reason;
  // A worktree's own mailroom.toml that the repository's shared one overrides ("" when none);
  // reported by `config`, `doctor`, `hooks status` and --verbose only.
  std::string ignored_config;
  // The top of the git worktree holding the cwd ("" outside git).
  std::string worktree_top;
  // The per-worktree default identity from .mailroom-identity ("" when there is none).
  Setting<std::string> identity_file;

  Setting<std::string> identity;              // "" = not set
  Setting<std::string> provider{"beads", {}}; // "beads" or "exec:<path-or-command>"
  Setting<mail::RecipientPolicy> recipients{mail::RecipientPolicy::registered, {}};
  Setting<std::string> store_path; // absolute once discovery resolved it
  Setting<std::string> store_url;  // [store] url (postgresql://…), "" = none
  Setting<Synchronous> synchronous{Synchronous::full, {}};
  Setting<std::string> id_prefix{"mr", {}};
  Setting<std::int64_t> busy_timeout_ms{mail::k_default_busy_timeout.count(), {}};
  Setting<bool> allow_network_fs{false, {}};
  Setting<std::int64_t> store_timeout_ms{mail::k_default_store_timeout.count(), {}}; // [store] timeout
  Setting<Pooler> pooler{Pooler::none, {}};                                          // [store] pooler
  Setting<std::int64_t> exec_timeout_ms{mail::k_default_exec_timeout.count(), {}};
  Setting<std::vector<std::string>> notify_command; // argv; empty = none configured
  std::map<std::string, Setting<std::vector<mail::Mailbox>>> groups;
  Setting<std::vector<mail::Mailbox>> agents; // [agents] names: always known mailboxes
  Setting<mail::RegisterPolicy> register_policy{mail::RegisterPolicy::explicit_only, {}}; // [agents] register
  Setting<mail::AckPolicy> ack{mail::AckPolicy::typed, {}};                               // [delivery] ack
  Setting<std::int64_t> stale_after_ms{mail::k_default_stale_after_ms, {}};
  Setting<std::int64_t> presence_after_ms{mail::k_default_presence_after_ms, {}};
  Setting<bool> redelivery_enabled{false, {}};
  Setting<std::int64_t> first_after_ms{mail::k_default_first_after_ms, {}};
  Setting<double> backoff{mail::k_default_backoff, {}};
  Setting<std::int64_t> max_attempts{mail::k_default_max_attempts, {}};
  Setting<std::string> escalate_to{"sender", {}};
  std::map<std::string, Setting<bool>> types;                                    // [types.NAME] expects_reply
  Setting<bool> compat_gc{false, {}};                                            // [compat] gc
  Setting<std::int64_t> hook_budget_ms{mail::k_default_hook_budget.count(), {}}; // [hooks] budget
  Setting<std::string> schedule_timezone; // [schedule] timezone; "" = not set
  // [wake] (contract "Reaching an idle agent (wake)"): which sends wake a recipient with a target
  // ("urgent", "request", "notify"), the cooldown per (recipient, target), how long after the
  // agent's hook ran (or its tmux pane showed activity) it counts as idle, when a wake nobody ran
  // is given up, tmux's agent commands, the pause before Enter and the line typed.
  Setting<std::vector<std::string>> wake_on{{"urgent", "request", "notify"}, {}};
  Setting<std::int64_t> wake_cooldown_ms{60'000, {}};
  Setting<std::int64_t> wake_idle_after_ms{10'000, {}};
  Setting<std::int64_t> wake_give_up_after_ms{600'000, {}};
  Setting<std::int64_t> wake_keep_for_ms{7 * 24 * 3'600'000LL, {}};
  Setting<std::vector<std::string>> wake_agent_commands{{"claude", "codex", "gemini", "node"}, {}};
  Setting<std::int64_t> wake_submit_delay_ms{300, {}};
  Setting<std::string> wake_line{"You have mail: run 'mailroom inbox'", {}};
  std::map<std::string, Setting<std::vector<std::string>>> wake_targets; // [wake.targets] NAME = [argv…]
};

// Parses `text` as a mailroom config. `display_path` names the file in errors and origins.
// Unknown keys, wrong types, bad values and TOML syntax errors are usage errors reading
// "<display_path>:<line>:<column>: <what>". `store.path` is kept as written (not resolved).
Result<Config> parse_config(std::string_view text, const std::string& display_path);

// Reads and parses the file at `path` (see parse_config). A missing or unreadable file is a usage
// error naming it.
Result<Config> load_config(const std::string& path, const std::string& display_path);

// The commented mailroom.toml that `mailroom init` writes, generated from the key table;
// parse_config accepts it. With `gc_compat`, [compat] gc = true (init --gc). With `store_key`
// ("store.path" or "store.url"), that key is written, uncommented, as `store_value` (init --db).
std::string config_template(bool gc_compat = false, std::string_view store_key = {},
                            std::string_view store_value = {});

// The mail rules `config` chooses (recipients, ack, redelivery, types, groups, agents, ids).
mail::MailPolicy mail_policy(const Config& config);

// The provider settings `config` selects (kind, store, exec and the mail policy).
// Errors: usage for a provider value that is neither "beads" nor "exec:<command>".
Result<mail::ProviderSettings> provider_settings(const Config& config);

} // namespace mailroom::config
