// mailroom check: the hook predicate (exit 0 mail, 1 none, 5 failure), --inject hook mode and the
// coding-agent hook formats (--hook-format claude|codex|gemini, which implies --inject).

#include <fmt/format.h>
#include <unistd.h>

#include "cli/commands.hpp"
#include "cli/hook_deadline.hpp"
#include "cli/support.hpp"
#include "hooks/agent.hpp"
#include "hooks/budget.hpp"
#include "hooks/output.hpp"
#include "hooks/payload.hpp"
#include "ops/check.hpp"
#include "text/sanitize.hpp"
#include "util/detached.hpp"

namespace mailroom::cli {

namespace {

struct CheckOptions {
  std::optional<std::string> mailbox;
  bool inject = false;
  // Checked when the command runs rather than by the parser, so a bad value in a hook still
  // exits 0 (contract: "check --inject exits 0 on every failure").
  std::string limit = "3";
  std::optional<std::string> hook_format;
  std::optional<std::string> hook_event; // wins over the payload's event name
  std::optional<std::string> budget;     // the hook's time budget (checked when it runs, like --limit)
  bool refresh = false;                  // --refresh: the hook's detached refresh of a slow store
};

// How long before its deadline a hook stops waiting for a refresh: what is left renders the
// reminder and writes it.
constexpr std::chrono::milliseconds k_answer_margin{100};

// A hook's detached refresh: this program again, as `check --refresh MAILBOX`, with the flags that
// chose this configuration, store and identity (docs/exec-protocol.md, "The hook through a slow
// script").
class CliRefresh final : public mail::RefreshRun {
public:
  explicit CliRefresh(util::Detached run) : m_run(std::move(run)) {}
  bool wait_until(std::chrono::steady_clock::time_point deadline) override
  {
    return m_run.wait_until(deadline);
  }

private:
  util::Detached m_run;
};

mail::StartRefresh refresh_starter(const Context& ctx, const std::optional<std::string>& mailbox)
{
  return [&ctx, mailbox]() -> Result<std::unique_ptr<mail::RefreshRun>> {
    const std::string self = util::self_executable();
    if (self.empty()) {
      return make_error(ErrorCode::provider_error, "cannot find this program to refresh the hook's answer");
    }
    std::vector<std::string> argv{self};
    for (const auto& [flag, value] :
         {std::pair{"--config", ctx.globals.config}, std::pair{"--db", ctx.globals.db},
          std::pair{"--city", ctx.globals.city}}) {
      if (value) {
        argv.insert(argv.end(), {flag, *value});
      }
    }
    argv.insert(argv.end(), {"--as", ctx.me.name, "check", "--refresh"});
    if (mailbox) {
      argv.push_back(*mailbox);
    }
    TRY_ASSIGN(util::Detached run, util::Detached::spawn(argv));
    return std::unique_ptr<mail::RefreshRun>(std::make_unique<CliRefresh>(std::move(run)));
  };
}

// The agent's event name from the hook payload on standard input, or "" when there is none.
std::string payload_event(Context& ctx)
{
  std::optional<hooks::Payload> payload;
  if (dynamic_cast<FdInput*>(&ctx.in) != nullptr) {
    // The real standard input: polled with a deadline, so a writer that never closes it cannot
    // hold up the agent.
    payload = hooks::read_payload(STDIN_FILENO);
  } else {
    auto text = ctx.in.read_all(hooks::PayloadLimits{}.max_bytes);
    if (text.ok()) {
      payload = hooks::parse_payload(*text);
    }
  }
  return payload ? payload->hook_event_name : std::string();
}

Result<ExitCode> run_inject(Context& ctx, const CheckOptions& opts)
{
  // Hook mode never fails the hook: every error is one short line on stderr, and the exit code
  // stays 0 (an exit 2 would erase the user's prompt in Claude Code and block it in the others).
  if (ctx.session.presence) {
    ctx.session.presence = mail::SeenVia::hook;
  }
  auto run = [&]() -> Result<void> {
    // The budget the configuration asks for moves the deadline armed at process start (unless
    // --budget or $MAILROOM_HOOK_BUDGET set it); a bad value is this hook's one error line.
    TRY_ASSIGN(const std::chrono::milliseconds budget,
               hooks::resolve_budget(opts.budget, ctx.env.get(hooks::k_budget_env),
                                     std::chrono::milliseconds(ctx.config.hook_budget_ms.value)));
    if (ctx.deadline != nullptr) {
      ctx.deadline->rearm(budget);
    }
    std::optional<hooks::Agent> agent;
    if (opts.hook_format) {
      TRY_ASSIGN(agent, hooks::parse_agent(*opts.hook_format, "hook format"));
    }
    TRY_ASSIGN(std::size_t limit, ops::check_limit(opts.limit));
    const std::string event = agent ? hooks::choose_event(*agent, opts.hook_event, payload_event(ctx)) : "";
    ops::HookCheckRequest request{opts.mailbox, limit};
    const auto end =
        ctx.deadline != nullptr ? ctx.deadline->end() : std::chrono::steady_clock::now() + budget;
    request.answer_by = end - std::min(k_answer_margin, budget / 2);
    request.start_refresh = refresh_starter(ctx, opts.mailbox);
    TRY_ASSIGN(const ops::CheckResult result, ops::check_for_hook(ctx.session, request));
    if (result.no_answer_yet) {
      // The script has not answered yet (its refresh goes on): silent, with the line a hook whose
      // budget ran out prints.
      ctx.out.err(timeout_line(budget, ctx.json));
      return Result<void>();
    }
    const mail::Mailbox& mailbox = result.mailbox;
    const std::string command = hooks::reminder_command(ctx.config, ctx.me, mailbox);
    render::ReminderHead head{result.found.unread, mailbox, result.found.awaiting, result.found.urgent};
    if (result.as_of) {
      head.age_ms = ctx.clock.now() - *result.as_of;
    }
    const text::DisplayText text = hooks::bounded_reminder(head, result.found.messages, command,
                                                           hooks::k_max_context_bytes, ctx.clock.now());
    if (agent) {
      // The agent's hook JSON: nlohmann's dump of the display text above.
      return write_data(ctx, hooks::hook_output(*agent, event, text));
    }
    if (ctx.json) {
      // Contract "What reaches an agent": the reminder as one JSON object, null when no mail.
      return write_json(ctx, ops::reminder_to_json(result, text));
    }
    return write_text(ctx, text);
  };
  auto done = run();
  if (!done.ok()) {
    report_error(ctx.out, ctx.command, hooks::hook_error(done.error()), ctx.json);
  }
  return ExitCode::ok;
}

Result<ExitCode> run_check(Context& ctx, const CheckOptions& opts)
{
  if (opts.refresh) {
    if (opts.inject || opts.hook_format) {
      return usage_error("--refresh cannot be combined with --inject or --hook-format");
    }
    TRY(ops::refresh_hook_answer(ctx.session, opts.mailbox));
    return ExitCode::ok;
  }
  if (opts.inject || opts.hook_format) {
    return run_inject(ctx, opts);
  }
  // The plain predicate prints only the total, so it loads no message (a count-only query).
  const ops::CheckRequest request{opts.mailbox, opts.limit, ctx.json};
  TRY_ASSIGN(const ops::CheckResult result, ops::check(ctx.session, request));
  if (result.no_store) {
    return ExitCode::none; // no store holds no mail (contract "Identity and store safety")
  }
  TRY(print_result(ctx, result));
  return result.found.unread > 0 ? ExitCode::ok : ExitCode::none;
}

} // namespace

void register_check(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<CheckOptions>();
  command.add_option("mailbox", opts->mailbox, "whose mail (default: you)");
  command.add_flag("--inject", opts->inject, "hook mode: print a <system-reminder> block; always exit 0");
  command.add_option("--limit", opts->limit, "list at most N messages (default 3)")->type_name("N");
  command
      .add_option("--hook-format", opts->hook_format,
                  "answer a coding agent's hook in its JSON (claude, codex or gemini), reading its "
                  "payload from standard input; implies --inject")
      ->type_name("AGENT");
  command
      .add_option("--hook-event", opts->hook_event,
                  "hook event name to answer (default: the payload's, else UserPromptSubmit, or "
                  "BeforeAgent for gemini)")
      ->type_name("NAME");
  command
      .add_option("--budget", opts->budget,
                  "hook mode: give up silently (exit 0) after DUR from the start (default 1s; "
                  "$MAILROOM_HOOK_BUDGET, [hooks] budget)")
      ->type_name("DUR");
  command.add_flag("--refresh", opts->refresh,
                   "keep an exec script's answer for the hook now (what a hook starts in the background)");
  command.footer(
      "Examples:\n  mailroom check && echo 'you have mail'\n"
      "  mailroom check --hook-format claude   # in .claude/settings.json (mailroom hooks install claude)");
  inv.on_select(command, [opts](Context& ctx) { return run_check(ctx, *opts); });
}

} // namespace mailroom::cli
