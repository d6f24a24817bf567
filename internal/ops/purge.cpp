#include "purge.hpp"

#include <sys/stat.h>

#include <fmt/format.h>

#include "errors.hpp"
#include "mail/duration.hpp"
#include "render/json.hpp"
#include "schema.hpp"
#include "text/sanitize.hpp"

namespace mailroom::ops {

namespace {

// A purge on a full disk cannot start: SQLite writes every page it changes to the write-ahead log
// before the database, and the log needs room. The hint says exactly how much room is enough: the
// store's size plus a frame header per page (a transaction writes each page to the log once at
// most, and a purge adds no page), and what to run then.
Error no_space_for_purge(const Session& session, const std::string& older_than, Error error)
{
  constexpr unsigned long long k_page = 4096;
  constexpr unsigned long long k_frame_header = 24;
  constexpr unsigned long long k_wal_header = 32;
  struct stat info {};
  if (::stat(session.config.store_path.value.c_str(), &info) != 0 || info.st_size <= 0) {
    return error;
  }
  const auto size = static_cast<unsigned long long>(info.st_size);
  const unsigned long long need = size + (size + k_page - 1) / k_page * k_frame_header + k_wal_header;
  error.hint =
      fmt::format("free {} KiB on the store's filesystem (its size plus the log's frame headers: the most "
                  "a purge can write to the write-ahead log), then run 'mailroom purge --archived "
                  "--older-than {}' again; the space it frees inside the store is reused by new mail",
                  (need + 1023) / 1024, older_than);
  return error;
}

} // namespace

Result<PurgeResult> purge(Session& session, const PurgeRequest& request)
{
  if (!request.archived) {
    return usage_error("purge needs --archived",
                       "purge --archived --older-than 30d deletes mail archived (or "
                       "expired) more than 30 days ago");
  }
  if (!request.older_than) {
    return usage_error("purge needs --older-than DUR", "e.g. purge --archived --older-than 30d");
  }
  mail::PurgeRequest purge;
  TRY_ASSIGN(purge.older_than, mail::parse_duration(*request.older_than, "--older-than"));
  purge.dry_run = request.dry_run;
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TRY_ASSIGN(mail::Transfer * transfer, mail::need(provider->facets().transfer, "purge"));
  auto purged = transfer->purge(purge);
  if (!purged.ok()) {
    Error error = std::move(purged).error();
    return error.reason == "no_space" ? no_space_for_purge(session, *request.older_than, std::move(error))
                                      : error;
  }
  return PurgeResult{std::move(purged).value(), purge.older_than};
}

nlohmann::json to_json(const PurgeResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["ok"] = true;
  doc["dry_run"] = result.report.dry_run;
  doc["messages"] = result.report.messages;
  doc["deliveries"] = result.report.deliveries;
  return doc;
}

text::DisplayText to_text(const PurgeResult& result, const render::Style& /*style*/)
{
  return text::DisplayText::format(
      "{} {} message(s) archived or expired more than {} ago\n",
      result.report.dry_run ? text::DisplayText("Would purge") : text::DisplayText("Purged"),
      result.report.messages, text::sanitize_line(mail::format_duration(result.older_than)));
}

nlohmann::json purge_output_schema()
{
  using namespace schema;
  return document(
      {{"ok", boolean()}, {"dry_run", boolean()}, {"messages", integer()}, {"deliveries", integer()}});
}

} // namespace mailroom::ops
