#include "wait_support.hpp"

#include <csignal>

#include "mail/duration.hpp"
#include "ops/wait.hpp"

namespace mailroom::cli {

Result<std::optional<std::chrono::steady_clock::time_point>>
deadline_from(const std::optional<std::string>& flag, std::string_view what)
{
  if (!flag) {
    return std::optional<std::chrono::steady_clock::time_point>();
  }
  TRY_ASSIGN(const mail::Millis ms, mail::parse_duration(*flag, what));
  return std::optional(std::chrono::steady_clock::now() + std::chrono::milliseconds(ms));
}

Result<std::vector<std::string>> resolve_types(const Context& ctx, const std::vector<std::string>& types)
{
  return ops::resolve_types(ctx.session, types);
}

ExitCode interrupted_exit(int signal)
{
  return signal == SIGTERM ? ExitCode::terminated : ExitCode::interrupted;
}

} // namespace mailroom::cli
