// mailroom sent: what I sent, newest first, each with its recipients' state ("2/3 read, 1 awaiting
// ack"; ops/sent.hpp).

#include "ops/sent.hpp"
#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "list_support.hpp"

namespace mailroom::cli {

void register_sent(CLI::App& command, Invocation& inv)
{
  auto request = std::make_shared<ops::SentRequest>();
  command.add_option("mailbox", request->mailbox, "whose sent mail (default: you)");
  add_limit_options(command, request->limit);
  add_filter_options(command, request->filters);
  command.footer("Examples:\n  mailroom sent\n  mailroom sent --unread --since 1d\n"
                 "  mailroom --json sent | jq '.messages[] | {id, summary}'");
  inv.on_select(command, [request](Context& ctx) -> Result<ExitCode> {
    request->previews = !ctx.json; // the table shows one line of each body
    TRY_ASSIGN(const ops::SentResult result, ops::sent(ctx.session, *request));
    TRY(print_result(ctx, result));
    return ExitCode::ok;
  });
}

} // namespace mailroom::cli
