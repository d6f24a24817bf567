#pragma once

// Builds the provider the settings name: "beads" (the SQLite bead store) or "exec" (a user script).

#include <memory>
#include <string>

#include "mail/clock.hpp"
#include "mail/provider.hpp"
#include "base/result.hpp"
#include "mail/settings.hpp"

namespace mailroom::providers {

// Opens the provider `settings` select. The bead store opens (and with `store.create`, creates)
// its database now; the exec provider spawns nothing until the first operation and passes
// `identity` to its script as MAILROOM_IDENTITY.
// Errors: usage for an unknown kind; store_error/timeout when the store cannot be opened.
Result<std::unique_ptr<mail::Provider>> make_provider(const mail::ProviderSettings& settings,
                                                             const mail::Clock& clock,
                                                             const std::string& identity);

} // namespace mailroom::providers
