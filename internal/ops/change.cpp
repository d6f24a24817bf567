#include "change.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "acting.hpp"
#include "render/json.hpp"
#include "schema.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"

namespace mailroom::ops {

namespace {

Result<mail::ChangeOutcome> apply(Session& session, mail::Provider& provider, const std::string& typed,
                                  mail::Change change, const std::optional<std::string>& for_name,
                                  std::string& resolved)
{
  TRY_ASSIGN(resolved, mail::resolve_id(provider, typed));
  return act_on(session, provider, resolved, for_name,
                [&](const mail::Actor& actor) { return provider.change(actor, resolved, change); });
}

} // namespace

Result<void> after_change(const ChangeResult& result, Result<void> written)
{
  if (!written.ok() && !result.changed.empty()) {
    return make_error(
        ErrorCode::store_error,
        fmt::format("changed {} but {}", text::join(result.changed, ", "), written.error().message));
  }
  return written;
}

Result<ChangeResult> change(Session& session, const ChangeRequest& request, const ChangeReport& report)
{
  TRY(require_ids(request.ids));
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  const bool single = request.ids.size() == 1;
  ChangeResult result;
  bool stopped = false;
  for (const std::string& typed : request.ids) {
    if (stopped) {
      result.failed.push_back({typed, result.failed.back().error});
      continue;
    }
    std::string id = typed;
    auto outcome = apply(session, *provider, typed, request.change, request.for_name, id);
    if (!outcome.ok()) {
      if (single) {
        return std::move(outcome).error();
      }
      const ExitCode code = to_exit_code(outcome.error().code);
      result.worst =
          std::max(result.worst, code, [](ExitCode a, ExitCode b) { return to_int(a) < to_int(b); });
      stopped = code == ExitCode::failure;
      TRY(report(typed, id, outcome));
      result.failed.push_back({typed, std::move(outcome).error()});
      continue;
    }
    if (*outcome == mail::ChangeOutcome::archived_instead) {
      session.tell("delete_as_archive",
                   fmt::format("the provider has no delete; archived {} instead", text::cap_for_echo(id)));
    }
    (*outcome == mail::ChangeOutcome::already ? result.already : result.changed).push_back(id);
    TRY(after_change(result, report(typed, id, outcome)));
  }
  return result;
}

nlohmann::json to_json(const ChangeResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["ok"] = result.failed.empty();
  doc["ids"] = result.changed;
  doc["already"] = result.already;
  doc["failed"] = nlohmann::json::array();
  for (const auto& f : result.failed) {
    doc["failed"].push_back({{"id", f.id}, {"code", std::string(to_string(f.error.code))}});
  }
  return doc;
}

nlohmann::json change_output_schema()
{
  using namespace schema;
  return document({{"ok", boolean()},
                   {"ids", array_of(string())},
                   {"already", array_of(string())},
                   {"failed", array_of(object({{"id", string()}, {"code", string()}}))}});
}

Result<MarkAllReadResult> mark_all_read(Session& session)
{
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  MarkAllReadResult result;
  result.mailbox = session.me.name;
  TRY_ASSIGN(result.ids, provider->mark_all_read(session.me.name));
  return result;
}

nlohmann::json to_json(const MarkAllReadResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["ok"] = true;
  doc["ids"] = result.ids;
  doc["already"] = nlohmann::json::array();
  doc["failed"] = nlohmann::json::array();
  return doc;
}

text::DisplayText to_text(const MarkAllReadResult& result, const render::Style& /*style*/)
{
  const text::DisplayText mailbox = text::sanitize_line(result.mailbox);
  if (result.ids.empty()) {
    return text::DisplayText::format("No unread messages for {}\n", mailbox);
  }
  return text::DisplayText::format("Marked {} message(s) read for {}\n", result.ids.size(), mailbox);
}

} // namespace mailroom::ops
