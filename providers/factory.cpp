#include "factory.hpp"

#include <array>
#include <filesystem>

#include <fmt/format.h>

#include "beads/bead_store.hpp"
#include "exec/exec_provider.hpp"
#include "mail/stores.hpp"
#if MAILROOM_WITH_POSTGRES
#include "postgres/postgres_store.hpp"
#endif

namespace mailroom::providers {

namespace {

using Opener = Result<std::unique_ptr<mail::Provider>> (*)(const mail::ProviderSettings&, const mail::Clock&,
                                                           const std::string&);

Result<std::unique_ptr<mail::Provider>> open_beads(const mail::ProviderSettings& settings,
                                                   const mail::Clock& clock, const std::string& /*identity*/)
{
  TRY_ASSIGN(std::unique_ptr<sqlstore::SqlStore> store,
             beads::open_bead_store(settings.store, settings.policy, clock));
  return std::unique_ptr<mail::Provider>(std::move(store));
}

Result<std::unique_ptr<mail::Provider>> open_exec(const mail::ProviderSettings& settings,
                                                  const mail::Clock& clock, const std::string& identity)
{
  // The registry of the SQLite store the configuration names, when that store exists: read-only,
  // and only when a send asks (contract "Gas City, both ways").
  exec::RegistryLoader registry = [settings, &clock]() -> Result<std::optional<mail::Directory>> {
    std::error_code ec;
    if (settings.store.path.empty() || !mail::is_path_location(settings.store.path) ||
        settings.store.path == ":memory:" || !std::filesystem::is_regular_file(settings.store.path, ec)) {
      return std::optional<mail::Directory>();
    }
    mail::StoreSettings store = settings.store;
    store.access = mail::Access::read;
    TRY_ASSIGN(std::unique_ptr<sqlstore::SqlStore> opened,
               beads::open_bead_store(store, settings.policy, clock));
    TRY_ASSIGN(mail::Directory directory, opened->directory());
    if (directory.active.empty() && directory.retired.empty()) {
      return std::optional<mail::Directory>(); // nobody registered: no registry
    }
    return std::optional<mail::Directory>(std::move(directory));
  };
  return exec::open_exec_provider(settings.exec, settings.policy, identity, std::move(registry), &clock);
}

#if MAILROOM_WITH_POSTGRES
Result<std::unique_ptr<mail::Provider>> open_postgresql(const mail::ProviderSettings& settings,
                                                        const mail::Clock& clock,
                                                        const std::string& /*identity*/)
{
  TRY_ASSIGN(std::unique_ptr<sqlstore::SqlStore> store,
             postgres::open_postgres_store(settings.store, settings.policy, clock));
  return std::unique_ptr<mail::Provider>(std::move(store));
}
#endif

// One row per store built into this binary: its scheme (mail/stores.cpp says which configuration
// chooses it and which locations are its own) and how it is opened.
struct Backend {
  std::string_view scheme;
  Opener open;
};

constexpr std::array k_backends = {
    Backend{"beads", &open_beads},
    Backend{"exec", &open_exec},
#if MAILROOM_WITH_POSTGRES
    Backend{"postgresql", &open_postgresql},
#endif
};

} // namespace

Result<std::unique_ptr<mail::Provider>> make_provider(const mail::ProviderSettings& settings,
                                                      const mail::Clock& clock, const std::string& identity)
{
  for (const Backend& backend : k_backends) {
    if (backend.scheme == settings.kind) {
      return backend.open(settings, clock, identity);
    }
  }
  return make_error(ErrorCode::usage,
                    fmt::format("this mailroom was built without the \"{}\" store", settings.kind),
                    "build it with that store (for PostgreSQL: cmake -DMAILROOM_POSTGRES=ON)");
}

Result<mail::ProviderSettings> store_settings(mail::ProviderSettings settings)
{
  if (settings.kind == "exec") {
    settings.kind = std::string(mail::location_scheme(settings.store.path).value_or("beads"));
  }
  return settings;
}

std::vector<std::string_view> provider_schemes()
{
  std::vector<std::string_view> out;
  for (const Backend& backend : k_backends) {
    out.push_back(backend.scheme);
  }
  return out;
}

} // namespace mailroom::providers
