// mailroom gc-mail <op> [<arg>]: the script side of Gas City's exec mail protocol over mailroom's
// store (providers/exec/script_side.hpp has the rules), so `GC_MAIL=exec:mailroom-gc-mail` gives
// `gc mail` this store. Every failure is exit 1 with one line on stderr, never 2 (app.cpp maps a
// parse error too): to gc, exit 2 means success.

#include "cli/commands.hpp"
#include "config/config.hpp"
#include "config/discovery.hpp"
#include "exec/script_side.hpp"
#include "factory.hpp"
#include "mail/limits.hpp"

namespace mailroom::cli {

namespace {

struct GcMailOptions {
  std::vector<std::string> words; // <op> [<arg>]
};

Result<ExitCode> answer(Context& ctx, const providers::exec::ScriptAnswer& answer)
{
  if (!answer.err.empty()) {
    ctx.out.err(answer.err);
  }
  if (!answer.out.empty()) {
    TRY(ctx.out.out(answer.out + "\n"));
  }
  return answer.status == 0 ? ExitCode::ok : ExitCode::none;
}

Result<ExitCode> run_gc_mail(Context& ctx, const GcMailOptions& opts)
{
  providers::exec::ScriptCall call;
  if (!opts.words.empty()) {
    call.op = opts.words.front();
    call.args.assign(opts.words.begin() + 1, opts.words.end());
  }
  // The caller as gc's newest order names it ($GC_SESSION_ID first): gc runs this script with the
  // environment it gives its own sessions, whatever this workspace's [compat] says.
  auto me = config::resolve_identity(ctx.env, ctx.config, ctx.globals.as, "--as", config::IdentityOrder::gc);
  if (!me.ok()) {
    return answer(ctx, providers::exec::script_failure(call.op, me.error()));
  }
  call.me = me->name;
  if (!providers::exec::script_op_needs_store(call.op)) {
    return answer(ctx, providers::exec::answer_script_call(nullptr, call));
  }
  if (call.op == "send" || call.op == "reply") {
    auto input = ctx.in.read_all(mail::k_max_body_bytes + mail::k_max_subject_bytes + 4096);
    if (!input.ok()) {
      return answer(ctx, providers::exec::script_failure(call.op, input.error()));
    }
    call.input = std::move(input).value();
  }
  // The store itself, even when this workspace reaches mail through an exec script (perhaps
  // this very command).
  auto configured = config::provider_settings(ctx.config);
  if (!configured.ok()) {
    return answer(ctx, providers::exec::script_failure(call.op, configured.error()));
  }
  auto settings = providers::store_settings(std::move(configured).value());
  if (!settings.ok()) {
    return answer(ctx, providers::exec::script_failure(call.op, settings.error()));
  }
  settings->store.access =
      providers::exec::script_op_writes(call.op) ? mail::Access::write : mail::Access::read;
  auto store = ctx.open_provider(*settings);
  if (!store.ok()) {
    return answer(ctx, providers::exec::script_failure(call.op, store.error()));
  }
  return answer(ctx, providers::exec::answer_script_call(store->get(), call));
}

} // namespace

void register_gc_mail(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<GcMailOptions>();
  command.add_option("words", opts->words, "<op> [<arg>]: an operation of gc's exec mail protocol");
  command.footer(
      "Gas City runs it as its mail script (docs/gas-city.md):\n"
      "  GC_MAIL=exec:mailroom-gc-mail gc mail inbox\n"
      "  echo '{\"from\":\"mayor\",\"subject\":\"\",\"body\":\"hi\"}' | mailroom gc-mail send human");
  inv.on_select(command, [opts](Context& ctx) { return run_gc_mail(ctx, *opts); });
}

} // namespace mailroom::cli
