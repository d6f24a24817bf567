// mailroom watch: run a command for each unread message of the caller, once, with claims and
// leases (several watchers share a mailbox), retries, replies and escalation (watch_loop.cpp).

#include <algorithm>
#include <array>
#include <chrono>

#include <fmt/format.h>
#include <unistd.h>

#include "commands.hpp"
#include "list_support.hpp"
#include "mail/duration.hpp"
#include "support.hpp"
#include "util/interrupt.hpp"
#include "util/sleep.hpp"
#include "util/subprocess.hpp"
#include "wait_support.hpp"
#include "watch_loop.hpp"

namespace mailroom::cli {

namespace {

struct WatchOptions {
  std::vector<std::string> types;
  std::optional<std::string> from;
  std::optional<std::string> lease;
  std::optional<std::string> handler_timeout;
  std::int64_t max_attempts = mail::k_default_handler_attempts;
  bool once = false;
  bool exec = false;
};

std::string watcher_name()
{
  std::array<char, 256> host{};
  if (::gethostname(host.data(), host.size() - 1) != 0) {
    host[0] = '\0';
  }
  return fmt::format("{}:{}", host.data(), ::getpid());
}

// The store, opened. A store locked for a moment when watch starts (a migration, a backup, a
// long write) is waited out with backoff, as watch does with every store failure once it runs;
// anything else (no store, a bad config) ends watch. An interrupt while waiting ends it too.
Result<mail::Provider*> open_store(Context& ctx, const util::InterruptWatch& interrupt)
{
  using Clock = std::chrono::steady_clock;
  constexpr mail::Millis k_first_ms = 100;
  constexpr mail::Millis k_max_ms = 5 * mail::k_second_ms;
  mail::Millis backoff = k_first_ms;
  while (true) {
    auto opened = ctx.provider();
    if (opened.ok() || opened.error().code != ErrorCode::timeout) {
      return opened;
    }
    warn(ctx, "store_locked", fmt::format("opening the store: {}; trying again in {}", opened.error().message,
                          mail::format_duration(backoff)));
    if (!util::sleep_until(Clock::now() + std::chrono::milliseconds(backoff), interrupt.fd())) {
      return opened;
    }
    backoff = std::min(backoff * 2, k_max_ms);
  }
}

Result<ExitCode> run_watch(Context& ctx, const WatchOptions& opts, const std::vector<std::string>& argv)
{
  if (!opts.exec || argv.empty()) {
    return usage_error("missing --exec CMD", "usage: mailroom watch [--type T]... [--from NAME] --exec CMD [ARG]...");
  }
  WatchSettings settings;
  settings.argv = argv;
  settings.once = opts.once;
  settings.claim.mailbox = ctx.me.name;
  settings.claim.watcher = watcher_name();
  TRY_ASSIGN(settings.claim.types, resolve_types(ctx, opts.types));
  TRY_ASSIGN(settings.claim.from, mailbox_flag(opts.from, "--from"));
  if (opts.lease) {
    TRY_ASSIGN(settings.claim.lease_ms, mail::parse_duration(*opts.lease, "--lease"));
  }
  if (opts.handler_timeout) {
    TRY_ASSIGN(settings.handler_timeout_ms, mail::parse_duration(*opts.handler_timeout, "--handler-timeout"));
  }
  if (settings.claim.lease_ms <= 0 || settings.handler_timeout_ms <= 0) {
    return usage_error("--lease and --handler-timeout must be longer than 0");
  }
  if (opts.max_attempts < 1) {
    return usage_error(fmt::format("--max-attempts must be at least 1, not {}", opts.max_attempts));
  }
  settings.claim.max_attempts = opts.max_attempts;
  if (!util::can_execute(argv.front(), ctx.env.get("PATH").value_or(""))) {
    return usage_error(fmt::format("cannot run \"{}\": not found or not executable", argv.front()),
                       "give a program on $PATH or a path to an executable file after --exec");
  }
  // A handler's own `mailroom` finds the same store and config as this watch.
  if (ctx.globals.db) {
    settings.env.emplace_back("MAILROOM_DB", *ctx.globals.db);
  }
  if (ctx.globals.config) {
    settings.env.emplace_back("MAILROOM_CONFIG", *ctx.globals.config);
  }
  TRY_ASSIGN(std::unique_ptr<util::InterruptWatch> watch, util::InterruptWatch::install());
  util::InterruptWatch& interrupt = *watch;
  auto opened = open_store(ctx, interrupt);
  if (!opened.ok() && interrupt.received() != 0) {
    return interrupted_exit(interrupt.received());
  }
  TRY_ASSIGN(mail::Provider * provider, std::move(opened));
  if (!provider->capabilities().claims) {
    return make_error(ErrorCode::unsupported,
                      "watch needs claims, which this provider does not have (the exec script protocol has none)",
                      "use the beads provider (or PostgreSQL) for watch; 'mailroom wait' works everywhere");
  }
  Watcher watcher(ctx, *provider, std::move(settings), interrupt);
  return watcher.run();
}

} // namespace

void register_watch(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<WatchOptions>();
  command.add_option("--type", opts->types, "only messages of this type (repeatable)")
      ->type_name("TYPE")
      ->allow_extra_args(false);
  command.add_option("--from", opts->from, "only messages from this mailbox")->type_name("NAME");
  command.add_option("--lease", opts->lease, "how long a claim holds without renewal (default 5m)")
      ->type_name("DUR");
  command.add_option("--handler-timeout", opts->handler_timeout,
                     "kill a handler (its process group) after this long (default 10m)")
      ->type_name("DUR");
  command.add_option("--max-attempts", opts->max_attempts,
                     "set a message aside and escalate after this many failed attempts (default 3)")
      ->type_name("N");
  command.add_flag("--once", opts->once, "process what is waiting now, then exit");
  command.add_flag("--exec", opts->exec, "the command to run: everything after --exec is its argv (no shell)");
  command.footer(
      "The handler gets the body on stdin and MAILROOM_ID, MAILROOM_FROM, MAILROOM_SUBJECT, MAILROOM_TYPE,\n"
      "MAILROOM_THREAD, MAILROOM_MAILBOX and TRACEPARENT in its environment. Exit 0 marks the message\n"
      "read and acked; for task_request and cron_task, what it prints is sent as the reply.\n"
      "Examples:\n"
      "  mailroom --as worker watch --type task_request --exec ./handle-task.sh\n"
      "  mailroom --as worker --json watch --once --exec python3 worker.py --verbose");
  const std::vector<std::string>* argv = &inv.exec_argv;
  inv.on_select(command, [opts, argv](Context& ctx) { return run_watch(ctx, *opts, *argv); });
}

} // namespace mailroom::cli
