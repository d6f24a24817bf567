// mailroom serve: the HTTP API and the dashboard page for the store in use (docs/http-api.md).
// Registration costs nothing to other commands: the server (internal/http, Boost.Beast) is built
// and run only when `serve` is the chosen command.

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/pooled.hpp"
#include "cli/support.hpp"
#include "dashboard/assets.hpp"
#include "http/api.hpp"
#include "http/auth.hpp"
#include "http/event_hub.hpp"
#include "http/rules.hpp"
#include "http/server.hpp"
#include "http/server_file.hpp"
#include "ops/background_firer.hpp"
#include "ops/server_environment.hpp"
#include "util/subprocess.hpp"

namespace mailroom::cli {

namespace {

struct ServeOptions {
  std::string listen = "127.0.0.1:8025";
  bool open = false;
  std::vector<std::string> allow_hosts;
  bool new_token = false;
};

void open_browser(Context& ctx, const std::string& url)
{
  util::SubprocessOptions options;
  options.argv = {"xdg-open", url};
  options.timeout = std::chrono::seconds(10);
  options.keep_group = true;
  auto opened = util::run_subprocess(options);
  if (!opened.ok() || !opened->success()) {
    ctx.out.err("mailroom serve: could not open a browser (xdg-open); open the URL above yourself\n");
  }
}

// The page's files (internal/dashboard), built into the binary.
std::optional<http::Asset> page_asset(std::string_view path)
{
  const dashboard::Asset* asset = dashboard::find_asset(path);
  if (asset == nullptr) {
    return std::nullopt;
  }
  return http::Asset{asset->content_type, asset->body};
}

Result<ExitCode> run_serve(Context& ctx, const ServeOptions& opts)
{
  TRY_ASSIGN(const http::ListenAddress listen, http::parse_listen(opts.listen));
  if (!listen.loopback && opts.allow_hosts.empty()) {
    return usage_error(
        fmt::format("--listen {} is not a loopback address: it needs --allow-host NAME", opts.listen),
        "name the host browsers will use, e.g. --allow-host mybox.lan");
  }
  TRY_ASSIGN(mail::ProviderSettings settings, config::provider_settings(ctx.config));
  if (settings.kind == "exec") {
    return make_error(ErrorCode::unsupported,
                      "serve needs a SQLite or PostgreSQL store, not the exec provider",
                      "the dashboard reads the store directly; run it where the store is");
  }
  settings.store.access = mail::Access::write;
  // The server keeps a connection per concurrent request open for its whole life: each one's page
  // cache is bounded, so that its memory stops growing early (docs/http-api.md, "Limits").
  settings.store.cache_kib = http::k_connection_cache_kib;
  TRY_ASSIGN(const std::string token_file,
             http::token_path(ctx.env, settings.kind + ":" + settings.store.path));
  TRY_ASSIGN(const std::string token, http::load_or_create_token(token_file, opts.new_token));
  const http::Credentials credentials(token);
  http::LoginCodes codes;

  // Each request runs on a connection of its own, kept open for later requests (as `mcp`).
  ops::ConnectionPool connections(pooled_connections(ctx, settings));
  {
    // Refuse at start what every request would fail with: no store, an unknown operator.
    TRY_ASSIGN(auto first, connections.take());
    connections.give_back(std::move(first));
  }
  TRY_ASSIGN(std::unique_ptr<http::Server> server, http::Server::listen(listen.address, listen.port, {}));
  const std::uint16_t port = server->port();
  const ops::ServerEnvironment request_env(ctx.env); // masked as the MCP server's
  http::ApiEnv env{ctx.config,  ctx.policy,  ctx.clock,
                   ctx.me,      request_env, connections,
                   credentials, codes,       http::host_rule(opts.allow_hosts, port),
                   page_asset};
  http::EventHubOptions stream_options;
  stream_options.peer_period = std::chrono::milliseconds(http::peer_state_period(ctx.policy.presence_after));
  http::EventHub hub(env, stream_options);
  TRY(hub.start());
  // serve is a firer too (contract "Schedules"): due slots fire on a connection of their own.
  ops::BackgroundFirer firer(ops::FirerContext{ctx.config, ctx.policy, ctx.clock, ctx.me, ctx.env},
                             connections, mail::FirerKind::serve);
  TRY(firer.start());
  env.link_host = listen.loopback ? listen.host(port) : fmt::format("{}:{}", opts.allow_hosts.front(), port);
  const std::string url = http::login_link(env.link_host, codes.issue(ctx.clock.now()));
  // Where `serve login` finds this server; a wildcard address is reached on its loopback.
  http::ServerFile address_file{::getpid(), listen.address, port, env.link_host};
  if (address_file.address == "0.0.0.0" || address_file.address == "::") {
    address_file.address = address_file.address == "::" ? "::1" : "127.0.0.1";
    address_file.host = fmt::format("{}:{}", address_file.address == "::1" ? "[::1]" : "127.0.0.1", port);
  }
  const std::string server_file = http::server_file_path(token_file);
  TRY(http::write_server_file(server_file, address_file));
  if (!listen.loopback) {
    ctx.out.err(fmt::format("mailroom serve: warning: listening on {}: the token travels unencrypted; "
                            "prefer 127.0.0.1 and an SSH tunnel\n",
                            listen.host(port)));
  }
  TRY(ctx.out.out(url + "\n"));
  ctx.out.err(fmt::format("mailroom serve: listening on {} as {}; the login link above works once, for 5 "
                          "minutes; API token in {}; Ctrl-C stops\n",
                          listen.host(port), ctx.me.name, token_file));
  if (opts.open) {
    open_browser(ctx, url);
  }
  const int signal =
      server->run([&env](const http::Request& head) { return http::admit(env, head); },
                  [&env](const http::Request& request) { return http::handle(env, request); }, &hub);
  hub.stop(); // before the server goes: the hub posts to its I/O thread
  http::remove_server_file(server_file, address_file.pid);
  firer.stop();
  const ExitCode code = signal == SIGTERM ? ExitCode::terminated : ExitCode::interrupted;
  if (!env.background.wait_idle(10 * 1000)) {
    // A search past its deadline still runs: leave without waiting for it (reads only; nothing
    // is half written), as env's destructor would wait for it without a bound.
    ctx.out.err("mailroom serve: a search still running at exit was abandoned\n");
    std::fflush(nullptr);
    std::_Exit(static_cast<int>(code));
  }
  return code;
}

// mailroom serve login: a fresh single-use login link from the server running for this store.
Result<ExitCode> run_serve_login(Context& ctx)
{
  TRY_ASSIGN(const mail::ProviderSettings settings, config::provider_settings(ctx.config));
  TRY_ASSIGN(const std::string token_file,
             http::token_path(ctx.env, settings.kind + ":" + settings.store.path));
  const std::optional<http::ServerFile> server = http::read_server_file(http::server_file_path(token_file));
  TRY_ASSIGN(const std::optional<std::string> token, http::read_token(token_file));
  if (!server || !token) {
    return make_error(ErrorCode::not_found, "no mailroom serve is running for this store",
                      "start one with mailroom serve");
  }
  TRY_ASSIGN(const std::string link, http::request_login_link(*server, *token));
  TRY(ctx.out.out(link + "\n"));
  ctx.out.err("mailroom serve login: the link works once, for 5 minutes\n");
  return ExitCode::ok;
}

} // namespace

void register_serve(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<ServeOptions>();
  command.add_option("--listen", opts->listen,
                     "ADDR:PORT to listen on (default 127.0.0.1:8025; port 0: a free one)");
  command.add_flag("--open", opts->open, "open the login link in a browser");
  command.add_option("--allow-host", opts->allow_hosts,
                     "a host name browsers may use besides 127.0.0.1 and localhost (repeatable)");
  command.add_flag("--new-token", opts->new_token, "replace the API token (signs every session out)");
  command.footer(
      "Serves the JSON API (/api/v1) and the dashboard page for this store, as the operator\n"
      "(human unless --as). Prints a single-use login link; API clients send\n"
      "Authorization: Bearer <token> (the token file is under $XDG_STATE_HOME/mailroom/serve/).\n"
      "Examples:\n  mailroom serve --open\n  mailroom serve --listen 127.0.0.1:0\n"
      "  mailroom serve login    (a new login link for the running server: a new tab, a bookmark)");
  inv.on_select(command, [opts](Context& ctx) { return run_serve(ctx, *opts); });
  command.require_subcommand(0, 1);
  CLI::App* login = command.add_subcommand(
      "login", "print a fresh single-use login link for the serve running for this store (exit 3: none)");
  inv.on_select(*login, [](Context& ctx) { return run_serve_login(ctx); });
}

} // namespace mailroom::cli
