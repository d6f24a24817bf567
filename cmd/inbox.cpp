// mailroom inbox: unread messages, urgent first, then oldest first.

#include <fmt/format.h>

#include "commands.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "mail/limits.hpp"
#include "support.hpp"

namespace mailroom::cli {

namespace {

struct InboxOptions {
  std::optional<std::string> mailbox;
  bool all = false;
  std::optional<std::size_t> limit;
  bool no_limit = false;
};

Result<ExitCode> run_inbox(Context& ctx, const InboxOptions& opts)
{
  TRY_ASSIGN(mail::Mailbox mailbox, inbox_target(ctx, opts.mailbox));
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  mail::ListQuery query;
  query.mailbox = mailbox;
  query.include_read = opts.all;
  if (!opts.no_limit) {
    query.limit = opts.limit.value_or(mail::k_default_list_limit);
  }
  TRY_ASSIGN(mail::ListResult listed, provider->list(query));
  std::vector<mail::Message> messages;
  for (auto& item : listed.messages) {
    messages.push_back(std::move(item.message));
  }
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["mailbox"] = mailbox;
    doc["messages"] = nlohmann::json::array();
    for (const auto& m : messages) {
      doc["messages"].push_back(render::message_to_json(m));
    }
    doc["total"] = listed.total;
    doc["unread"] = listed.unread;
    doc["has_more"] = listed.has_more();
    TRY(write_json(ctx, doc));
  } else if (messages.empty()) {
    TRY(write_text(ctx, fmt::format("No {}messages for {}\n", opts.all ? "" : "unread ", mailbox)));
  } else {
    TRY(write_text(ctx, render::render_inbox_table(messages, ctx.clock.now(), opts.all, ctx.style())));
    if (listed.has_more()) {
      TRY(write_text(ctx, fmt::format("Showing {} of {}; --limit to see more\n", messages.size(), listed.total)));
    }
  }
  return ExitCode::ok;
}

} // namespace

void register_inbox(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<InboxOptions>();
  command.add_option("mailbox", opts->mailbox, "whose inbox (default: you)");
  command.add_flag("-a,--all", opts->all, "include messages already read");
  command.add_option("-n,--limit", opts->limit, "show at most N messages (default 50)")->check(CLI::PositiveNumber);
  command.add_flag("--no-limit", opts->no_limit, "show every message");
  command.footer("Examples:\n  mailroom inbox\n  mailroom --as mayor inbox --all --limit 20\n  mailroom --json inbox | jq -r '.messages[].id'");
  inv.on_select(command, [opts](Context& ctx) { return run_inbox(ctx, *opts); });
}

} // namespace mailroom::cli
