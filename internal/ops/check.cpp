#include "check.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>

#include <fmt/format.h>

#include "acting.hpp"
#include "errors.hpp"
#include "read_names.hpp"
#include "render/json.hpp"
#include "schema.hpp"
#include "text/sanitize.hpp"

namespace mailroom::ops {

Result<std::size_t> check_limit(std::string_view text)
{
  std::uint32_t value = 0;
  const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (status != std::errc() || end != text.data() + text.size() || value == 0) {
    return usage_error(fmt::format("--limit must be a positive whole number, not \"{}\"", text));
  }
  return static_cast<std::size_t>(value);
}

Result<CheckResult> check(Session& session, const CheckRequest& request)
{
  TRY_ASSIGN(const std::size_t limit, check_limit(request.limit));
  CheckResult result;
  TRY_ASSIGN(result.mailbox, read_target(session, request.mailbox));
  auto fetched = [&]() -> Result<mail::CheckResult> {
    TRY_ASSIGN(mail::Provider * provider, session.provider());
    // The plain predicate prints only the total, so it loads no message (a count-only query).
    return provider->check(result.mailbox, request.messages ? limit : 0, std::nullopt);
  }();
  if (!fetched.ok() && fetched.error().reason == "no_store") {
    result.no_store = true;
    return result;
  }
  TRY_ASSIGN(result.found, std::move(fetched));
  return result;
}

Result<CheckResult> check_for_hook(Session& session, const HookCheckRequest& request)
{
  // The hook preview reads at most this much of each body (the reminder scans no further).
  constexpr std::size_t k_preview_scan_bytes = 4096;
  if (!request.mailbox && session.me.origin.kind == config::Origin::Kind::default_value) {
    // Contract "What reaches an agent".
    session.presence.reset();
    return make_error(
        ErrorCode::no_identity, "no identity: the hook stays quiet rather than show human's mail",
        "set MAILROOM_IDENTITY for this agent, write its mailbox name in .mailroom-identity at its "
        "worktree's top, or put --as NAME in the hook command");
  }
  CheckResult result;
  TRY_ASSIGN(result.mailbox, listing_target(session, request.mailbox));
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  const std::size_t limit = std::min(request.limit, k_max_hook_messages);
  mail::HookCheck* slow = provider->facets().hook_check;
  if (slow == nullptr || !request.start_refresh) {
    TRY_ASSIGN(result.found, provider->check(result.mailbox, limit, k_preview_scan_bytes));
    return result;
  }
  TRY_ASSIGN(std::optional<mail::HookAnswer> answer,
             slow->hook_check(result.mailbox, limit, k_preview_scan_bytes, request.answer_by,
                              request.start_refresh));
  if (!answer) {
    result.no_answer_yet = true;
    return result;
  }
  result.found = std::move(answer->result);
  result.as_of = answer->as_of;
  return result;
}

Result<bool> refresh_hook_answer(Session& session, const std::optional<std::string>& mailbox)
{
  session.presence.reset(); // the refresh runs for the agent, but is not the agent acting
  TRY_ASSIGN(const mail::Mailbox target, listing_target(session, mailbox));
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TRY_ASSIGN(mail::HookCheck * slow, mail::need(provider->facets().hook_check, "check --refresh"));
  return slow->refresh_hook_check(target);
}

nlohmann::json reminder_to_json(const CheckResult& result, const text::DisplayText& reminder)
{
  nlohmann::json doc = render::json_document();
  doc["mailbox"] = result.mailbox;
  doc["unread"] = result.found.unread;
  doc["reminder"] = reminder.empty() ? nlohmann::json(nullptr) : nlohmann::json(reminder.str());
  return doc;
}

nlohmann::json to_json(const CheckResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["mailbox"] = result.mailbox;
  doc["unread"] = result.found.unread;
  doc["messages"] = nlohmann::json::array();
  for (const auto& m : result.found.messages) {
    doc["messages"].push_back(render::message_to_json(m));
  }
  return doc;
}

text::DisplayText to_text(const CheckResult& result, const render::Style& /*style*/)
{
  if (result.found.unread == 0) {
    return {};
  }
  return text::DisplayText::format("{} unread message(s) for {}\n", result.found.unread,
                                   text::sanitize_line(result.mailbox));
}

nlohmann::json check_output_schema()
{
  using namespace schema;
  return document({{"mailbox", string()}, {"unread", integer()}, {"messages", array_of(message())}});
}

} // namespace mailroom::ops
