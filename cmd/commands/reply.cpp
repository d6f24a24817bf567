// mailroom reply: answer the sender (or everyone with --all) in the same thread.

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "compose.hpp"
#include "misroute.hpp"
#include "ops/notify.hpp"
#include "send_support.hpp"
#include "wake_start.hpp"

namespace mailroom::cli {

namespace {

struct ReplyOptions {
  std::vector<std::string> positionals; // <id> [<body>...]
  std::optional<std::string> subject;
  std::optional<std::string> message;
  bool all = false;
  bool yes = false;
  BodySource body;
  ops::Sending sending; // --priority, --urgent, --type, --ack, --idempotency-key, --ttl
  bool notify = false;
  bool wake = false;
};

Result<ExitCode> run_reply(Context& ctx, const ReplyOptions& opts)
{
  TRY(require_ids(opts.positionals));
  const std::string id = opts.positionals.front();
  std::optional<std::string> inline_body = opts.message;
  if (opts.positionals.size() > 1) {
    if (inline_body) {
      return usage_error("a body argument cannot be combined with -m");
    }
    // gc joins the remaining words with single spaces.
    std::vector<std::string> words(opts.positionals.begin() + 1, opts.positionals.end());
    inline_body = join(words, " ");
  }
  TRY_ASSIGN(std::optional<std::string> body, read_body(ctx, opts.body, inline_body));
  std::optional<std::string> subject = opts.subject;
  if (!body && subject) {
    TRY(refuse_unread_stdin(ctx)); // -s alone is complete, but never drops a piped body
  }
  if (!body && !subject) {
    // Neither subject nor body: piped stdin, or the editor at a terminal (contract "Bodies").
    const auto check = [&]() { return check_reply(ctx, id, opts.all, opts.yes); };
    TRY_ASSIGN(std::optional<Draft> draft,
               implicit_body(ctx, fmt::format("in reply to {}", id), false, check));
    if (draft) {
      body = std::move(draft->body);
      subject = std::move(draft->subject);
    }
  }
  if (!body && !subject) {
    return usage_error("missing reply body",
                       "usage: mailroom reply <id> <body>  OR  mailroom reply <id> -m <body>");
  }
  ops::ReplyRequest request;
  request.id = id;
  request.subject = std::move(subject);
  request.body = body.value_or("");
  request.all = opts.all;
  request.confirmed = opts.yes;
  request.sending = opts.sending;
  request.sending.wake = opts.notify || opts.wake;
  TRY_ASSIGN(const ops::ReplyResult result, ops::reply(ctx.session, request));
  const mail::SendReceipt& receipt = result.receipt;
  TRY(ops::after_store({receipt.message.id}, print_result(ctx, result)));
  start_wakes(ctx, {receipt});
  if (opts.notify) {
    ops::notify_recipients(ctx.session, receipt);
  }
  return ExitCode::ok;
}

} // namespace

void register_reply(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<ReplyOptions>();
  command.add_option("args", opts->positionals, "<id> [<body>...]; a body of - reads stdin");
  command.add_option("-s,--subject", opts->subject, "the subject (default: \"Re: \" + the original's)");
  command.add_option("-m,--message", opts->message, "the body");
  command.add_flag("-a,--all", opts->all, "reply to everyone on the original, not only its sender");
  command.add_flag("-y,--yes", opts->yes, "confirm reply --all to more than 10 mailboxes");
  add_body_options(command, opts->body);
  add_priority_options(command, opts->sending);
  command
      .add_option("--type", opts->sending.type, "message type (default: the reply type of the original's)")
      ->type_name("TYPE");
  command.add_option("--idempotency-key", opts->sending.idempotency_key,
                     "a retry with the same key stores nothing new");
  command.add_flag("--notify", opts->notify, "run the [notify] command after the reply is stored");
  command.add_flag("--wake", opts->wake,
                   "wake recipients that have a wake target even when it is not urgent");
  command.add_option("--ttl", opts->sending.ttl, "the reply expires this long after it is sent (e.g. 30m)")
      ->type_name("DUR");
  command.add_flag("--ack", opts->sending.ack,
                   "track its deliveries until each recipient replies or acks ([delivery] ack)");
  command.footer(
      "Examples:\n  mailroom reply mr-a1b2c3 \"on it\"\n  mailroom reply --all mr-a1b2c3 -m \"merged\"");
  inv.on_select(command, [opts](Context& ctx) { return run_reply(ctx, *opts); });
}

} // namespace mailroom::cli
