// mailroom reply: answer the sender (or everyone with --all) in the same thread.

#include <fmt/format.h>

#include "commands.hpp"
#include "compose.hpp"
#include "mail/duration.hpp"
#include "misroute.hpp"
#include "notify.hpp"
#include "render/json.hpp"
#include "send_support.hpp"
#include "support.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

struct ReplyOptions {
  std::vector<std::string> positionals; // <id> [<body>...]
  std::optional<std::string> subject;
  std::optional<std::string> message;
  bool all = false;
  bool yes = false;
  BodySource body;
  PriorityOptions priority;
  std::optional<std::string> type;
  std::optional<std::string> idempotency_key;
  bool notify = false;
  std::optional<std::string> ttl;
  bool ack = false;
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
    return usage_error("missing reply body", "usage: mailroom reply <id> <body>  OR  mailroom reply <id> -m <body>");
  }
  mail::ReplyRequest request;
  request.from = ctx.me.name;
  request.subject = std::move(subject);
  request.body = body.value_or("");
  request.reply_all = opts.all;
  request.confirmed = opts.yes;
  TRY_ASSIGN(request.priority, resolve_priority(opts.priority));
  request.type = opts.type;
  if (opts.ttl) {
    TRY_ASSIGN(request.ttl, mail::parse_duration(*opts.ttl, "--ttl"));
  }
  request.ack = opts.ack;
  TRY_ASSIGN(request.idempotency_key, resolve_idempotency_key(ctx, opts.idempotency_key));

  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  TRY_ASSIGN(request.id, provider->resolve_id(id));
  TRY_ASSIGN(mail::SendReceipt receipt, provider->reply(request));
  Result<void> written;
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["ok"] = true;
    doc["id"] = receipt.message.id;
    doc["ids"] = {receipt.message.id};
    doc["thread_id"] = receipt.message.thread_id;
    doc["recipients"] = receipt.recipients;
    doc["reply_to"] = request.id;
    doc["replayed"] = receipt.replayed;
    written = write_json(ctx, doc);
  } else {
    written = write_text(ctx, text::DisplayText::format(
                                  "Replied to {} \u2014 sent message {} to {}\n",
                                  text::sanitize_line(request.id), text::sanitize_line(receipt.message.id),
                                  recipients_summary(receipt.message, receipt.recipients)));
  }
  if (!written.ok()) {
    return make_error(ErrorCode::store_error,
                            fmt::format("stored {} but {}", receipt.message.id, written.error().message));
  }
  if (opts.notify) {
    notify_recipients(ctx, receipt);
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
  add_priority_options(command, opts->priority);
  command.add_option("--type", opts->type, "message type (default: the reply type of the original's)");
  command.add_option("--idempotency-key", opts->idempotency_key, "a retry with the same key stores nothing new");
  command.add_flag("--notify", opts->notify, "run the [notify] command after the reply is stored");
  command.add_option("--ttl", opts->ttl, "the reply expires this long after it is sent (e.g. 30m)")->type_name("DUR");
  command.add_flag("--ack", opts->ack, "track its deliveries until each recipient replies or acks ([delivery] ack)");
  command.footer("Examples:\n  mailroom reply mr-a1b2c3 \"on it\"\n  mailroom reply --all mr-a1b2c3 -m \"merged\"");
  inv.on_select(command, [opts](Context& ctx) { return run_reply(ctx, *opts); });
}

} // namespace mailroom::cli
