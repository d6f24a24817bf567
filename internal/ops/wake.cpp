#include "wake.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "errors.hpp"
#include "mail/address.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "schema.hpp"
#include "text/sanitize.hpp"
#include "wake/target.hpp"

namespace mailroom::ops {

namespace {

// The display form of a stored target; the stored text itself when it no longer parses.
std::string display_of(const std::string& stored)
{
  const nlohmann::json parsed = nlohmann::json::parse(stored, nullptr, false);
  if (!parsed.is_discarded()) {
    auto target = wake::from_stored(parsed);
    if (target.ok()) {
      return wake::display(*target);
    }
  }
  return stored;
}

nlohmann::json time_or_null(const std::optional<mail::UnixMillis>& at)
{
  return at ? nlohmann::json(render::format_rfc3339(*at)) : nlohmann::json(nullptr);
}

} // namespace

Result<WakeSetResult> set_wake(Session& session, const WakeSetRequest& request)
{
  TRY_ASSIGN(mail::Address address, mail::parse_address(request.name));
  if (address.kind != mail::Address::Kind::mailbox) {
    return usage_error(fmt::format("\"{}\" is not a mailbox name", request.name));
  }
  if (request.remove == !request.words.empty()) {
    return usage_error("agents set needs exactly one of --wake ARGV… and --no-wake",
                       "e.g. mailroom agents set bob --wake tmux:main:0.1");
  }
  std::optional<mail::WakeTarget> stored;
  WakeSetResult result;
  result.name = request.name;
  if (!request.remove) {
    TRY_ASSIGN(wake::Target target,
               wake::parse_target(request.words, session.env, wake::Setter::this_process()));
    std::map<std::string, std::vector<std::string>> named;
    for (const auto& [name, argv] : session.config.wake_targets) {
      named[name] = argv.value;
    }
    // A named target stays named (the config's argv is read when it runs), once it is known to be there.
    TRY(wake::resolve_named(target, named));
    mail::WakeTarget kept;
    kept.mailbox = request.name;
    kept.target = wake::to_stored(target).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    kept.set_from = mail::WakeHost{target.set_by.host, target.set_by.uid};
    kept.socket = target.tmux_socket;
    stored = std::move(kept);
    result.target = wake::display(target);
  }
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TRY_ASSIGN(mail::Wakes * wakes, mail::need(provider->facets().wakes, "agents set --wake"));
  TRY(wakes->set_wake_target(request.name, stored));
  return result;
}

nlohmann::json to_json(const WakeSetResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["ok"] = true;
  doc["name"] = result.name;
  doc["wake"] = result.target ? nlohmann::json{{"target", *result.target}} : nlohmann::json(nullptr);
  return doc;
}

nlohmann::json wake_set_output_schema()
{
  using namespace schema;
  return document(
      {{"ok", boolean()}, {"name", string()}, {"wake", nullable(object({{"target", string()}}))}});
}

text::DisplayText to_text(const WakeSetResult& result)
{
  if (!result.target) {
    return text::DisplayText::format("{} has no wake target\n", text::sanitize_line(result.name));
  }
  return text::DisplayText::format("{} wakes with {}\n", text::sanitize_line(result.name),
                                   text::sanitize_line(*result.target));
}

Result<std::vector<WakeView>> wake_views(Session& session)
{
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  std::vector<WakeView> views;
  mail::Wakes* wakes = provider->facets().wakes;
  if (wakes == nullptr) {
    return views;
  }
  TRY_ASSIGN(const std::vector<mail::WakeStatus> statuses, wakes->wake_statuses());
  for (const mail::WakeStatus& status : statuses) {
    WakeView view;
    view.mailbox = status.mailbox;
    if (status.target) {
      view.target = display_of(status.target->target);
    }
    view.last_at = status.last_at;
    view.outcome = status.outcome;
    view.reason = status.reason;
    view.failed = mail::wake_failed(status.outcome);
    views.push_back(std::move(view));
  }
  return views;
}

const WakeView* find_wake(const std::vector<WakeView>& views, const mail::Mailbox& name)
{
  const auto it =
      std::find_if(views.begin(), views.end(), [&](const WakeView& v) { return v.mailbox == name; });
  return it == views.end() ? nullptr : &*it;
}

nlohmann::json wake_json(const WakeView* view)
{
  if (view == nullptr) {
    return nullptr;
  }
  return {
      {"target", view->target ? nlohmann::json(*view->target) : nlohmann::json(nullptr)},
      {"last_at", time_or_null(view->last_at)},
      {"outcome", view->outcome ? nlohmann::json(mail::to_string(*view->outcome)) : nlohmann::json(nullptr)},
      {"reason", view->reason}};
}

nlohmann::json wake_schema()
{
  using namespace schema;
  return nullable(object({{"target", nullable(string())},
                          {"last_at", nullable(string())},
                          {"outcome", nullable(string())},
                          {"reason", string()}}));
}

text::DisplayText wake_lines(const std::vector<WakeView>& views, mail::UnixMillis now)
{
  text::DisplayText text;
  for (const WakeView& view : views) {
    text::DisplayText line = text::DisplayText::format("wake: {} -> {}", text::sanitize_line(view.mailbox),
                                                       view.target ? text::sanitize_line(*view.target)
                                                                   : text::DisplayText("(no target)"));
    if (view.outcome) {
      line += text::DisplayText::format(
          ", last {} {}", text::sanitize_line(mail::to_string(*view.outcome)),
          text::sanitize_line(view.last_at ? render::format_age(*view.last_at, now) : std::string("-")));
      if (!view.reason.empty()) {
        line += text::DisplayText::format(" ({})", text::sanitize_line(view.reason));
      }
    }
    text += line;
    text += "\n";
  }
  return text;
}

Result<WakeStatusResult> wake_status(Session& session, const WakeStatusRequest& request)
{
  WakeStatusResult result;
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TRY_ASSIGN(mail::Wakes * wakes, mail::need(provider->facets().wakes, "wake_status"));
  TRY_ASSIGN(result.wakes, wake_views(session));
  if (request.mailbox) {
    std::erase_if(result.wakes, [&](const WakeView& v) { return v.mailbox != *request.mailbox; });
    TRY_ASSIGN(result.recent,
               wakes->wake_ledger(*request.mailbox, std::clamp<std::size_t>(request.limit, 1, 200)));
  }
  result.now = session.clock.now();
  return result;
}

text::DisplayText to_text(const WakeStatusResult& result, const render::Style& /*style*/)
{
  text::DisplayText text = wake_lines(result.wakes, result.now);
  for (const mail::WakeRow& row : result.recent) {
    text += text::DisplayText::format("{} {} attempt {}: {}", text::sanitize_line(row.key.message),
                                      text::sanitize_line(render::format_age(row.updated_at, result.now)),
                                      row.key.attempt, text::sanitize_line(mail::to_string(row.outcome)));
    if (!row.reason.empty()) {
      text += text::DisplayText::format(" ({})", text::sanitize_line(row.reason));
    }
    text += "\n";
  }
  if (text.empty()) {
    text += "No wake targets\n";
  }
  return text;
}

nlohmann::json to_json(const WakeStatusResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["wakes"] = nlohmann::json::array();
  for (const WakeView& view : result.wakes) {
    nlohmann::json row = wake_json(&view);
    row["mailbox"] = view.mailbox;
    row["failed"] = view.failed;
    doc["wakes"].push_back(std::move(row));
  }
  doc["recent"] = nlohmann::json::array();
  for (const mail::WakeRow& row : result.recent) {
    doc["recent"].push_back({{"message_id", row.key.message},
                             {"target", display_of(row.key.target)},
                             {"attempt", row.key.attempt},
                             {"outcome", mail::to_string(row.outcome)},
                             {"reason", row.reason},
                             {"created_at", render::format_rfc3339(row.created_at)},
                             {"updated_at", render::format_rfc3339(row.updated_at)},
                             {"combined", row.combined},
                             {"combined_into", row.combined_into ? nlohmann::json(*row.combined_into)
                                                                 : nlohmann::json(nullptr)}});
  }
  return doc;
}

nlohmann::json wake_status_output_schema()
{
  using namespace schema;
  nlohmann::json wake = object({{"mailbox", string()},
                                {"target", nullable(string())},
                                {"last_at", nullable(string())},
                                {"outcome", nullable(string())},
                                {"reason", string()},
                                {"failed", boolean()}});
  nlohmann::json row = object({{"message_id", string()},
                               {"target", string()},
                               {"attempt", integer()},
                               {"outcome", string()},
                               {"reason", string()},
                               {"created_at", string()},
                               {"updated_at", string()},
                               {"combined", integer()},
                               {"combined_into", nullable(string())}});
  return document({{"wakes", array_of(std::move(wake))}, {"recent", array_of(std::move(row))}});
}

mail::WakeWhen wake_when(const Session& session, bool notified)
{
  const std::vector<std::string>& on = session.config.wake_on.value;
  const auto has = [&](std::string_view what) { return std::find(on.begin(), on.end(), what) != on.end(); };
  return mail::WakeWhen{notified && has("notify"), has("urgent"), has("request")};
}

std::vector<mail::MessageId> messages_to_wake(Session& session,
                                              const std::vector<mail::SendReceipt>& receipts)
{
  std::vector<mail::MessageId> ids;
  auto provider = session.provider();
  if (!provider.ok() || (*provider)->facets().wakes == nullptr) {
    return ids;
  }
  const wake::Setter here = wake::Setter::this_process();
  for (const mail::SendReceipt& receipt : receipts) {
    if (!receipt.stored() || receipt.replayed) {
      continue;
    }
    auto ready = (*provider)->facets().wakes->wake_ready(receipt.message.id, receipt.recipients,
                                                         mail::WakeHost{here.host, here.uid},
                                                         session.config.wake_cooldown_ms.value);
    if (ready.ok() && *ready) {
      ids.push_back(receipt.message.id);
    }
  }
  return ids;
}

std::vector<mail::Redelivery> redeliveries_to_wake(Session& session,
                                                   const std::vector<mail::Redelivery>& redelivered)
{
  std::vector<mail::Redelivery> out;
  if (redelivered.empty()) {
    return out;
  }
  auto provider = session.provider();
  if (!provider.ok() || (*provider)->facets().wakes == nullptr) {
    return out;
  }
  for (const mail::Redelivery& r : redelivered) {
    auto targets = (*provider)->facets().wakes->wake_targets({r.recipient});
    if (targets.ok() && !targets->empty()) {
      out.push_back(r);
    }
  }
  return out;
}

} // namespace mailroom::ops
