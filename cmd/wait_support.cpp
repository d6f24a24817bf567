#include "wait_support.hpp"

#include <csignal>

#include <fmt/format.h>

#include "mail/address.hpp"
#include "mail/duration.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "support.hpp"

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
  std::vector<std::string> out;
  for (const std::string& name : types) {
    TRY_ASSIGN(mail::MessageType type, ctx.policy.types.resolve(name));
    out.push_back(type.name);
  }
  return out;
}

ExitCode interrupted_exit(int signal)
{
  return signal == SIGTERM ? ExitCode::terminated : ExitCode::interrupted;
}

namespace {

Result<void> write_message(Context& ctx, const mail::Message& message, const nlohmann::json& extra,
                           const std::string& key)
{
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    if (extra.is_object()) {
      doc.update(extra);
    }
    doc[key] = render::message_to_json(message);
    return write_json(ctx, doc);
  }
  return write_text(ctx, render::render_message_view(message));
}

} // namespace

nlohmann::json wait_result_keys(const mail::WaitOutcome& outcome, bool reply_to, bool as_read_notice)
{
  nlohmann::json keys = nlohmann::json::object();
  keys["timed_out"] = outcome.end == mail::WaitEnd::timed_out;
  keys["outcome"] = std::string(mail::outcome_name(outcome.end, reply_to));
  if (outcome.notice) {
    keys["notice"] = render::message_to_json(as_read_notice ? as_read(*outcome.notice) : *outcome.notice);
  } else {
    keys["notice"] = nullptr;
  }
  return keys;
}

void report_request_end(Context& ctx, const mail::WaitOutcome& outcome, const mail::MessageId& request,
                        bool stays_sent)
{
  std::string why;
  switch (outcome.end) {
  case mail::WaitEnd::set_aside:
    why = "it was set aside by its recipient's watcher";
    break;
  case mail::WaitEnd::escalated:
    why = "it was escalated: its recipient has not acknowledged it";
    break;
  case mail::WaitEnd::expired:
    why = "it expired";
    break;
  default:
    return;
  }
  std::string hint = fmt::format("see each recipient with: mailroom status {}", request);
  if (outcome.notice) {
    hint += fmt::format(" (and the notice {})", outcome.notice->id);
  }
  report_error(ctx.out, ctx.command,
               make_error(ErrorCode::timeout,
                          fmt::format("no reply will come to {}: {}{}", request, why,
                                      stays_sent ? "; the message stays sent" : ""),
                          hint),
               false);
}

Result<void> print_found(Context& ctx, const mail::Message& message, const nlohmann::json& extra,
                         const std::string& key)
{
  return write_message(ctx, message, extra, key);
}

mail::WaitSettings wait_settings(Context& ctx)
{
  mail::WaitSettings settings;
  settings.on_retry = [&ctx](const Error& error, mail::Millis pause_ms) {
    warn(ctx, "store_retry",
         fmt::format("waiting for mail: {}; trying again in {}", error.message,
                     mail::format_duration(pause_ms)));
  };
  settings.on_degraded = [&ctx](const std::string& why) { warn(ctx, mail::k_no_listen_warning, why); };
  return settings;
}

Result<bool> take_found(Context& ctx, mail::Provider& provider, const mail::MessageId& id,
                        const nlohmann::json& extra, const std::string& key)
{
  const mail::DeliverFn deliver = [&](const mail::Message& message) {
    return write_message(ctx, as_read(message), extra, key); // the state after the take
  };
  TRY_ASSIGN(const std::optional<mail::Message> taken, provider.take(ctx.actor(), id, deliver));
  return taken.has_value();
}

Result<void> read_found(Context& ctx, mail::Provider& provider, const mail::MessageId& id,
                        const nlohmann::json& extra, const std::string& key)
{
  const mail::DeliverFn deliver = [&](const mail::Message& message) {
    return write_message(ctx, as_read(message), extra, key); // the state after the read
  };
  TRY(provider.read(ctx.actor(), id, deliver));
  return {};
}

} // namespace mailroom::cli
