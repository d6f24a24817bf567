// mailroom read: render and write the message, and only then let the provider mark it read. Its
// sender, when not a recipient, only sees it: the `sender_read` warning says whose copy it left.

#include "acting.hpp"
#include "commands.hpp"
#include "mail/audience.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "support.hpp"

namespace mailroom::cli {

namespace {

struct ReadOptions {
  std::vector<std::string> ids;
  std::optional<std::string> for_name; // --for
};

Result<ExitCode> run_read(Context& ctx, const ReadOptions& opts)
{
  TRY(require_ids(opts.ids));
  if (opts.ids.size() > 1) {
    return usage_error("read takes one message ID");
  }
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  TRY_ASSIGN(const mail::MessageId id, provider->resolve_id(opts.ids.front()));
  // The deliver callback writes; a failed write keeps the message unread. What it writes is the
  // state after the read (contract "read --json": "read": true).
  const mail::DeliverFn deliver = [&ctx](const mail::Message& message) -> Result<void> {
    if (ctx.json) {
      nlohmann::json doc = render::json_document();
      doc["message"] = render::message_to_json(as_read(message));
      return write_json(ctx, doc);
    }
    return write_text(ctx, render::render_message_view(message, ctx.clock.now()));
  };
  std::string reader;
  TRY_ASSIGN(const mail::Message message,
             act_on(ctx, *provider, id, opts.for_name, [&](const mail::Actor& actor) {
               reader = actor.mailbox;
               return provider->read(actor, id, deliver);
             }));
  if (const auto note = mail::sender_read_note(message, reader)) {
    warn(ctx, "sender_read", *note); // the sender's read was a peek (contract "Gas City, both ways")
  }
  return ExitCode::ok;
}

} // namespace

void register_read(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<ReadOptions>();
  command.add_option("id", opts->ids, "the message ID");
  add_for_option(command, opts->for_name);
  command.footer("Examples:\n  mailroom read mr-a1b2c3\n  mailroom --json read mr-a1b2c3 | jq -r .message.body");
  inv.on_select(command, [opts](Context& ctx) { return run_read(ctx, *opts); });
}

} // namespace mailroom::cli
