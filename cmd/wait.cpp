// mailroom wait: block until the caller has a matching unread message (or a reply to an id), then
// print it as peek does; no busy polling (mail/waiting.hpp, beads/signal.hpp).

#include <fmt/format.h>

#include "commands.hpp"
#include "list_support.hpp"
#include "mail/duration.hpp"
#include "render/json.hpp"
#include "support.hpp"
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

// --after ID: the cursor of that message (it must exist). Errors: not_found, ambiguous_id.
Result<mail::WaitQuery::Cursor> cursor_of(Context& ctx, mail::Provider& provider, const std::string& typed)
{
  TRY_ASSIGN(const mail::MessageId id, provider.resolve_id(typed));
  TRY_ASSIGN(const mail::Message message, provider.get(ctx.me.name, id));
  return mail::WaitQuery::Cursor{message.created_at, message.id};
}

Result<ExitCode> run_wait(Context& ctx, const WaitOptions& opts)
{
  TRY_ASSIGN(const auto deadline, deadline_from(opts.timeout, "--timeout"));
  mail::WaitQuery query;
  query.mailbox = ctx.me.name;
  TRY_ASSIGN(query.types, resolve_types(ctx, opts.types));
  TRY_ASSIGN(query.from, mailbox_flag(opts.from, "--from"));
  if (opts.since) {
    TRY_ASSIGN(query.since, mail::parse_time_or_age(*opts.since, ctx.clock.now(), "--since"));
  }
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  if (opts.thread) {
    TRY_ASSIGN(query.thread, resolve_thread(ctx, *provider, *opts.thread));
  }
  if (opts.reply_to) {
    TRY_ASSIGN(query.reply_to, provider->resolve_id(*opts.reply_to));
  }
  if (opts.after) {
    TRY_ASSIGN(query.after, cursor_of(ctx, *provider, *opts.after));
  }
  TRY_ASSIGN(std::unique_ptr<util::InterruptWatch> watch, util::InterruptWatch::install());
  const util::InterruptWatch& interrupt = *watch;
  const bool reply_to = query.reply_to.has_value();
  mail::WaitSettings settings = wait_settings(ctx);
  // --read takes a message once: of several waiters one gets it, the others wait on. A reply
  // (--reply-to) is returned whether or not another marked it read.
  const bool take = opts.read && !reply_to;
  if (take) {
    settings.take = [&](const mail::Message& found) {
      const mail::WaitOutcome taken{mail::WaitEnd::found, found, found};
      return take_found(ctx, *provider, found.id, wait_result_keys(taken, false, true));
    };
  }
  TRY_ASSIGN(const mail::WaitOutcome outcome,
             mail::wait_for(*provider, query, deadline, interrupt.fd(), settings));
  if (outcome.end == mail::WaitEnd::interrupted) {
    return interrupted_exit(interrupt.received());
  }
  if (outcome.end != mail::WaitEnd::found) {
    // Timed out, or the request ended without a reply (at once, not at the timeout): exit 1.
    if (ctx.json) {
      nlohmann::json doc = render::json_document();
      doc["message"] = nullptr;
      doc.update(wait_result_keys(outcome, reply_to));
      TRY(write_json(ctx, doc));
    } else if (query.reply_to) {
      report_request_end(ctx, outcome, *query.reply_to, false);
    }
    return ExitCode::none;
  }
  if (take) {
    return ExitCode::ok; // written when taken
  }
  const nlohmann::json extra = wait_result_keys(outcome, reply_to, opts.read);
  if (opts.read) {
    TRY(read_found(ctx, *provider, outcome.message->id, extra));
  } else {
    TRY(print_found(ctx, *outcome.message, extra));
  }
  return ExitCode::ok;
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
