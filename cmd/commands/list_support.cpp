#include "list_support.hpp"

namespace mailroom::cli {

void add_filter_options(CLI::App& command, FilterOptions& opts)
{
  const std::string group = "Filters";
  command.add_option("--from", opts.from, "only messages from this mailbox")->type_name("NAME")->group(group);
  command.add_option("--to", opts.to, "only messages to (or cc) this mailbox")
      ->type_name("NAME")
      ->group(group);
  command.add_option("--type", opts.types, "only messages of this type (repeat for several)")
      ->type_name("TYPE")
      ->group(group);
  command
      .add_option("--priority", opts.priority,
                  "only this priority: urgent, high, normal, low, backlog or 0-4")
      ->type_name("P")
      ->group(group);
  command.add_option("--since", opts.since, "only messages sent since: a duration ago (2h, 7d) or a time")
      ->type_name("DUR|TIME")
      ->group(group);
  command.add_option("--until", opts.until, "only messages sent before: a duration ago or a time")
      ->type_name("DUR|TIME")
      ->group(group);
  command.add_flag("--unread", opts.unread, "only unread messages")->group(group);
  command.add_flag("--archived", opts.archived, "only archived messages")->group(group);
  command.add_option("--thread", opts.thread, "only this thread (a thread ID or any message ID in it)")
      ->type_name("ID")
      ->group(group);
}

void add_limit_options(CLI::App& command, LimitOptions& opts)
{
  command.add_option("-n,--limit", opts.limit, "show at most N messages (default 50)")
      ->check(CLI::PositiveNumber);
  command.add_flag("--no-limit", opts.no_limit, "show every message");
}

} // namespace mailroom::cli
