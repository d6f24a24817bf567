// mailroom send: the Gas City argument rules, recipients checked before anything is stored.

#include <fmt/format.h>

#include "commands.hpp"
#include "compose.hpp"
#include "mail/address.hpp"
#include "mail/compose.hpp"
#include "render/json.hpp"
#include "mail/limits.hpp"
#include "notify.hpp"
#include "send_support.hpp"
#include "support.hpp"

namespace mailroom::cli {

namespace {

constexpr std::string_view k_send_usage =
  "usage: mailroom send <to> <body>  OR  mailroom send <to> -s <subject> [-m <body>]";

struct SendOptions {
  std::vector<std::string> positionals;
  std::optional<std::string> subject;
  std::optional<std::string> message;
  std::vector<std::string> to;
  std::vector<std::string> cc;
  bool all = false;
  BodySource body;
  PriorityOptions priority;
  std::optional<std::string> type;
  std::optional<std::string> idempotency_key;
  bool notify = false;
};

struct Content {
  std::vector<std::string> recipients;
  std::optional<std::string> subject; // nullopt: derived from the body by the store's rules
  std::string body;
};

// Splits the positionals into recipient, subject and body following the contract's send rules.
Result<Content> parse_content(Context& ctx, const SendOptions& opts)
{
  Content content;
  std::vector<std::string> rest = opts.positionals;
  const bool explicit_recipients = opts.all || !opts.to.empty();
  if (!explicit_recipients) {
    if (rest.empty()) {
      return usage_error(std::string(k_send_usage));
    }
    content.recipients.push_back(rest.front());
    rest.erase(rest.begin());
  }
  if (rest.size() > 2) {
    return usage_error(fmt::format("unexpected argument \"{}\"", rest[2]), std::string(k_send_usage));
  }
  std::optional<std::string> subject = opts.subject;
  std::optional<std::string> body = opts.message;
  if (rest.size() == 2) {
    if (subject || body) {
      return usage_error("subject and body given both as arguments and as -s/-m", std::string(k_send_usage));
    }
    subject = rest[0];
    body = rest[1];
  } else if (rest.size() == 1) {
    if (body) {
      return usage_error("a body argument cannot be combined with -m", std::string(k_send_usage));
    }
    body = rest[0];
  }
  TRY_ASSIGN(std::optional<std::string> read, read_body(ctx, opts.body, body));
  if (!read && !(subject && !subject->empty())) {
    // Neither subject nor body: piped stdin, or the editor at a terminal (contract "Bodies").
    const std::string to = content.recipients.empty() ? join(opts.to) : join(content.recipients);
    TRY_ASSIGN(read, implicit_body(ctx, fmt::format("to {}", to.empty() ? std::string("everyone") : to)));
  }
  content.body = read.value_or("");
  if (subject && !subject->empty()) {
    content.subject = subject;
  }
  if (!content.subject && content.body.empty()) {
    return usage_error(std::string(k_send_usage));
  }
  return content;
}

Result<ExitCode> run_send(Context& ctx, const SendOptions& opts)
{
  TRY_ASSIGN(Content content, parse_content(ctx, opts));
  mail::SendRequest request;
  request.from = ctx.me.name;
  request.subject = std::move(content.subject);
  request.body = std::move(content.body);
  TRY_ASSIGN(request.priority, resolve_priority(opts.priority));
  request.type = opts.type.value_or(std::string(mail::k_default_type));
  TRY_ASSIGN(request.idempotency_key, resolve_idempotency_key(ctx, opts.idempotency_key));
  request.to = opts.to;
  request.to.insert(request.to.end(), content.recipients.begin(), content.recipients.end());
  if (opts.all) {
    request.to.emplace_back("@all");
  }
  request.cc = opts.cc;
  if (request.to.empty() && request.cc.empty()) {
    return usage_error("missing recipient", std::string(k_send_usage));
  }
  TRY(mail::check_send(request, ctx.policy)); // caps, shapes and the type before the store opens

  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  TRY_ASSIGN(std::vector<mail::SendReceipt> receipts, send_all(ctx, *provider, request));
  TRY(print_receipts(ctx, receipts, request.idempotency_key));
  if (opts.notify) {
    for (const auto& receipt : receipts) {
      notify_recipients(ctx, receipt);
    }
  }
  return ExitCode::ok;
}

} // namespace

void register_send(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<SendOptions>();
  command.add_option("args", opts->positionals, "<to> [<body>] or <to> <subject> <body>; a body of - reads stdin");
  command.add_option("-s,--subject", opts->subject, "the subject (default: the body's first line)");
  command.add_option("-m,--message", opts->message, "the body");
  command.add_option("--to", opts->to, "a recipient (repeatable)")->type_name("ADDR")->allow_extra_args(false);
  command.add_option("--cc", opts->cc, "a copy recipient (repeatable)")->type_name("ADDR")->allow_extra_args(false);
  command.add_flag("--all", opts->all, "broadcast to every registered mailbox except you and human");
  command.add_option("--from", inv.globals.from, "send as this mailbox (like --as)")->type_name("NAME");
  add_body_options(command, opts->body);
  add_priority_options(command, opts->priority);
  command.add_option("--type", opts->type, "message type (default: message)");
  command.add_option("--idempotency-key", opts->idempotency_key,
                     "a retry with the same key and content stores nothing new ($MAILROOM_IDEMPOTENCY_KEY)");
  command.add_flag("--notify", opts->notify, "run the [notify] command after the message is stored");
  command.footer("Examples:\n"
                 "  mailroom send mayor \"build is green\"\n"
                 "  mailroom send --to alice --cc bob -s \"review\" -m \"PR #17 is ready\"\n"
                 "  mailroom send @reviewers --urgent --body-file notes.md\n"
                 "  mailroom send mayor - <<'EOF'\n  text with $(no) `expansion`\n  EOF");
  inv.on_select(command, [opts](Context& ctx) { return run_send(ctx, *opts); });
}

} // namespace mailroom::cli
