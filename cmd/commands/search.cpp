// mailroom search: full-text search over the mail the caller sent or received, best match first
// (ops/search.hpp; the query language is in mail/search_query.hpp).

#include "ops/search.hpp"
#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "list_support.hpp"

namespace mailroom::cli {

void register_search(CLI::App& command, Invocation& inv)
{
  auto request = std::make_shared<ops::SearchRequest>();
  command.add_option("query", request->words, "words (all must match), \"a phrase\", prefix*, OR, NOT");
  command
      .add_option("--mailbox", request->mailbox,
                  "search another mailbox's mail (default: you; '*': every mailbox's)")
      ->type_name("NAME");
  add_limit_options(command, request->limit);
  add_filter_options(command, request->filters);
  command.footer(
      "Examples:\n  mailroom search deploy failed\n  mailroom search '\"build failed\" OR timeout*'\n"
      "  mailroom search 'release NOT staging' --from mayor --since 7d");
  inv.on_select(command, [request](Context& ctx) -> Result<ExitCode> {
    request->previews = !ctx.json; // the table shows one line of each body
    TRY_ASSIGN(const ops::SearchResult result, ops::search(ctx.session, *request));
    TRY(print_result(ctx, result));
    return ExitCode::ok;
  });
}

} // namespace mailroom::cli
