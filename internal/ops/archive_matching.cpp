#include "archive_matching.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "errors.hpp"
#include "mail/address.hpp"
#include "render/json.hpp"
#include "schema.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"

namespace mailroom::ops {

namespace {

// What the body of a match is loaded as: its size is all the filter looks at.
constexpr std::size_t k_match_body_bytes = 0;

Result<std::size_t> parse_limit(const std::optional<std::string>& typed)
{
  if (!typed) {
    return k_default_archive_limit;
  }
  std::size_t value = 0;
  const bool digits = !typed->empty() && typed->size() <= 9 &&
                      std::all_of(typed->begin(), typed->end(), [](char c) { return c >= '0' && c <= '9'; });
  if (digits) {
    value = std::stoul(*typed);
  }
  if (!digits || value == 0) {
    return usage_error(
        "--limit must be greater than zero",
        fmt::format("got \"{}\"; the default is {}", text::cap_for_echo(*typed), k_default_archive_limit));
  }
  return value;
}

Result<void> check_mailbox(const std::string& flag, const std::string& name)
{
  if (!mail::is_valid_mailbox(name)) {
    TRY(mail::parse_address(name));
    return usage_error(fmt::format("{} \"{}\" is not a mailbox", flag, text::cap_for_echo(name)),
                       "name one mailbox, e.g. mayor or rig/mayor");
  }
  return {};
}

// gc's rules for a filtered archive (archive_matching.hpp), in gc's words.
Result<std::size_t> check_request(const ArchiveMatchRequest& request)
{
  if (!request.ids.empty()) {
    return usage_error("message IDs cannot be combined with --to/--from/--subject filters");
  }
  if (request.to && request.all_recipients) {
    return usage_error("choose either --to or --all-recipients");
  }
  if (!request.to && !request.all_recipients) {
    return usage_error("--to or --all-recipients is required when using archive filters");
  }
  if (!request.filter.has_content_filter()) {
    return usage_error(
        "use --from, --subject-prefix, or --subject-contains to avoid archiving unrelated mail");
  }
  if (request.to) {
    TRY(check_mailbox("--to", *request.to));
  }
  if (request.filter.from) {
    TRY(check_mailbox("--from", *request.filter.from));
  }
  return parse_limit(request.limit);
}

// The deliveries a filtered archive chooses from, in order, before the content filter.
Result<std::vector<mail::OpenDelivery>> candidates(mail::Provider& provider,
                                                   const ArchiveMatchRequest& request)
{
  std::vector<mail::OpenDelivery> found;
  if (request.all_recipients) {
    TRY_ASSIGN(mail::Views * views, mail::need(provider.facets().views, "archive --all-recipients"));
    mail::OpenDeliveriesQuery query;
    query.from = request.filter.from;
    query.include_read = request.include_read;
    query.body_bytes = k_match_body_bytes;
    return views->open_deliveries(query);
  }
  mail::ListQuery query;
  query.mailbox = *request.to;
  query.include_read = request.include_read;
  query.body_bytes = k_match_body_bytes;
  TRY_ASSIGN(mail::ListResult listed, provider.list(query));
  for (mail::ListedMessage& m : listed.messages) {
    found.push_back(mail::OpenDelivery{*request.to, std::move(m.message)});
  }
  return found;
}

} // namespace

bool ArchiveMatchRequest::selects() const
{
  return to || all_recipients || filter.from || filter.subject_prefix || filter.subject_contains ||
         filter.empty_body || include_read || limit || dry_run;
}

Result<ArchiveMatchResult> archive_matching(Session& session, const ArchiveMatchRequest& request)
{
  TRY_ASSIGN(const std::size_t limit, check_request(request));
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  ArchiveMatchResult result;
  result.dry_run = request.dry_run;
  result.all_recipients = request.all_recipients;
  TRY_ASSIGN(std::vector<mail::OpenDelivery> open, candidates(*provider, request));
  for (mail::OpenDelivery& delivery : open) {
    if (result.matches.size() == limit) {
      break;
    }
    if (request.filter.matches(delivery.message)) {
      result.matches.push_back(std::move(delivery));
    }
  }
  if (request.dry_run) {
    return result;
  }
  ChangeResult& changes = result.changes;
  bool stopped = false;
  for (const mail::OpenDelivery& match : result.matches) {
    const mail::MessageId& id = match.message.id;
    if (stopped) {
      changes.failed.push_back({id, changes.failed.back().error});
      result.outcomes.emplace_back();
      continue;
    }
    // Another's delivery is changed acting as the caller: the store records acted_by.
    auto outcome = provider->change(mail::Actor{match.recipient, session.me.name, session.seen_via()}, id,
                                    mail::Change::archive);
    if (!outcome.ok()) {
      const ExitCode code = to_exit_code(outcome.error().code);
      changes.worst =
          std::max(changes.worst, code, [](ExitCode a, ExitCode b) { return to_int(a) < to_int(b); });
      stopped = code == ExitCode::failure;
      changes.failed.push_back({id, std::move(outcome).error()});
      result.outcomes.emplace_back();
      continue;
    }
    (*outcome == mail::ChangeOutcome::already ? changes.already : changes.changed).push_back(id);
    result.outcomes.emplace_back(*outcome);
  }
  return result;
}

nlohmann::json to_json(const ArchiveMatchResult& result)
{
  nlohmann::json doc = to_json(result.changes);
  doc["dry_run"] = result.dry_run;
  doc["matches"] = nlohmann::json::array();
  for (const mail::OpenDelivery& match : result.matches) {
    doc["matches"].push_back({{"id", match.message.id},
                              {"recipient", match.recipient},
                              {"from", match.message.from},
                              {"subject", text::json_text(match.message.subject)}});
  }
  return doc;
}

text::DisplayText to_text(const ArchiveMatchResult& result, const render::Style& /*style*/)
{
  text::DisplayText text;
  if (result.matches.empty()) {
    return text::DisplayText::format("No matching messages\n");
  }
  for (std::size_t i = 0; i < result.matches.size(); ++i) {
    const mail::OpenDelivery& match = result.matches[i];
    text::DisplayText id = text::sanitize_line(match.message.id);
    if (result.all_recipients) {
      id += text::DisplayText::format(" for {}", text::sanitize_line(match.recipient));
    }
    if (result.dry_run) {
      text += text::DisplayText::format("Would archive message {}\t{}\n", id,
                                        text::sanitize_line(match.message.subject));
    } else if (i < result.outcomes.size() && result.outcomes[i] == mail::ChangeOutcome::already) {
      text += text::DisplayText::format("Already archived {}\n", id);
    } else if (i < result.outcomes.size() && result.outcomes[i]) {
      text += text::DisplayText::format("Archived message {}\n", id);
    }
  }
  return text;
}

nlohmann::json archive_matching_output_schema()
{
  using namespace schema;
  return document(
      {{"ok", boolean()},
       {"dry_run", boolean()},
       {"matches",
        array_of(
            object({{"id", string()}, {"recipient", string()}, {"from", string()}, {"subject", string()}}))},
       {"ids", array_of(string())},
       {"already", array_of(string())},
       {"failed", array_of(object({{"id", string()}, {"code", string()}}))}});
}

} // namespace mailroom::ops
