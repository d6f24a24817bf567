// mailroom wait: block until the caller has a matching unread message (or a reply to an id), then
// print it as peek does; no busy polling (mail/waiting.hpp, beads/signal.hpp).

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "ops/wait.hpp"
#include "util/interrupt.hpp"
#include "wait_support.hpp"

namespace mailroom::cli {

namespace {

struct WaitOptions {
  std::optional<std::string> timeout;
  std::vector<std::string> types;
  std::optional<std::string> from;
  std::optional<std::string> thread;
  std::optional<std::string> reply_to;
  std::optional<std::string> since;
  std::optional<std::string> after;
  bool read = false;
};

Result<ExitCode> run_wait(Context& ctx, const WaitOptions& opts)
{
  ops::WaitRequest request;
  TRY_ASSIGN(request.deadline, deadline_from(opts.timeout, "--timeout"));
  request.types = opts.types;
  request.from = opts.from;
  request.thread = opts.thread;
  request.reply_to = opts.reply_to;
  request.since = opts.since;
  request.after = opts.after;
  request.read = opts.read;
  TRY_ASSIGN(std::unique_ptr<util::InterruptWatch> watch, util::InterruptWatch::install());
  const util::InterruptWatch& interrupt = *watch;
  request.interrupt_fd = interrupt.fd();
  const ops::WaitDeliver deliver = [&ctx](const ops::WaitResult& found) { return print_result(ctx, found); };
  TRY_ASSIGN(const ops::WaitResult result, ops::wait(ctx.session, request, deliver));
  if (result.outcome.end == mail::WaitEnd::interrupted) {
    return interrupted_exit(interrupt.received());
  }
  if (result.outcome.end != mail::WaitEnd::found) {
    // Timed out, or the request ended without a reply (at once, not at the timeout): exit 1.
    const bool timed_out = result.outcome.end == mail::WaitEnd::timed_out;
    if (ctx.json) {
      TRY(write_json(ctx, ops::to_json(result)));
    } else if (const auto ended = ops::request_end_error(result, false)) {
      TRY(write_text(ctx, ops::to_text(result, ctx.style()))); // the notice that answered it, if any
      report_error(ctx.out, ctx.command, *ended, false);
    }
    if (timed_out && !ctx.json) {
      // One stderr line says so (contract Round 4, "Surfaces"); the JSON says "timed_out": true.
      ctx.out.err(fmt::format("mailroom {}: timed out after {}\n", ctx.command, opts.timeout.value_or("0s")));
    }
    return ExitCode::none;
  }
  return ExitCode::ok; // written when found
}

} // namespace

void register_wait(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<WaitOptions>();
  command
      .add_option("--timeout", opts->timeout,
                  "give up after this long (exit 1); default: wait until interrupted")
      ->type_name("DUR");
  command.add_option("--type", opts->types, "only messages of this type (repeatable)")
      ->type_name("TYPE")
      ->allow_extra_args(false);
  command.add_option("--from", opts->from, "only messages from this mailbox")->type_name("NAME");
  command.add_option("--thread", opts->thread, "only messages in this thread (a thread or message ID)")
      ->type_name("ID");
  command.add_option("--reply-to", opts->reply_to, "a reply to this message, even one already read")
      ->type_name("ID");
  command.add_option("--since", opts->since, "only messages sent since: a duration ago (2h, 7d) or a time")
      ->type_name("TIME|DUR");
  command
      .add_option("--after", opts->after,
                  "only messages that arrived after this one, oldest first (a loop-safe cursor)")
      ->type_name("ID");
  command.add_flag("--read", opts->read,
                   "take the message: mark it read, unless another waiter took it first (then wait on)");
  command.footer(
      "Exit status: 0 found, 1 timed out (or, with --reply-to, no reply will come: the request was\n"
      "set aside, escalated or expired), 130/143 interrupted.\n"
      "Examples:\n"
      "  mailroom wait --timeout 10m --type task_request --read\n"
      "  mailroom wait --reply-to mr-a1b2c3 --timeout 60s\n"
      "  while mailroom --json wait --read > msg.json; do handle msg.json; done\n"
      "  id=$(mailroom --json wait --after \"$id\" | jq -r .message.id)");
  inv.on_select(command, [opts](Context& ctx) { return run_wait(ctx, *opts); });
}

} // namespace mailroom::cli
