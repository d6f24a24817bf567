#include "hooks/budget.hpp"

#include <fmt/format.h>

#include "mail/duration.hpp"
#include "mail/limits.hpp"

namespace mailroom::hooks {

namespace {

// Seconds added above the budget in the agents' settings.
constexpr int k_agent_timeout_margin_seconds = 4;

Result<std::chrono::milliseconds> parse_budget(std::string_view text, std::string_view what)
{
  TRY_ASSIGN(const mail::Millis ms, mail::parse_duration(text, what));
  if (ms < 1 || ms > mail::k_max_hook_budget.count()) {
    return make_error(ErrorCode::usage, fmt::format("{} must be between 1ms and {}, not {}", what,
                                                    mail::format_duration(mail::k_max_hook_budget.count()),
                                                    mail::format_duration(ms)));
  }
  return std::chrono::milliseconds(ms);
}

} // namespace

Result<std::chrono::milliseconds> resolve_budget(const std::optional<std::string>& flag,
                                                 const std::optional<std::string>& env,
                                                 std::chrono::milliseconds configured)
{
  if (flag) {
    return parse_budget(*flag, "--budget");
  }
  if (env) {
    return parse_budget(*env, k_budget_env);
  }
  return configured;
}

std::chrono::milliseconds early_budget(const std::optional<std::string>& flag,
                                       const std::optional<std::string>& env)
{
  auto budget = resolve_budget(flag, env, mail::k_default_hook_budget);
  return budget.ok() ? *budget : mail::k_default_hook_budget;
}

int agent_timeout_seconds(std::chrono::milliseconds budget)
{
  const auto seconds = std::chrono::ceil<std::chrono::seconds>(budget).count();
  return static_cast<int>(seconds) + k_agent_timeout_margin_seconds;
}

} // namespace mailroom::hooks
