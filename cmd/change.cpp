#include "change.hpp"

#include <fmt/format.h>

#include "render/json.hpp"
#include "support.hpp"

namespace mailroom::cli {

Result<ExitCode> run_change(Context& ctx, const std::vector<std::string>& ids, mail::Change change,
                            ChangeWording wording)
{
  TRY(require_ids(ids));
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  std::vector<std::string> changed;
  std::vector<std::string> already;
  for (const std::string& typed : ids) {
    TRY_ASSIGN(const mail::MessageId id, provider->resolve_id(typed));
    TRY_ASSIGN(mail::ChangeOutcome outcome, provider->change(ctx.actor(), id, change));
    const bool was_already = outcome == mail::ChangeOutcome::already;
    (was_already ? already : changed).push_back(id);
    if (!ctx.json) {
      const std::string_view pattern = was_already ? wording.already : wording.changed;
      TRY(write_text(ctx, fmt::format(fmt::runtime(pattern), id) + "\n"));
    }
  }
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["ok"] = true;
    doc["ids"] = changed;
    doc["already"] = already;
    TRY(write_json(ctx, doc));
  }
  return ExitCode::ok;
}

} // namespace mailroom::cli
