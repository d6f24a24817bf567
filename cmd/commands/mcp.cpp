// mailroom mcp: the Model Context Protocol server on standard input and output (docs/mcp.md).
// Registration here costs nothing to other commands: the server (internal/mcp) is built and run
// only when `mcp` is the chosen command. `mcp show|install|uninstall` are in mcp_install.cpp.

#include <unistd.h>

#include <fmt/format.h>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/pooled.hpp"
#include "cli/support.hpp"
#include "mcp/protocol.hpp"
#include "mcp/server.hpp"
#include "ops/server_environment.hpp"
#include "render/json.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

struct McpOptions {
  std::string tools = "all";
  bool open_views = false;
  bool allow_broadcast = false;
  bool check_identity = false;
  bool digest = false;
};

// What every no-identity message of the server ends with.
constexpr std::string_view k_identity_hint =
    "hint: set MAILROOM_IDENTITY for this agent, or write its mailbox name in .mailroom-identity at "
    "its worktree's top\n";

// True when the identity fell through to the default `human` (no --as, environment or config).
bool fell_through(const config::Identity& me)
{
  return me.name == mail::k_human && me.origin.kind == config::Origin::Kind::default_value;
}

Result<ExitCode> run_check_identity(Context& ctx)
{
  const bool none = fell_through(ctx.me);
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["mailbox"] = ctx.me.name;
    doc["source"] = config::to_string(ctx.me.origin);
    doc["no_identity"] = none;
    TRY(write_json(ctx, doc));
  } else {
    TRY(write_text(ctx, text::DisplayText::format("{} (from {})\n", text::sanitize_line(ctx.me.name),
                                                  text::sanitize_line(config::to_string(ctx.me.origin)))));
    if (none) {
      ctx.out.err("mailroom mcp: no identity: every tool call would fail with no_identity\n");
      ctx.out.err(k_identity_hint);
    }
  }
  return none ? ExitCode::none : ExitCode::ok;
}

Result<ExitCode> run_mcp(Context& ctx, const McpOptions& opts)
{
  if (opts.check_identity) {
    return run_check_identity(ctx);
  }
  mcp::ToolEnv env;
  env.me = ctx.me;
  env.no_identity = fell_through(ctx.me);
  env.config = &ctx.config;
  env.policy = &ctx.policy;
  env.clock = &ctx.clock;
  const ops::ServerEnvironment masked(ctx.env); // masked as serve's
  env.environment = &masked;
  env.open_views = opts.open_views;
  env.allow_broadcast = opts.allow_broadcast;
  env.digest = opts.digest;
  // Each call runs on a connection of its own (contract "Lifecycle"), kept open for later calls.
  // A configuration error is each call's answer (the server still starts).
  Result<mail::ProviderSettings> settings = config::provider_settings(ctx.config);
  if (settings.ok()) {
    settings->store.access = mail::Access::write;
  }
  mcp::ConnectionPool connections(pooled_connections(ctx, std::move(settings)));
  env.connections = &connections;
  mcp::ProtocolOptions options;
  options.core_only = opts.tools == "core";
  options.server_version = MAILROOM_VERSION;
  const mcp::Handler handler = mcp::make_handler(env, options);
  if (env.no_identity) {
    ctx.out.err(
        "mailroom mcp: no identity (it fell through to \"human\"): every tool call answers no_identity\n");
    ctx.out.err(k_identity_hint);
  }
  const auto log = [&ctx](const std::string& line) {
    ctx.out.err(fmt::format("mailroom mcp: {}\n", text::sanitize_line(line)));
  };
  mcp::serve(handler, STDIN_FILENO, STDOUT_FILENO, mcp::ServerLimits{}, log);
  return ExitCode::ok;
}

} // namespace

void register_mcp_install(CLI::App& command, Invocation& inv); // mcp_install.cpp

void register_mcp(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<McpOptions>();
  command.require_subcommand(0, 1);
  command.add_option("--tools", opts->tools, "which tools to list: all (default) or core")
      ->check(CLI::IsMember({"all", "core"}));
  command.add_flag("--open-views", opts->open_views,
                   "let tools view other mailboxes (a \"mailbox\" argument)");
  command.add_flag("--allow-broadcast", opts->allow_broadcast, "let a send reach more than 20 mailboxes");
  command.add_flag("--digest", opts->digest,
                   "add a line to every tool result when you have unread mail (\"mailroom: 3 unread\")");
  command.add_flag("--check-identity", opts->check_identity,
                   "print the identity the server would act as, and why");
  command.footer("Serves MCP (JSON-RPC, one message per line) on stdin/stdout as your mailbox.\n"
                 "Examples:\n  MAILROOM_IDENTITY=builder mailroom mcp --check-identity\n"
                 "  mailroom mcp install claude\n  mailroom mcp show codex");
  inv.on_select(command, [opts](Context& ctx) { return run_mcp(ctx, *opts); });
  register_mcp_install(command, inv);
}

} // namespace mailroom::cli
