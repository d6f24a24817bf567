// mailroom count: total and unread, with inbox's rules (ops/count.hpp).

#include "ops/count.hpp"
#include "cli/commands.hpp"
#include "cli/support.hpp"

namespace mailroom::cli {

void register_count(CLI::App& command, Invocation& inv)
{
  auto request = std::make_shared<ops::CountRequest>();
  command.add_option("mailbox", request->mailbox, "whose mail (default: you)");
  command.footer("Examples:\n  mailroom count\n  mailroom --json count mayor | jq .unread");
  inv.on_select(command, [request](Context& ctx) -> Result<ExitCode> {
    TRY_ASSIGN(const ops::CountResult result, ops::count(ctx.session, *request));
    TRY(print_result(ctx, result));
    return ExitCode::ok;
  });
}

} // namespace mailroom::cli
