// mailroom count: total and unread, with inbox's rules.

#include <fmt/format.h>

#include "commands.hpp"
#include "render/json.hpp"
#include "support.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

struct CountOptions {
  std::optional<std::string> mailbox;
};

Result<ExitCode> run_count(Context& ctx, const CountOptions& opts)
{
  TRY_ASSIGN(mail::Mailbox mailbox, inbox_target(ctx, opts.mailbox));
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  TRY_ASSIGN(mail::Counts counts, provider->count(mailbox));
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["mailbox"] = mailbox;
    doc["total"] = counts.total;
    doc["unread"] = counts.unread;
    TRY(write_json(ctx, doc));
  } else {
    TRY(write_text(ctx, text::DisplayText::format("{} total, {} unread for {}\n", counts.total, counts.unread,
                                                  text::sanitize_line(mailbox))));
  }
  return ExitCode::ok;
}

} // namespace

void register_count(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<CountOptions>();
  command.add_option("mailbox", opts->mailbox, "whose mail (default: you)");
  command.footer("Examples:\n  mailroom count\n  mailroom --json count mayor | jq .unread");
  inv.on_select(command, [opts](Context& ctx) { return run_count(ctx, *opts); });
}

} // namespace mailroom::cli
