// mailroom sent: what I sent, newest first, each with its recipients' state ("2/3 read, 1 awaiting ack").

#include <fmt/format.h>

#include "commands.hpp"
#include "list_support.hpp"
#include "render/lists.hpp"
#include "support.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

struct SentOptions {
  std::optional<std::string> mailbox;
  LimitOptions limit;
  FilterOptions filters;
};

Result<ExitCode> run_sent(Context& ctx, const SentOptions& opts)
{
  TRY_ASSIGN(mail::Mailbox mailbox, inbox_target(ctx, opts.mailbox));
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  mail::ListQuery query;
  query.mailbox = mailbox;
  query.box = mail::Box::sent;
  query.limit = list_limit(opts.limit);
  query.body_bytes = list_body_bytes(ctx);
  TRY_ASSIGN(query.filters, resolve_filters(ctx, *provider, opts.filters));
  TRY_ASSIGN(mail::ListResult listed, provider->list(query));
  if (ctx.json) {
    TRY(write_json(ctx, list_to_json(mailbox, listed)));
    return ExitCode::ok;
  }
  if (listed.messages.empty()) {
    TRY(write_text(ctx,
                   text::DisplayText::format("No sent messages for {}{}\n", text::sanitize_line(mailbox),
                                             query.filters.any() ? text::DisplayText(" match the filters")
                                                                 : text::DisplayText())));
    return ExitCode::ok;
  }
  TRY(write_text(ctx, render::render_sent_table(listed.messages, ctx.clock.now(), ctx.style())));
  TRY(write_text(ctx, showing_line(listed)));
  return ExitCode::ok;
}

} // namespace

void register_sent(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<SentOptions>();
  command.add_option("mailbox", opts->mailbox, "whose sent mail (default: you)");
  add_limit_options(command, opts->limit);
  add_filter_options(command, opts->filters);
  command.footer("Examples:\n  mailroom sent\n  mailroom sent --unread --since 1d\n"
                 "  mailroom --json sent | jq '.messages[] | {id, summary}'");
  inv.on_select(command, [opts](Context& ctx) { return run_sent(ctx, *opts); });
}

} // namespace mailroom::cli
