// mailroom wait: block until the caller has a matching unread message (or a reply to an id), then
// print it as peek does; no busy polling (mail/waiting.hpp, beads/signal.hpp).

#include <fmt/format.h>

#include "commands.hpp"
#include "list_support.hpp"
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
  bool read = false;
};

Result<ExitCode> run_wait(Context& ctx, const WaitOptions& opts)
{
  TRY_ASSIGN(const auto deadline, deadline_from(opts.timeout, "--timeout"));
  mail::WaitQuery query;
  query.mailbox = ctx.me.name;
  TRY_ASSIGN(query.types, resolve_types(ctx, opts.types));
  TRY_ASSIGN(query.from, mailbox_flag(opts.from, "--from"));
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  if (opts.thread) {
    TRY_ASSIGN(query.thread, resolve_thread(ctx, *provider, *opts.thread));
  }
  if (opts.reply_to) {
    TRY_ASSIGN(query.reply_to, provider->resolve_id(*opts.reply_to));
  }
  TRY_ASSIGN(std::unique_ptr<util::InterruptWatch> watch, util::InterruptWatch::install());
  const util::InterruptWatch& interrupt = *watch;
  TRY_ASSIGN(const mail::WaitOutcome outcome, mail::wait_for(*provider, query, deadline, interrupt.fd()));
  switch (outcome.end) {
  case mail::WaitEnd::interrupted:
    return interrupted_exit(interrupt.received());
  case mail::WaitEnd::timed_out:
    if (ctx.json) {
      nlohmann::json doc = render::json_document();
      doc["message"] = nullptr;
      doc["timed_out"] = true;
      TRY(write_json(ctx, doc));
    }
    return ExitCode::none;
  case mail::WaitEnd::found:
    break;
  }
  const nlohmann::json extra = {{"timed_out", false}};
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
  command.add_option("--timeout", opts->timeout, "give up after this long (exit 1); default: wait until interrupted")
      ->type_name("DUR");
  command.add_option("--type", opts->types, "only messages of this type (repeatable)")
      ->type_name("TYPE")
      ->allow_extra_args(false);
  command.add_option("--from", opts->from, "only messages from this mailbox")->type_name("NAME");
  command.add_option("--thread", opts->thread, "only messages in this thread (a thread or message ID)")
      ->type_name("ID");
  command.add_option("--reply-to", opts->reply_to, "a reply to this message, even one already read")
      ->type_name("ID");
  command.add_flag("--read", opts->read, "mark the message read (without it, wait changes nothing)");
  command.footer("Exit status: 0 found, 1 timed out, 130/143 interrupted.\n"
                 "Examples:\n"
                 "  mailroom wait --timeout 10m --type task_request --read\n"
                 "  mailroom wait --reply-to mr-a1b2c3 --timeout 60s\n"
                 "  while mailroom --json wait --read > msg.json; do handle msg.json; done");
  inv.on_select(command, [opts](Context& ctx) { return run_wait(ctx, *opts); });
}

} // namespace mailroom::cli
