// mailroom cancel: the sender withdraws a request; every open delivery (or --to NAME's) becomes
// canceled, leaves every unread view, and its recipients get one `canceled` notice (contract "The
// life of a request").

#include <memory>

#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "ops/requests.hpp"
#include "ops/send.hpp"

namespace mailroom::cli {

namespace {

struct CancelOptions {
  std::vector<std::string> ids;
  std::optional<std::string> reason;
  std::optional<std::string> to;
  std::optional<std::string> for_name;
};

Result<ExitCode> run_cancel(Context& ctx, const CancelOptions& opts)
{
  TRY(require_ids(opts.ids));
  if (opts.ids.size() > 1) {
    return usage_error("cancel takes one message ID; give the reason with --reason",
                       "usage: mailroom cancel <id> [--reason TEXT] [--to NAME]");
  }
  ops::CancelRequest request;
  request.id = opts.ids.front();
  request.reason = opts.reason.value_or("");
  request.to = opts.to;
  request.for_name = opts.for_name;
  TRY_ASSIGN(const ops::CancelResult result, ops::cancel(ctx.session, request));
  std::vector<mail::MessageId> stored;
  if (result.outcome.notice) {
    stored.push_back(*result.outcome.notice);
  }
  TRY(ops::after_store(stored, print_result(ctx, result)));
  return ExitCode::ok;
}

} // namespace

void register_cancel(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<CancelOptions>();
  command.add_option("id", opts->ids, "the request's message ID (or a unique prefix)")->type_name("<id>");
  command.add_option("--reason", opts->reason, "why, sent as the canceled notice's body")->type_name("TEXT");
  command.add_option("--to", opts->to, "withdraw only NAME's delivery")->type_name("NAME");
  command.add_option("--for", opts->for_name, "act as the sender NAME (an operator)")->type_name("NAME");
  command.footer("Deliveries that already ended (completed, failed, rejected, canceled, expired) are left as "
                 "they are.\nExamples:\n  mailroom cancel mr-a1b2c3 --reason \"no longer needed\"\n"
                 "  mailroom cancel mr-a1b2c3 --to worker-2\n  mailroom cancel --for lead mr-a1b2c3");
  inv.on_select(command, [opts](Context& ctx) { return run_cancel(ctx, *opts); });
}

} // namespace mailroom::cli
