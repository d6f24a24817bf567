#include "change.hpp"

#include <fmt/format.h>

#include "cli/support.hpp"
#include "ops/change.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

Result<ExitCode> run_change(Context& ctx, const std::vector<std::string>& ids, mail::Change change,
                            ChangeWording wording, const std::optional<std::string>& for_name)
{
  // Each id's line as it is done: done or already done on stdout, a failure on stderr.
  const ops::ChangeReport report = [&](const std::string& typed, const std::string& id,
                                       const Result<mail::ChangeOutcome>& outcome) -> Result<void> {
    if (ctx.json) {
      return {};
    }
    if (!outcome.ok()) {
      const std::string& message = outcome.error().message;
      ctx.out.err(message.find(typed) != std::string::npos
                      ? fmt::format("mailroom {}: {}\n", ctx.command, message)
                      : fmt::format("mailroom {}: {}: {}\n", ctx.command, typed, message));
      return {};
    }
    text::DisplayText line = text::DisplayText::format(
        *outcome == mail::ChangeOutcome::already ? wording.already : wording.changed,
        text::sanitize_line(id));
    line += "\n";
    return write_text(ctx, line);
  };
  TRY_ASSIGN(const ops::ChangeResult result,
             ops::change(ctx.session, ops::ChangeRequest{ids, change, for_name}, report));
  if (ctx.json) {
    TRY(ops::after_change(result, write_json(ctx, ops::to_json(result))));
  }
  return result.worst;
}

} // namespace mailroom::cli
