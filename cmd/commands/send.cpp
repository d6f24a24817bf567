// mailroom send: the Gas City argument rules, recipients checked before anything is stored.

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "compose.hpp"
#include "misroute.hpp"
#include "ops/notify.hpp"
#include "ops/schedules.hpp"
#include "ops/send_wait.hpp"
#include "ops/wait.hpp"
#include "send_support.hpp"
#include "util/interrupt.hpp"
#include "wait_support.hpp"
#include "wake_start.hpp"

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
  ops::Sending sending; // --priority, --urgent, --type, --ack, --idempotency-key, --ttl
  bool notify = false;
  bool wake = false; // --wake: wake recipients with a target even when not urgent ([wake] on "notify")
  std::optional<std::string> trace;
  bool wait_reply = false;
  std::optional<std::string> timeout;
  std::optional<std::string> dedup;     // --dedup KEY
  std::optional<std::string> supersede; // --supersede KEY
  std::optional<std::string> at;        // --at TIME / --in DUR: a one-shot schedule instead of a send
  std::optional<std::string> in;
  std::optional<std::string> tz;
};

struct Content {
  std::vector<std::string> recipients;
  std::optional<std::string> subject; // nullopt: derived from the body by the store's rules
  std::string body;
  bool subject_argument = false; // `send A B BODY`: B was taken as the subject
};

// Every recipient as written: --to, the positional one, --all; and --cc.
std::vector<std::string> to_addresses(const SendOptions& opts, const std::vector<std::string>& positional)
{
  std::vector<std::string> to = opts.to;
  to.insert(to.end(), positional.begin(), positional.end());
  if (opts.all) {
    to.emplace_back("@all");
  }
  return to;
}

// Splits the positionals into recipient, subject and body following the contract's send rules;
// with neither subject nor body, takes the body from piped stdin or the editor (recipients and
// identity checked before it opens).
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
    content.subject_argument = !explicit_recipients;
  } else if (rest.size() == 1) {
    if (body) {
      return usage_error("a body argument cannot be combined with -m", std::string(k_send_usage));
    }
    body = rest[0];
  }
  TRY_ASSIGN(std::optional<std::string> read, read_body(ctx, opts.body, body));
  const bool has_subject = subject && !subject->empty();
  if (!read && has_subject) {
    TRY(refuse_unread_stdin(ctx)); // -s alone is complete, but never drops a piped body
  }
  if (!read && !has_subject) {
    // Neither subject nor body: piped stdin, or the editor at a terminal (contract "Bodies").
    const std::string to = content.recipients.empty() ? join(opts.to) : join(content.recipients);
    const auto check = [&]() {
      return check_recipients(ctx, to_addresses(opts, content.recipients), opts.cc);
    };
    TRY_ASSIGN(std::optional<Draft> draft,
               implicit_body(ctx, fmt::format("to {}", to.empty() ? std::string("everyone") : to),
                             subject.has_value(), check));
    if (draft) {
      read = std::move(draft->body);
      if (draft->subject) {
        subject = std::move(draft->subject);
      }
    }
  }
  if (!read && !(subject && !subject->empty())) {
    return usage_error(std::string(k_send_usage)); // nothing given at all: gc's usage line
  }
  // A body given but empty, with no subject, is the operation's to refuse (ops::send).
  content.body = read.value_or("");
  if (subject && !subject->empty()) {
    content.subject = subject;
  }
  return content;
}

// send --wait-reply (ops::send_and_wait): once the message is stored, says on stderr that it waits
// and runs [notify]; the first reply is printed as read prints it and marked read. Timed out or
// interrupted, the message stays sent and its id is on stderr.
Result<ExitCode> send_waiting(Context& ctx, const SendOptions& opts, ops::SendRequest request,
                              std::optional<std::chrono::steady_clock::time_point> deadline)
{
  TRY_ASSIGN(std::unique_ptr<util::InterruptWatch> watch, util::InterruptWatch::install());
  const util::InterruptWatch& interrupt = *watch;
  // A server that is down when the command starts is waited for within --timeout, as the wait
  // for the reply rides it out (nothing is sent before it is up).
  const ops::SendWaitRequest asked{std::move(request), deadline, interrupt.fd(), true};
  const ops::SentHook sent = [&](const ops::SendResult& result) {
    const std::vector<mail::SendReceipt>& receipts = result.receipts;
    if (!ctx.json && !receipts.empty() && receipts.front().stored()) {
      ctx.out.err(
          fmt::format("Sent message {} to {}; waiting for a reply\n", receipts.front().message.id,
                      ops::recipients_summary(receipts.front().message, receipts.front().recipients)));
    }
    start_wakes(ctx, receipts);
    if (opts.notify) {
      for (const auto& receipt : receipts) {
        ops::notify_recipients(ctx.session, receipt);
      }
    }
  };
  const ops::SendWaitDeliver deliver = [&](const ops::SendResult& result,
                                           const ops::WaitResult& found) -> Result<void> {
    if (ctx.json) {
      return write_json(ctx, ops::to_json(result, found));
    }
    return write_text(ctx, ops::to_text(found, ctx.style()));
  };
  TRY_ASSIGN(const ops::SendWaitResult result, ops::send_and_wait(ctx.session, asked, sent, deliver));
  if (result.interrupted) {
    return interrupted_exit(interrupt.received());
  }
  if (!result.waited) {
    TRY(print_result(ctx, result.sent)); // nothing stored to wait on: what the send did
    return ExitCode::ok;
  }
  const ops::WaitResult& waited = *result.waited;
  const mail::WaitEnd end = waited.outcome.end;
  if (end == mail::WaitEnd::found) {
    return ExitCode::ok;
  }
  const bool timed_out = end == mail::WaitEnd::timed_out;
  const bool ended = !timed_out && end != mail::WaitEnd::interrupted;
  const mail::MessageId& id = result.sent.receipts.front().message.id;
  if (ctx.json) {
    TRY(write_json(ctx, ops::to_json(result.sent, waited)));
  } else if (ended) {
    TRY(write_text(ctx, ops::to_text(waited, ctx.style()))); // the notice that answered it, if any
    report_error(ctx.out, ctx.command, *ops::request_end_error(waited, true), false);
  } else {
    report_error(ctx.out, ctx.command,
                 make_error(ErrorCode::timeout,
                            fmt::format("{} waiting for a reply to {}; the message stays sent",
                                        timed_out ? "timed out" : "interrupted", id),
                            fmt::format("pick the reply up later with: mailroom wait --reply-to {}", id)),
                 false);
  }
  return timed_out || ended ? ExitCode::none : interrupted_exit(interrupt.received());
}

Result<ExitCode> run_send(Context& ctx, const SendOptions& opts)
{
  if (opts.timeout && !opts.wait_reply) {
    return usage_error("--timeout needs --wait-reply");
  }
  if (opts.wait_reply && (opts.at || opts.in)) {
    return usage_error("--wait-reply cannot wait for a message sent later (--at, --in)",
                       "wait for its reply once it fired: mailroom wait --reply-to <id>");
  }
  if (opts.tz && !opts.at && !opts.in) {
    return usage_error("--tz needs --at");
  }
  TRY_ASSIGN(const auto deadline, deadline_from(opts.timeout, "--timeout"));
  TRY_ASSIGN(Content content, parse_content(ctx, opts));
  ops::SendRequest request;
  request.subject = std::move(content.subject);
  request.body = std::move(content.body);
  request.sending = opts.sending;
  request.sending.wake = opts.notify || opts.wake;
  request.to = to_addresses(opts, content.recipients);
  request.cc = opts.cc;
  request.trace = opts.trace;
  if (content.subject_argument) {
    request.subject_argument_of = content.recipients.front();
  }
  request.usage = std::string(k_send_usage);
  request.dedup = opts.dedup;
  request.supersede = opts.supersede;
  if (opts.at || opts.in) {
    TRY_ASSIGN(
        const ops::SendLaterResult later,
        ops::send_later(ctx.session, ops::SendLaterRequest{request, opts.at, opts.in, opts.tz, opts.notify}));
    TRY(print_result(ctx, later));
    return ExitCode::ok;
  }
  if (opts.wait_reply) {
    return send_waiting(ctx, opts, std::move(request), deadline);
  }
  TRY_ASSIGN(const ops::SendResult result, ops::send(ctx.session, request));
  TRY(ops::after_store(ops::ids_of(result.receipts), print_result(ctx, result)));
  // After the `Sent message` line: a wake runs in a child of its own and never slows the send.
  start_wakes(ctx, result.receipts);
  if (opts.notify) {
    for (const auto& receipt : result.receipts) {
      ops::notify_recipients(ctx.session, receipt);
    }
  }
  return ExitCode::ok;
}

} // namespace

void register_send(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<SendOptions>();
  command.add_option("args", opts->positionals,
                     "<to> [<body>] or <to> <subject> <body>; a body of - reads stdin");
  command.add_option("-s,--subject", opts->subject, "the subject (default: the body's first line)");
  command.add_option("-m,--message", opts->message, "the body");
  command.add_option("--to", opts->to, "a recipient (repeatable)")
      ->type_name("ADDR")
      ->allow_extra_args(false);
  command.add_option("--cc", opts->cc, "a copy recipient (repeatable)")
      ->type_name("ADDR")
      ->allow_extra_args(false);
  command.add_flag("--all", opts->all, "broadcast to every registered mailbox except you and human");
  command.add_option("--from", inv.globals.from, "send as this mailbox (like --as)")->type_name("NAME");
  add_body_options(command, opts->body);
  add_priority_options(command, opts->sending);
  command.add_option("--type", opts->sending.type, "message type (default: message)")->type_name("TYPE");
  command.add_option("--idempotency-key", opts->sending.idempotency_key,
                     "a retry with the same key and content stores nothing new ($MAILROOM_IDEMPOTENCY_KEY)");
  command.add_flag("--notify", opts->notify, "run the [notify] command after the message is stored");
  command.add_flag("--wake", opts->wake,
                   "wake recipients that have a wake target even when the message is not urgent ([wake] on)");
  command.add_option("--ttl", opts->sending.ttl, "the message expires this long after it is sent (e.g. 30m)")
      ->type_name("DUR");
  command
      .add_option("--trace", opts->trace,
                  "join this trace as a child: a traceparent, or a message id (default: $TRACEPARENT)")
      ->type_name("PARENT");
  command.add_flag("--wait-reply", opts->wait_reply,
                   "after sending, wait for the first reply, print it as read does and mark it read");
  command.add_option("--timeout", opts->timeout, "with --wait-reply: give up after this long (exit 1)")
      ->type_name("DUR");
  command.add_option("--at", opts->at, "send it later, at TIME (RFC 3339, YYYY-MM-DD HH:MM or HH:MM)")
      ->type_name("TIME");
  command.add_option("--in", opts->in, "send it later, in DUR (e.g. 90m)")->type_name("DUR");
  command.add_option("--tz", opts->tz, "the zone of --at's TIME (an IANA name; default [schedule] timezone)")
      ->type_name("ZONE");
  command.add_flag("--ack", opts->sending.ack,
                   "track its deliveries until each recipient replies or acks ([delivery] ack)");
  command
      .add_option("--dedup", opts->dedup,
                  "skip each recipient that still has an unarchived message of yours with this key")
      ->type_name("KEY");
  command
      .add_option("--supersede", opts->supersede,
                  "archive each recipient's earlier unread messages of yours with this key")
      ->type_name("KEY");
  command.footer("Examples:\n"
                 "  mailroom send mayor \"build is green\"\n"
                 "  mailroom send --to alice --cc bob -s \"review\" -m \"PR #17 is ready\"\n"
                 "  mailroom send @reviewers --urgent --body-file notes.md\n"
                 "  mailroom send worker --type task_request --wait-reply --timeout 5m \"run the tests\"\n"
                 "  mailroom send mayor --dedup disk-full \"disk 95% full on build-1\"\n"
                 "  mailroom send bob --at 09:00 --tz Europe/Berlin \"standup in 15 minutes\"\n"
                 "  mailroom send mayor - <<'EOF'\n  text with $(no) `expansion`\n  EOF");
  inv.on_select(command, [opts](Context& ctx) { return run_send(ctx, *opts); });
}

} // namespace mailroom::cli
