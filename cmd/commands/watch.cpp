// mailroom watch: run a command for each unread message of the caller, once, with claims and
// leases (several watchers share a mailbox), retries, replies and escalation (ops/watch.hpp).
// This file parses the flags and prints each event as it happens.

#include <array>

#include <fmt/format.h>
#include <unistd.h>

#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "ops/watch.hpp"
#include "wait_support.hpp"

namespace mailroom::cli {

namespace {

struct WatchOptions {
  ops::WatchRequest request;
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

Result<ExitCode> run_watch(Context& ctx, const WatchOptions& opts, const std::vector<std::string>& argv)
{
  if (!opts.exec || argv.empty()) {
    return usage_error("missing --exec CMD",
                       "usage: mailroom watch [--type T]... [--from NAME] --exec CMD [ARG]...");
  }
  ops::WatchRequest request = opts.request;
  request.argv = argv;
  request.watcher = watcher_name();
  // A handler's own `mailroom` finds the same store and config as this watch.
  if (ctx.globals.db) {
    request.env.emplace_back("MAILROOM_DB", *ctx.globals.db);
  }
  if (ctx.globals.config) {
    request.env.emplace_back("MAILROOM_CONFIG", *ctx.globals.config);
  }
  // Events are a record, not the work: a failed write (a closed stdout) does not stop the watcher.
  TRY_ASSIGN(const ops::WatchEnd end, ops::watch(ctx.session, request, [&ctx](const ops::WatchEvent& event) {
               (void)print_result(ctx, event);
             }));
  return end.signal != 0 ? interrupted_exit(end.signal) : ExitCode::ok;
}

} // namespace

void register_watch(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<WatchOptions>();
  command.add_option("--type", opts->request.types, "only messages of this type (repeatable)")
      ->type_name("TYPE")
      ->allow_extra_args(false);
  command.add_option("--from", opts->request.from, "only messages from this mailbox")->type_name("NAME");
  command.add_option("--lease", opts->request.lease, "how long a claim holds without renewal (default 5m)")
      ->type_name("DUR");
  command
      .add_option("--handler-timeout", opts->request.handler_timeout,
                  "kill a handler (its process group) after this long (default 10m)")
      ->type_name("DUR");
  command
      .add_option(
          "--cancel-grace", opts->request.cancel_grace,
          "when a request's sender cancels it, SIGKILL its handler this long after SIGTERM (default 10s)")
      ->type_name("DUR");
  command
      .add_option("--max-attempts", opts->request.max_attempts,
                  "set a message aside and escalate after this many failed attempts (default 3)")
      ->type_name("N");
  command.add_flag("--once", opts->request.once, "process what is waiting now, then exit");
  command.add_flag("--exec", opts->exec,
                   "the command to run: everything after --exec is its argv (no shell)");
  command.footer(
      "The handler gets the body on stdin and MAILROOM_ID, MAILROOM_FROM, MAILROOM_SUBJECT, MAILROOM_TYPE,\n"
      "MAILROOM_THREAD, MAILROOM_MAILBOX and TRACEPARENT in its environment. Exit 0 marks the message\n"
      "read and acked; for task_request and cron_task, what it prints is sent as the reply. A handler may\n"
      "answer a request itself (mailroom decline/ask/fail \"$MAILROOM_ID\"): then no reply is sent.\n"
      "Examples:\n"
      "  mailroom --as worker watch --type task_request --exec ./handle-task.sh\n"
      "  mailroom --as worker --json watch --once --exec python3 worker.py --verbose");
  const std::vector<std::string>* argv = &inv.exec_argv;
  inv.on_select(command, [opts, argv](Context& ctx) { return run_watch(ctx, *opts, *argv); });
}

} // namespace mailroom::cli
