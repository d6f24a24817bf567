#pragma once

// What every command runs with. Built once by cli::run and passed by reference; no globals.

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "mail/clock.hpp"
#include "config/config.hpp"
#include "config/discovery.hpp"
#include "mail/policy.hpp"
#include "mail/provider.hpp"
#include "base/result.hpp"
#include "output.hpp"
#include "render/render.hpp"

namespace mailroom::cli {

class HookDeadline;

// Opens the provider on first use, so `init`, `config` and `--help` never touch the store. The
// factory also applies the identity guard for commands that act as a mailbox (app.cpp).
// Owns nothing: the factory keeps what it opens alive for as long as the slot is used.
class ProviderSlot {
public:
  using Factory = std::function<Result<mail::Provider*>()>;

  explicit ProviderSlot(Factory factory) : m_factory(std::move(factory)) {}
  // Uses `borrowed` from the start, e.g. a FakeProvider in a test.
  explicit ProviderSlot(mail::Provider& borrowed) : m_provider(&borrowed) {}

  // True once a provider was opened (nothing is opened by asking).
  bool opened() const { return m_provider != nullptr; }

  // The provider, opening it the first time. Errors: whatever the factory reports (and again on
  // the next call, which retries).
  Result<mail::Provider*> get()
  {
    if (m_provider == nullptr) {
      if (!m_factory) {
        return make_error(ErrorCode::unsupported, "no provider configured");
      }
      TRY_ASSIGN(m_provider, m_factory());
    }
    return m_provider;
  }

private:
  Factory m_factory;
  mail::Provider* m_provider = nullptr;
};

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

struct Context {
  const config::Config& config;
  const mail::MailPolicy& policy;
  Output& out;
  Input& in;
  const mail::Clock& clock;
  const config::Identity& me;
  const util::Environment& env;
  ProviderSlot& providers;
  bool json = false;
  bool color = false;
  std::string command; // "send", "agents add": the prefix of error lines
  const GlobalOptions& globals;
  ProviderOpener open_provider; // for `init`, which creates the store it then opens
  std::size_t width = 0;        // columns human tables fit in: $COLUMNS, else the terminal's; 0: no limit
  std::string draft;            // a draft file the editor wrote (compose.hpp): removed on success
  // What running this command records as the caller's presence (presence.hpp), or nothing for a
  // view. A command may narrow it (check in hook mode: hook; a view of another mailbox: nothing).
  std::optional<mail::SeenVia> presence;
  // A hook's time budget (hook_deadline.hpp); null otherwise.
  HookDeadline* deadline = nullptr;

  // How human views may use the terminal (table width, colour).
  render::Style style() const { return render::Style{width, color}; }

  // The provider, opened on first use. Errors: the provider's open errors.
  Result<mail::Provider*> provider() { return providers.get(); }

  // The caller acting on its own deliveries (the common case; --for changes `mailbox`).
  mail::Actor actor() const { return mail::Actor{me.name, me.name}; }
};

} // namespace mailroom::cli
