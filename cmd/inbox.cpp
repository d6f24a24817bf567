// mailroom inbox: unread messages, urgent first, then oldest first.

#include <fmt/format.h>

#include "commands.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "support.hpp"

namespace mailroom::cli {

namespace {

struct InboxOptions {
  std::optional<std::string> mailbox;
  bool all = false;
  std::optional<std::size_t> limit;
};

Result<ExitCode> run_inbox(Context& ctx, const InboxOptions& opts)
{
  TRY_ASSIGN(mail::Mailbox mailbox, inbox_target(ctx, opts.mailbox));
  TRY_ASSIGN(mail::Provider * provider, ctx.provider_as_me());
  mail::ListOptions list;
  list.include_read = opts.all;
  list.limit = opts.limit;
  TRY_ASSIGN(std::vector<mail::Message> messages, provider->inbox(mailbox, list));
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["mailbox"] = mailbox;
    doc["messages"] = nlohmann::json::array();
    for (const auto& m : messages) {
      doc["messages"].push_back(render::message_to_json(m));
    }
    TRY(write_json(ctx, doc));
  } else if (messages.empty()) {
    TRY(write_text(ctx, fmt::format("No {}messages for {}\n", opts.all ? "" : "unread ", mailbox)));
  } else {
    std::string table = render::render_inbox_table(messages, ctx.clock.now(), opts.all);
    const auto newline = table.find('\n');
    TRY(write_text(ctx, bold(ctx, table.substr(0, newline)) + table.substr(newline)));
  }
  return ExitCode::ok;
}

} // namespace

void register_inbox(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<InboxOptions>();
  command.add_option("mailbox", opts->mailbox, "whose inbox (default: you)");
  command.add_flag("-a,--all", opts->all, "include messages already read");
  command.add_option("-n,--limit", opts->limit, "show at most N messages")->check(CLI::PositiveNumber);
  command.footer("Examples:\n  mailroom inbox\n  mailroom --as mayor inbox --all --limit 20\n  mailroom --json inbox | jq -r '.messages[].id'");
  inv.on_select(command, [opts](Context& ctx) { return run_inbox(ctx, *opts); });
}

} // namespace mailroom::cli
