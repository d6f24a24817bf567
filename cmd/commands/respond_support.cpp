#include "respond_support.hpp"

#include <memory>

#include <fmt/format.h>

#include "acting.hpp"
#include "cli/support.hpp"
#include "ops/requests.hpp"
#include "ops/send.hpp"

namespace mailroom::cli {

namespace {

Result<ExitCode> run_respond(Context& ctx, const RespondOptions& opts, mail::RequestVerb verb)
{
  TRY(require_ids(opts.positionals));
  ops::RespondRequest request;
  request.verb = verb;
  request.id = opts.positionals.front();
  request.for_name = opts.for_name;
  const std::vector<std::string> words(opts.positionals.begin() + 1, opts.positionals.end());
  if (verb == mail::RequestVerb::ask) {
    if (words.empty()) {
      return usage_error("missing question", "usage: mailroom ask <id> <question>");
    }
    request.text = join(words, " ");
  } else {
    if (!words.empty()) {
      return usage_error(
          fmt::format("{} takes one message ID; give the reason with --reason", mail::to_string(verb)),
          fmt::format("usage: mailroom {} <id> [--reason TEXT]", mail::to_string(verb)));
    }
    request.text = opts.reason.value_or("");
  }
  TRY_ASSIGN(const ops::RespondResult result, ops::respond(ctx.session, request));
  TRY(ops::after_store({result.receipt.message.id}, print_result(ctx, result)));
  return ExitCode::ok;
}

} // namespace

void register_respond(CLI::App& command, Invocation& inv, mail::RequestVerb verb)
{
  auto opts = std::make_shared<RespondOptions>();
  if (verb == mail::RequestVerb::ask) {
    command.add_option("args", opts->positionals,
                       "<id> <question>...: the request and the question to its sender");
  } else {
    command.add_option("id", opts->positionals, "the request's message ID (or a unique prefix)")
        ->type_name("<id>");
    command.add_option("--reason", opts->reason, "why, sent as the notice's body")->type_name("TEXT");
  }
  add_for_option(command, opts->for_name);
  inv.on_select(command, [opts, verb](Context& ctx) { return run_respond(ctx, *opts, verb); });
}

} // namespace mailroom::cli
