#pragma once

// Builds the provider the settings name, from a table keyed by scheme: "beads" (the SQLite bead
// store), "exec" (a user script), "postgresql" (when built with MAILROOM_POSTGRES). Which scheme a
// configuration chooses is mail/stores.hpp's table.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "mail/clock.hpp"
#include "mail/provider.hpp"
#include "mail/settings.hpp"

namespace mailroom::providers {

// Opens the provider `settings.kind` names. The bead store opens its database now (creating it
// only for Access::create); the exec provider spawns nothing until the first operation and passes
// `identity` to its script as MAILROOM_IDENTITY.
// Errors: usage for a store not built into this binary; store_error/timeout when the store cannot
// be opened.
Result<std::unique_ptr<mail::Provider>> make_provider(const mail::ProviderSettings& settings,
                                                      const mail::Clock& clock, const std::string& identity);

// The store behind `settings`: themselves, or for the exec provider the store their path names
// (a postgresql:// URL or a SQLite file), for `mailroom gc-mail`, which serves a script's side.
Result<mail::ProviderSettings> store_settings(mail::ProviderSettings settings);

// The schemes built into this binary ("beads", "exec", and "postgresql" with MAILROOM_POSTGRES),
// for --version.
std::vector<std::string_view> provider_schemes();

} // namespace mailroom::providers
