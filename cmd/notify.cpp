#include "notify.hpp"

#include <fmt/format.h>

#include "support.hpp"
#include "util/subprocess.hpp"

namespace mailroom::cli {

std::vector<std::string> expand_notify_argv(const std::vector<std::string>& argv, const mail::SendReceipt& receipt)
{
  std::vector<std::string> out;
  const std::string to = join(receipt.recipients, ",");
  for (const std::string& arg : argv) {
    // One left-to-right scan, so a subject that itself contains "{id}" is never expanded again.
    std::string expanded;
    for (std::size_t i = 0; i < arg.size();) {
      bool matched = false;
      for (const auto& [key, value] : {std::pair<std::string_view, std::string_view>{"{to}", to},
                                       {"{from}", receipt.message.from},
                                       {"{id}", receipt.message.id},
                                       {"{subject}", receipt.message.subject}}) {
        if (arg.compare(i, key.size(), key) == 0) {
          expanded += value;
          i += key.size();
          matched = true;
          break;
        }
      }
      if (!matched) {
        expanded += arg[i];
        ++i;
      }
    }
    out.push_back(std::move(expanded));
  }
  return out;
}

void notify_recipients(Context& ctx, const mail::SendReceipt& receipt)
{
  if (ctx.config.notify_command.value.empty()) {
    warn(ctx, "no_notify_command", "no notify command configured");
    return;
  }
  util::SubprocessOptions options;
  options.argv = expand_notify_argv(ctx.config.notify_command.value, receipt);
  options.timeout = std::chrono::milliseconds(ctx.config.exec_timeout_ms.value);
  auto result = util::run_subprocess(options);
  if (!result.ok()) {
    warn(ctx, "notify_failed", fmt::format("notify command \"{}\": {}", options.argv.front(), result.error().message));
  } else if (!result->success()) {
    warn(ctx, "notify_failed", fmt::format("notify command \"{}\" failed: {}", options.argv.front(), result->describe_status()));
  }
}

} // namespace mailroom::cli
