// mailroom status: each recipient's delivered, read, archived and ack state, and who really sent it.

#include "commands.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "support.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

struct StatusOptions {
  std::vector<std::string> ids;
};

nlohmann::json optional_time(const std::optional<mail::UnixMillis>& when)
{
  return when ? nlohmann::json(render::format_rfc3339(*when)) : nlohmann::json(nullptr);
}

Result<ExitCode> run_status(Context& ctx, const StatusOptions& opts)
{
  TRY(require_ids(opts.ids));
  if (opts.ids.size() > 1) {
    return usage_error("status takes one message ID");
  }
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  TRY_ASSIGN(const mail::MessageId id, provider->resolve_id(opts.ids.front()));
  TRY_ASSIGN(mail::StatusResult status, provider->status(id));
  const std::vector<mail::DeliveryStatus>& records = status.deliveries;
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["id"] = id;
    doc["from"] = status.message.from;
    doc["sender_uid"] = status.message.sender_uid;
    doc["sender_host"] = status.message.sender_host;
    doc["recipients"] = nlohmann::json::array();
    for (const auto& r : records) {
      doc["recipients"].push_back({{"recipient", r.recipient},
                                   {"kind", r.kind},
                                   {"delivered_at", render::format_rfc3339(r.delivered_at)},
                                   {"read_at", optional_time(r.read_at)},
                                   {"archived_at", optional_time(r.archived_at)},
                                   {"ack_state", std::string(mail::to_string(r.ack_state))},
                                   {"acked_at", optional_time(r.acked_at)},
                                   {"attempts", r.attempts},
                                   {"last_attempt_at", optional_time(r.last_attempt_at)},
                                   {"acted_by", r.acted_by ? nlohmann::json(*r.acted_by) : nlohmann::json(nullptr)}});
    }
    TRY(write_json(ctx, doc));
  } else {
    // Who sent it, as recorded by the store (identities are assertions; the OS user is not).
    const mail::Message& m = status.message;
    const text::DisplayText uid =
        m.sender_uid >= 0 ? text::DisplayText::format("uid {}", m.sender_uid) : text::DisplayText("uid unknown");
    const text::DisplayText host = m.sender_host.empty() ? text::DisplayText("an unknown host")
                                                         : text::sanitize_line(text::cap_bytes(m.sender_host));
    TRY(write_text(ctx, text::DisplayText::format("From {} ({} on {})\n", text::sanitize_line(text::cap_bytes(m.from)),
                                                  uid, host)));
    TRY(write_text(ctx, render::render_status_table(records, ctx.style())));
  }
  return ExitCode::ok;
}

} // namespace

void register_status(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<StatusOptions>();
  command.add_option("id", opts->ids, "the message ID");
  command.footer("Example:\n  mailroom status mr-a1b2c3");
  inv.on_select(command, [opts](Context& ctx) { return run_status(ctx, *opts); });
}

} // namespace mailroom::cli
