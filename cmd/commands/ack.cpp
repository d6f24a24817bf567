// mailroom ack: acknowledge messages explicitly, tracked or not (contract "Acknowledgement and
// delivery health"). Acking is not reading. --for and [compat] gc as for every per-recipient
// action (acting.hpp); several ids as every multi-id action (change.hpp).

#include "acting.hpp"
#include "change.hpp"
#include "cli/commands.hpp"

namespace mailroom::cli {

namespace {

struct AckOptions {
  std::vector<std::string> ids;
  std::optional<std::string> for_name; // --for
};

Result<ExitCode> run_ack(Context& ctx, const AckOptions& opts)
{
  return run_change(ctx, opts.ids, mail::Change::ack, {"Acked {}", "Already acked {}"}, opts.for_name);
}

} // namespace

void register_ack(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<AckOptions>();
  command.add_option("ids", opts->ids, "message IDs (or unique prefixes)")->type_name("<id>");
  add_for_option(command, opts->for_name);
  command.footer("Acking is not reading: the message stays in the inbox until read or archived.\n"
                 "Examples:\n  mailroom ack mr-a1b2c3\n  mailroom ack --for worker-3 mr-a1b2c3 mr-d4e5f6");
  inv.on_select(command, [opts](Context& ctx) { return run_ack(ctx, *opts); });
}

} // namespace mailroom::cli
