#include "presence.hpp"

#include <array>
#include <utility>

namespace mailroom::cli {

namespace {

constexpr std::array<std::pair<std::string_view, mail::SeenVia>, 7> k_presence_sources = {{
    {"check", mail::SeenVia::check},
    {"count", mail::SeenVia::command},
    {"inbox", mail::SeenVia::command},
    {"search", mail::SeenVia::command},
    {"sent", mail::SeenVia::command},
    {"wait", mail::SeenVia::wait},
    {"watch", mail::SeenVia::watch},
}};

} // namespace

std::optional<mail::SeenVia> presence_source(std::string_view command)
{
  for (const auto& [name, via] : k_presence_sources) {
    if (name == command) {
      return via;
    }
  }
  return std::nullopt;
}

bool presence_at_start(mail::SeenVia via)
{
  return via == mail::SeenVia::wait || via == mail::SeenVia::watch;
}

} // namespace mailroom::cli
