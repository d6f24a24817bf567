#include "mail/stores.hpp"

#include <array>

#include <fmt/format.h>

#include "text/conninfo.hpp"
#include "text/strings.hpp"

namespace mailroom::mail {

namespace {

// One row per store. `word`: the mail.provider value that chooses it ("" when only a location
// does); with `argument`, the value is the word followed by a non-empty argument ("exec:<command>").
// `owns_location`: a location syntax only this store opens (nullptr: it takes file paths).
struct StoreRow {
  std::string_view scheme;
  std::string_view word;
  std::string_view argument; // how messages name the argument ("" when the word stands alone)
  bool (*owns_location)(std::string_view location);
};

constexpr std::array k_stores = {
    StoreRow{"beads", "beads", "", nullptr},
    StoreRow{"exec", "exec:", "<command>", nullptr},
    StoreRow{"postgresql", "", "", &text::is_postgres_location},
};

bool names(const StoreRow& row, std::string_view provider)
{
  if (row.word.empty()) {
    return false;
  }
  if (row.argument.empty()) {
    return provider == row.word;
  }
  return text::starts_with(provider, row.word) && provider.size() > row.word.size();
}

} // namespace

std::optional<std::string_view> location_scheme(std::string_view location)
{
  for (const StoreRow& row : k_stores) {
    if (row.owns_location != nullptr && row.owns_location(location)) {
      return row.scheme;
    }
  }
  return std::nullopt;
}

bool is_path_location(std::string_view location)
{
  return !location_scheme(location).has_value();
}

bool is_provider_value(std::string_view provider)
{
  for (const StoreRow& row : k_stores) {
    if (names(row, provider)) {
      return true;
    }
  }
  return false;
}

std::string provider_values_text()
{
  std::string out;
  for (const StoreRow& row : k_stores) {
    if (row.word.empty()) {
      continue;
    }
    if (!out.empty()) {
      out += " or ";
    }
    out += fmt::format("\"{}{}\"", row.word, row.argument);
  }
  return out;
}

Result<StoreChoice> choose_store(std::string_view provider, std::string_view location,
                                 std::string_view origin)
{
  if (const auto scheme = location_scheme(location)) {
    return StoreChoice{std::string(*scheme), {}};
  }
  for (const StoreRow& row : k_stores) {
    if (names(row, provider)) {
      return StoreChoice{std::string(row.scheme), std::string(provider.substr(row.word.size()))};
    }
  }
  return make_error(ErrorCode::usage,
                    fmt::format("provider \"{}\" must be {} (from {})", text::cap_for_echo(provider),
                                provider_values_text(), origin));
}

} // namespace mailroom::mail
