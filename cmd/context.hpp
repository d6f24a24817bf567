#pragma once

// What every command runs with. Built once by cli::run and passed by reference; no globals.

#include <functional>
#include <string>

#include "mail/clock.hpp"
#include "config/config.hpp"
#include "config/discovery.hpp"
#include "mail/provider.hpp"
#include "base/result.hpp"
#include "output.hpp"

namespace mailroom::cli {

// Opens the provider on first use, so `init`, `config` and `--help` never touch the store.
// Owns nothing: the factory keeps what it opens alive for as long as the slot is used.
class ProviderSlot {
public:
  using Factory = std::function<Result<mail::Provider*>()>;

  explicit ProviderSlot(Factory factory) : m_factory(std::move(factory)) {}
  // Uses `borrowed` from the start, e.g. a FakeProvider in a test.
  explicit ProviderSlot(mail::Provider& borrowed) : m_provider(&borrowed) {}

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

struct Context {
  const config::Config& config;
  Output& out;
  Input& in;
  const mail::Clock& clock;
  const config::Identity& me;
  const util::Environment& env;
  ProviderSlot& providers;
  bool json = false;
  bool color = false;
  std::string command; // "send", "agents add": the prefix of error lines

  // The provider, opened on first use. Errors: the provider's open errors.
  Result<mail::Provider*> provider() { return providers.get(); }

  // The provider after first-use registration of `me` (inbox, check, count, read, send).
  Result<mail::Provider*> provider_as_me()
  {
    TRY_ASSIGN(mail::Provider * p, providers.get());
    TRY(p->ensure_registered(me.name));
    return p;
  }
};

} // namespace mailroom::cli
