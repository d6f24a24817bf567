#pragma once

// Finding the config and the store, and deciding who "I" am (contract: "Where is the store" and
// "Who am I"). The environment is injected so every rule is testable without globals.

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "config/config.hpp"
#include "mail/message.hpp"
#include "util/environment.hpp"

namespace mailroom::config {

// The global flags that take part in discovery; nullopt when not given.
struct DiscoveryFlags {
  std::optional<std::string> config; // --config
  std::optional<std::string> db;     // --db
};

// Finds and loads the config, applies environment overrides ($MAILROOM_PROVIDER) and resolves the
// store path to an absolute path:
//  config: `flags.config`, else $MAILROOM_CONFIG (both must exist), else inside a git worktree the
//          repository's one configuration (the main worktree's mailroom.toml, or
//          <common dir>/mailroom/mailroom.toml for a bare repository) when it exists — a
//          worktree's own mailroom.toml at its top is then ignored (Config::ignored_config) —,
//          else the nearest mailroom.toml walking up from the cwd (that directory is the
//          workspace), else $XDG_CONFIG_HOME/mailroom/config.toml (default ~/.config) when it
//          exists, else none;
//  store:  `flags.db`, else $MAILROOM_DB (relative to the cwd), else the config's store.url or
//          store.path (relative to the config file), else in a linked worktree the repository's
//          shared store (<main>/.mailroom/mail.db, or <common dir>/mailroom/mail.db when bare),
//          else <workspace>/.mailroom/mail.db, else $XDG_DATA_HOME/mailroom/mail.db (default
//          ~/.local/share). `~`, `$NAME` and `${NAME}` are expanded in --db, $MAILROOM_DB and
//          store.path when the value is a path (never in a connection string).
// Also reads the worktree's .mailroom-identity (Config::identity_file).
// Reads files only. Errors: usage for a missing --config/$MAILROOM_CONFIG file, a bad config (with
// path:line:column), an undefined variable in a store path, or no way to place the store (no HOME).
Result<Config> discover_config(const util::Environment& env, const DiscoveryFlags& flags);

struct Identity {
  mail::Mailbox name;
  Origin origin;
};

// The order of Gas City's identity variables: mailroom's ($GC_ALIAS, $GC_SESSION_ID, $GC_AGENT)
// or gc's newest ($GC_SESSION_ID, $GC_ALIAS, $GC_AGENT).
enum class IdentityOrder { mailroom, gc };

// The order `config` asks for: gc's under `[compat] gc`, else mailroom's.
IdentityOrder identity_order(const Config& config);

// Who "I" am: `flag` (--as, or --from on send, named by `flag_name`) → $MAILROOM_IDENTITY → Gas
// City's variables in `order` (default: identity_order(config)) → the worktree's
// .mailroom-identity → config identity → "human". Values are trimmed; empty counts as unset (an
// empty --as is no --as).
// Errors: usage when the chosen value is not a valid mailbox (naming where it came from).
Result<Identity> resolve_identity(const util::Environment& env, const Config& config,
                                  const std::optional<std::string>& flag, std::string_view flag_name,
                                  std::optional<IdentityOrder> order = std::nullopt);

} // namespace mailroom::config
