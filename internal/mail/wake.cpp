#include "mail/wake.hpp"

#include <array>
#include <utility>

namespace mailroom::mail {

namespace {

constexpr std::array<std::pair<WakeOutcome, std::string_view>, 7> k_wake_outcomes = {{
    {WakeOutcome::pending, "pending"},
    {WakeOutcome::sent, "sent"},
    {WakeOutcome::failed, "failed"},
    {WakeOutcome::deferred, "deferred"},
    {WakeOutcome::combined, "combined"},
    {WakeOutcome::skipped, "skipped"},
    {WakeOutcome::unreachable, "unreachable"},
}};

} // namespace

std::string_view to_string(WakeOutcome outcome)
{
  for (const auto& [known, name] : k_wake_outcomes) {
    if (known == outcome) {
      return name;
    }
  }
  return "pending";
}

std::optional<WakeOutcome> parse_wake_outcome(std::string_view text)
{
  for (const auto& [known, name] : k_wake_outcomes) {
    if (name == text) {
      return known;
    }
  }
  return std::nullopt;
}

bool wake_failed(std::optional<WakeOutcome> outcome)
{
  return outcome == WakeOutcome::failed || outcome == WakeOutcome::unreachable;
}

bool wakes(const WakeWhen& when, Priority priority, bool expects_reply)
{
  return when.always || (when.urgent && priority == Priority::urgent) || (when.request && expects_reply);
}

} // namespace mailroom::mail
