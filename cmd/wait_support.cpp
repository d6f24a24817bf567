#include "wait_support.hpp"

#include <csignal>

#include <fmt/format.h>

#include "mail/address.hpp"
#include "mail/duration.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "support.hpp"

namespace mailroom::cli {

Result<std::optional<std::chrono::steady_clock::time_point>> deadline_from(const std::optional<std::string>& flag,
                                                                           std::string_view what)
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

Result<void> print_found(Context& ctx, const mail::Message& message, const nlohmann::json& extra,
                         const std::string& key)
{
  return write_message(ctx, message, extra, key);
}

Result<void> read_found(Context& ctx, mail::Provider& provider, const mail::MessageId& id, const nlohmann::json& extra,
                        const std::string& key)
{
  const mail::DeliverFn deliver = [&](const mail::Message& message) {
    return write_message(ctx, as_read(message), extra, key); // the state after the read
  };
  TRY(provider.read(ctx.actor(), id, deliver));
  return {};
}

} // namespace mailroom::cli
