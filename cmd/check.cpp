// mailroom check: the hook predicate (exit 0 mail, 1 none, 5 failure) and --inject hook mode.

#include <fmt/format.h>

#include "commands.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "support.hpp"

namespace mailroom::cli {

namespace {

struct CheckOptions {
  std::optional<std::string> mailbox;
  bool inject = false;
  std::size_t limit = 3;
  std::optional<std::string> hook_format;
  std::string hook_event = "UserPromptSubmit";
};

// The hook preview reads at most this much of each body (the reminder scans no further).
constexpr std::size_t k_preview_scan_bytes = 4096;

Result<mail::CheckResult> fetch(Context& ctx, const mail::Mailbox& mailbox, std::size_t limit,
                                std::optional<std::size_t> body_bytes)
{
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  return provider->check(mailbox, limit, body_bytes);
}

Result<ExitCode> run_inject(Context& ctx, const CheckOptions& opts)
{
  // Hook mode never fails the hook: every error goes to stderr and the exit code stays 0.
  auto run = [&]() -> Result<void> {
    TRY_ASSIGN(mail::Mailbox mailbox, inbox_target(ctx, opts.mailbox));
    TRY_ASSIGN(mail::CheckResult result, fetch(ctx, mailbox, opts.limit, k_preview_scan_bytes));
    std::string text = render::render_inject(result.unread, result.messages, "mailroom");
    if (opts.hook_format) {
      text = render::render_claude_hook(text, opts.hook_event);
    }
    return write_text(ctx, text);
  };
  auto done = run();
  if (!done.ok()) {
    report_error(ctx.out, ctx.command, done.error(), ctx.json);
  }
  return ExitCode::ok;
}

Result<ExitCode> run_check(Context& ctx, const CheckOptions& opts)
{
  if (opts.hook_format && *opts.hook_format != "claude") {
    return usage_error(fmt::format("unknown hook format \"{}\"", *opts.hook_format), "use --hook-format claude");
  }
  if (opts.inject || opts.hook_format) {
    return run_inject(ctx, opts);
  }
  TRY_ASSIGN(mail::Mailbox mailbox, inbox_target(ctx, opts.mailbox));
  // The plain predicate prints only the total, so it loads no message (a count-only query).
  auto fetched = fetch(ctx, mailbox, ctx.json ? opts.limit : 0, std::nullopt);
  if (!fetched.ok() && fetched.error().reason == "no_store") {
    return ExitCode::none; // no store holds no mail (contract "Identity and store safety")
  }
  TRY(fetched);
  mail::CheckResult result = std::move(fetched).value();
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["mailbox"] = mailbox;
    doc["unread"] = result.unread;
    doc["messages"] = nlohmann::json::array();
    for (const auto& m : result.messages) {
      doc["messages"].push_back(render::message_to_json(m));
    }
    TRY(write_json(ctx, doc));
  } else if (result.unread > 0) {
    TRY(write_text(ctx, fmt::format("{} unread message(s) for {}\n", result.unread, mailbox)));
  }
  return result.unread > 0 ? ExitCode::ok : ExitCode::none;
}

} // namespace

void register_check(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<CheckOptions>();
  command.add_option("mailbox", opts->mailbox, "whose mail (default: you)");
  command.add_flag("--inject", opts->inject, "hook mode: print a <system-reminder> block; always exit 0");
  command.add_option("--limit", opts->limit, "list at most N messages (default 3)")->check(CLI::PositiveNumber);
  command.add_option("--hook-format", opts->hook_format, "wrap the --inject text for a hook: claude")
    ->type_name("FORMAT");
  command.add_option("--hook-event", opts->hook_event, "hook event name (default UserPromptSubmit)")
    ->type_name("NAME");
  command.footer("Examples:\n  mailroom check && echo 'you have mail'\n"
                 "  mailroom check --inject --hook-format claude --hook-event SessionStart");
  inv.on_select(command, [opts](Context& ctx) { return run_check(ctx, *opts); });
}

} // namespace mailroom::cli
