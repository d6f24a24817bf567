// mailroom inbox: unread messages, urgent first, then oldest first (ops/inbox.hpp).

#include "ops/inbox.hpp"
#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "list_support.hpp"

namespace mailroom::cli {

void register_inbox(CLI::App& command, Invocation& inv)
{
  auto request = std::make_shared<ops::InboxRequest>();
  command.add_option("mailbox", request->mailbox, "whose inbox (default: you)");
  command.add_flag("-a,--all", request->all, "include messages already read");
  command.add_flag(
      "--awaiting", request->awaiting,
      "only what awaits your reply or ack (a request submitted or working, an ack due), read or not");
  add_limit_options(command, request->limit);
  add_filter_options(command, request->filters);
  command.footer("Examples:\n  mailroom inbox\n  mailroom --as mayor inbox --all --limit 20\n"
                 "  mailroom inbox --from mayor --since 2h\n  mailroom inbox --awaiting\n  mailroom --json "
                 "inbox | jq -r '.messages[].id'");
  inv.on_select(command, [request](Context& ctx) -> Result<ExitCode> {
    request->previews = !ctx.json; // the table shows one line of each body
    TRY_ASSIGN(const ops::InboxResult result, ops::inbox(ctx.session, *request));
    TRY(print_result(ctx, result));
    return ExitCode::ok;
  });
}

} // namespace mailroom::cli
