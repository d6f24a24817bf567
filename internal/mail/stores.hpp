#pragma once

// The stores mailroom knows, by scheme, and how the configuration's raw strings choose one: the
// `mail.provider` value ("beads", "exec:<command>") and the store location (store.path,
// store.url, --db, $MAILROOM_DB), whose own syntax can name a store (a PostgreSQL connection
// string). One row per store in stores.cpp; config/ asks these functions instead of testing
// strings itself, and the factory (providers/factory.cpp) opens the store a row names. A store
// built out of the binary keeps its row here, so its locations are still recognised (and refused
// by the factory with a clear error) rather than taken for file names.

#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace mailroom::mail {

struct StoreChoice {
  std::string scheme;       // "beads", "exec" or "postgresql": the factory's key
  std::string exec_command; // for "exec": what follows "exec:", verbatim
};

// The scheme a store location's own syntax names ("postgresql" for a postgresql:// or
// postgres:// URL or a libpq keyword string), or nullopt for a file path.
std::optional<std::string_view> location_scheme(std::string_view location);

// True when `location` is a file path (expanded and made absolute by discovery), false for a
// connection string, which is kept exactly as written.
bool is_path_location(std::string_view location);

// True when `provider` is a value mail.provider accepts.
bool is_provider_value(std::string_view provider);

// The accepted mail.provider values, for messages: "\"beads\" or \"exec:<command>\"".
std::string provider_values_text();

// The store `provider` and `location` choose: the location's scheme when its syntax names one,
// else the provider's. Errors: usage "provider \"<value>\" must be ... (from <origin>)".
Result<StoreChoice> choose_store(std::string_view provider, std::string_view location,
                                 std::string_view origin);

} // namespace mailroom::mail
