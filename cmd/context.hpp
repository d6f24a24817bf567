#pragma once

// What every command runs with. Built once by cli::run and passed by reference; no globals.

#include <functional>
#include <memory>
#include <string>

#include "mail/clock.hpp"
#include "mail/config.hpp"
#include "mail/discovery.hpp"
#include "mail/provider.hpp"
#include "mail/result.hpp"
#include "output.hpp"

namespace mailroom::cli {

// Opens the provider on first use, so `init`, `config` and `--help` never touch the store.
class ProviderSlot {
public:
  using Factory = std::function<mail::Result<std::unique_ptr<mail::Provider>>()>;

  explicit ProviderSlot(Factory factory) : m_factory(std::move(factory)) {}
  // Uses `borrowed` (not owned), e.g. a FakeProvider in a test.
  explicit ProviderSlot(mail::Provider& borrowed) : m_provider(&borrowed) {}

  // The provider, opening it the first time. Errors: whatever the factory reports.
  mail::Result<mail::Provider*> get()
  {
    if (m_provider == nullptr) {
      if (!m_factory) {
        return mail::make_error(mail::ErrorCode::unsupported, "no provider configured");
      }
      auto made = m_factory();
      if (!made.ok()) {
        return std::move(made).error();
      }
      m_owned = std::move(made).value();
      m_provider = m_owned.get();
    }
    return m_provider;
  }

private:
  Factory m_factory;
  std::unique_ptr<mail::Provider> m_owned;
  mail::Provider* m_provider = nullptr;
};

struct Context {
  const mail::Config& config;
  Output& out;
  Input& in;
  const mail::Clock& clock;
  const mail::Identity& me;
  const mail::Environment& env;
  ProviderSlot& providers;
  bool json = false;
  bool color = false;
  std::string command; // "send", "agents add": the prefix of error lines

  // The provider, opened on first use. Errors: the provider's open errors.
  mail::Result<mail::Provider*> provider() { return providers.get(); }

  // The provider after first-use registration of `me` (inbox, check, count, read, send).
  mail::Result<mail::Provider*> provider_as_me()
  {
    TRY_ASSIGN(mail::Provider * p, providers.get());
    TRY(p->ensure_registered(me.name));
    return p;
  }
};

} // namespace mailroom::cli
