// mailroom peek: the read view, changing nothing.

#include "commands.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "support.hpp"

namespace mailroom::cli {

namespace {

struct PeekOptions {
  std::vector<std::string> ids;
};

Result<ExitCode> run_peek(Context& ctx, const PeekOptions& opts)
{
  TRY(require_ids(opts.ids));
  if (opts.ids.size() > 1) {
    return usage_error("peek takes one message ID");
  }
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  TRY_ASSIGN(const mail::MessageId id, provider->resolve_id(opts.ids.front()));
  TRY_ASSIGN(mail::Message message, provider->get(ctx.me.name, id));
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["message"] = render::message_to_json(message);
    TRY(write_json(ctx, doc));
  } else {
    TRY(write_text(ctx, render::render_message_view(message, ctx.clock.now())));
  }
  return ExitCode::ok;
}

} // namespace

void register_peek(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<PeekOptions>();
  command.add_option("id", opts->ids, "the message ID");
  command.footer("Example:\n  mailroom peek mr-a1b2c3");
  inv.on_select(command, [opts](Context& ctx) { return run_peek(ctx, *opts); });
}

} // namespace mailroom::cli
