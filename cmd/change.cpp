#include "change.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "acting.hpp"
#include "render/json.hpp"
#include "support.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"

namespace mailroom::cli {

namespace {

struct Failure {
  std::string id;
  Error error;
};

Result<mail::ChangeOutcome> apply(Context& ctx, mail::Provider& provider, const std::string& typed,
                                  mail::Change change, const std::optional<std::string>& for_name,
                                  std::string& resolved)
{
  TRY_ASSIGN(resolved, provider.resolve_id(typed));
  return act_on(ctx, provider, resolved, for_name,
                [&](const mail::Actor& actor) { return provider.change(actor, resolved, change); });
}

} // namespace

Result<ExitCode> run_change(Context& ctx, const std::vector<std::string>& ids, mail::Change change,
                            ChangeWording wording, const std::optional<std::string>& for_name)
{
  TRY(require_ids(ids));
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  const bool single = ids.size() == 1;
  std::vector<std::string> changed;
  std::vector<std::string> already;
  std::vector<Failure> failed;
  ExitCode worst = ExitCode::ok;
  bool stopped = false;
  for (const std::string& typed : ids) {
    if (stopped) {
      failed.push_back({typed, failed.back().error});
      continue;
    }
    std::string id = typed;
    auto outcome = apply(ctx, *provider, typed, change, for_name, id);
    if (!outcome.ok()) {
      if (single) {
        return std::move(outcome).error();
      }
      const ExitCode code = to_exit_code(outcome.error().code);
      worst = std::max(worst, code, [](ExitCode a, ExitCode b) { return to_int(a) < to_int(b); });
      stopped = code == ExitCode::failure;
      if (!ctx.json) {
        const std::string& message = outcome.error().message;
        ctx.out.err(message.find(typed) != std::string::npos
                      ? fmt::format("mailroom {}: {}\n", ctx.command, message)
                      : fmt::format("mailroom {}: {}: {}\n", ctx.command, typed, message));
      }
      failed.push_back({typed, std::move(outcome).error()});
      continue;
    }
    if (*outcome == mail::ChangeOutcome::archived_instead) {
      warn(ctx, "delete_as_archive",
           fmt::format("the provider has no delete; archived {} instead", text::cap_for_echo(id)));
    }
    const bool was_already = *outcome == mail::ChangeOutcome::already;
    (was_already ? already : changed).push_back(id);
    if (!ctx.json) {
      text::DisplayText line =
          text::DisplayText::format(was_already ? wording.already : wording.changed, text::sanitize_line(id));
      line += "\n";
      auto written = write_text(ctx, line);
      if (!written.ok() && !changed.empty()) {
        return make_error(ErrorCode::store_error,
                          fmt::format("changed {} but {}", join(changed), written.error().message));
      }
      TRY(written);
    }
  }
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["ok"] = failed.empty();
    doc["ids"] = changed;
    doc["already"] = already;
    doc["failed"] = nlohmann::json::array();
    for (const auto& f : failed) {
      doc["failed"].push_back({{"id", f.id}, {"code", std::string(to_string(f.error.code))}});
    }
    auto written = write_json(ctx, doc);
    if (!written.ok() && !changed.empty()) {
      return make_error(ErrorCode::store_error, fmt::format("changed {} but {}", join(changed), written.error().message));
    }
    TRY(written);
  }
  return worst;
}

} // namespace mailroom::cli
