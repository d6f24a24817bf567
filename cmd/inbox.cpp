// mailroom inbox: unread messages, urgent first, then oldest first.

#include <fmt/format.h>

#include "commands.hpp"
#include "list_support.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "support.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

struct InboxOptions {
  std::optional<std::string> mailbox;
  bool all = false;
  LimitOptions limit;
  FilterOptions filters;
};

// What an empty inbox says: the contract's line without filters.
text::DisplayText nothing_line(const InboxOptions& opts, const mail::Filters& filters,
                               const mail::Mailbox& mailbox)
{
  const text::DisplayText name = text::sanitize_line(mailbox);
  if (filters.any()) {
    return text::DisplayText::format("No {}messages for {} match the filters\n",
                                     filters.archived ? text::DisplayText("archived ") : text::DisplayText(),
                                     name);
  }
  return text::DisplayText::format("No {}messages for {}\n",
                                   opts.all ? text::DisplayText() : text::DisplayText("unread "), name);
}

Result<ExitCode> run_inbox(Context& ctx, const InboxOptions& opts)
{
  TRY_ASSIGN(mail::Mailbox mailbox, inbox_target(ctx, opts.mailbox));
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  mail::ListQuery query;
  query.mailbox = mailbox;
  query.include_read = opts.all;
  query.limit = list_limit(opts.limit);
  query.body_bytes = list_body_bytes(ctx);
  TRY_ASSIGN(query.filters, resolve_filters(ctx, *provider, opts.filters));
  TRY_ASSIGN(mail::ListResult listed, provider->list(query));
  if (ctx.json) {
    nlohmann::json doc = list_to_json(mailbox, listed);
    doc["unread"] = listed.unread;
    TRY(write_json(ctx, doc));
    return ExitCode::ok;
  }
  if (listed.messages.empty()) {
    TRY(write_text(ctx, nothing_line(opts, query.filters, mailbox)));
    return ExitCode::ok;
  }
  std::vector<mail::Message> messages;
  for (auto& item : listed.messages) {
    messages.push_back(std::move(item.message));
  }
  TRY(write_text(ctx, render::render_inbox_table(messages, ctx.clock.now(), opts.all || opts.filters.archived, ctx.style())));
  TRY(write_text(ctx, showing_line(listed)));
  return ExitCode::ok;
}

} // namespace

void register_inbox(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<InboxOptions>();
  command.add_option("mailbox", opts->mailbox, "whose inbox (default: you)");
  command.add_flag("-a,--all", opts->all, "include messages already read");
  add_limit_options(command, opts->limit);
  add_filter_options(command, opts->filters);
  command.footer("Examples:\n  mailroom inbox\n  mailroom --as mayor inbox --all --limit 20\n"
                 "  mailroom inbox --from mayor --since 2h\n  mailroom --json inbox | jq -r '.messages[].id'");
  inv.on_select(command, [opts](Context& ctx) { return run_inbox(ctx, *opts); });
}

} // namespace mailroom::cli
