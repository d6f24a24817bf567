#pragma once

// What every operation runs with (docs/operations.md). The CLI builds one Session per command
// (cli::Context holds it); the MCP server builds one per request, each on its own store
// connection. An operation reads its arguments from a typed request, decides, and returns a typed
// result; it never writes to stdout or stderr: notices go through `notice`, and the caller
// prints.

#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "config/config.hpp"
#include "config/discovery.hpp"
#include "mail/clock.hpp"
#include "mail/policy.hpp"
#include "mail/provider.hpp"
#include "mail/team.hpp"
#include "util/environment.hpp"

namespace mailroom::ops {

// Opens the provider on first use, so commands that never need the store never touch it. The
// factory also applies the identity guard for commands that act as a mailbox (cmd/cli/app.cpp).
// Owns nothing: the factory keeps what it opens alive for as long as the slot is used.
class ProviderSlot {
public:
  using Factory = std::function<Result<mail::Provider*>()>;

  explicit ProviderSlot(Factory factory) : m_factory(std::move(factory)) {}
  // Uses `borrowed` from the start, e.g. an in-memory store in a test.
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

// Something an operation tells its caller besides its result, e.g. `acting for NAME` or a
// sender's read that left the message unread. `code` is a stable snake_case name.
struct Notice {
  std::string code;
  std::string message;
};
using NoticeSink = std::function<void(const Notice&)>;

struct Session {
  const config::Config& config;
  const mail::MailPolicy& policy;
  const mail::Clock& clock;
  const config::Identity& me; // the acting mailbox
  const util::Environment& env;
  ProviderSlot& providers;
  // The presence the operation records for `me` (the table of ops/presence.hpp decides which
  // operations record it; the surface says its source), or nothing: a view records none. An
  // operation narrows it: a view of another mailbox clears it.
  std::optional<mail::SeenVia> presence = std::nullopt;
  // Waiting operations (wait, watch) stop when this is requested; a stopped wait changes nothing.
  std::stop_token stop = {};
  // Receives notices as they happen; dropped when empty.
  NoticeSink notice = {};

  // The provider, opened on first use. Errors: the provider's open errors.
  Result<mail::Provider*> provider() { return providers.get(); }

  // The caller acting on its own deliveries.
  mail::Actor actor() const { return mail::Actor{me.name, me.name, seen_via()}; }
  // What a change or a send made in this session records as the caller's presence (the stores
  // record nothing when it is none).
  std::optional<mail::SeenVia> seen_via() const { return presence; }

  void tell(std::string_view code, std::string message) const
  {
    if (notice) {
      notice(Notice{std::string(code), std::move(message)});
    }
  }
};

} // namespace mailroom::ops
