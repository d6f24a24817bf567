#pragma once

// What every command runs with. Built once by cli::run and passed by reference; no globals.

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "base/result.hpp"
#include "config/config.hpp"
#include "config/discovery.hpp"
#include "mail/clock.hpp"
#include "mail/policy.hpp"
#include "mail/provider.hpp"
#include "ops/session.hpp"
#include "output.hpp"
#include "render/render.hpp"

namespace mailroom::cli {

class HookDeadline;
class HookOutput;

// Opens the provider on first use (ops/session.hpp).
using ProviderSlot = ops::ProviderSlot;

// The global options, wherever they were given on the command line.
struct GlobalOptions {
  bool json = false;
  bool no_color = false;
  std::optional<std::string> as;     // --as
  std::optional<std::string> from;   // send --from (wins over --as)
  std::optional<std::string> config; // --config
  std::optional<std::string> db;     // --db
  bool version = false;              // --version: print it and stop
  bool verbose = false;              // --verbose: say which store is used and why
  bool quiet = false;                // -q/--quiet: no confirmation lines on stdout
  bool no_pager = false;             // --no-pager
  std::optional<std::string> city;   // --city DIR (Gas City): run as if in DIR
  std::optional<std::string> rig;    // --rig NAME (Gas City): refused with a hint
};

// Opens a provider for `settings` as the caller (what AppDeps::open_provider does).
using ProviderOpener = std::function<Result<std::unique_ptr<mail::Provider>>(const mail::ProviderSettings&)>;

// What run() builds from the process (app.hpp); tests pass their own.
struct AppDeps {
  const util::Environment& env;
  Output& out;
  Input& in;
  const mail::Clock& clock;
  // Opens the provider for `settings` acting as `identity`; called at most once, lazily.
  std::function<Result<std::unique_ptr<mail::Provider>>(const mail::ProviderSettings& settings,
                                                        const config::Identity& identity)>
      open_provider;
  // When set, used instead of open_provider (not owned), so tests can keep state across runs.
  mail::Provider* provider = nullptr;
  // A hook's time budget, armed by run() at process start for a hook invocation (not owned).
  HookDeadline* deadline = nullptr;
  // Set by run_args for a hook invocation: the output that holds the answer back (not owned).
  HookOutput* hook_output = nullptr;
};

struct Context {
  const config::Config& config;
  const mail::MailPolicy& policy;
  Output& out;
  Input& in;
  const mail::Clock& clock;
  const config::Identity& me;
  const util::Environment& env;
  ProviderSlot& providers;
  // What the operations run with: the same configuration, identity and provider, and what running
  // this command records as the caller's presence (presence.hpp), or nothing for a view. A
  // command may narrow it (check in hook mode: hook; a view of another mailbox: nothing).
  ops::Session& session;
  bool json = false;
  bool color = false;
  std::string command; // "send", "agents add": the prefix of error lines
  const GlobalOptions& globals;
  ProviderOpener open_provider; // for `init`, which creates the store it then opens
  std::size_t width = 0;        // columns human tables fit in: $COLUMNS, else the terminal's; 0: no limit
  std::string draft;            // a draft file the editor wrote (compose.hpp): removed on success
  // A hook's time budget (hook_deadline.hpp); null otherwise.
  HookDeadline* deadline = nullptr;

  // How human views may use the terminal (table width, colour).
  render::Style style() const { return render::Style{width, color}; }

  // The caller acting on its own deliveries (the common case; --for changes `mailbox`).
  mail::Actor actor() const { return mail::Actor{me.name, me.name}; }
};

} // namespace mailroom::cli
