#pragma once

// The one command table: registration, help, "did you mean" and what each command may touch.

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/exit_code.hpp"
#include "base/result.hpp"
#include "context.hpp"

namespace mailroom::cli {

using mail::Access; // read: changes no mail (the store opens read-only); write; create (init)

// What a command needs before it runs.
enum class Needs {
  nothing, // neither config nor store (help, hooks, completion)
  config,  // the config and identity, but it does not act as a mailbox (config, agents, init)
  mailbox, // acts as the caller's mailbox: the identity must be registered (the identity guard)
};

// Whether a command's text output goes through $PAGER at a terminal (contract "Pager").
enum class Paging {
  never,
  at_terminal, // read, thread, long lists: when stdin and stdout are terminals, unless --no-pager
};

// What -q/--quiet does to a command's standard output.
enum class Quiet {
  keeps_output, // the output is what was asked for (views, lists, hook text)
  drops_output, // the output only confirms an action ("Archived message ..."): -q drops it
};

using Runner = std::function<Result<ExitCode>(Context&)>;

// What parsing produced: the global options and one runner per registered (sub)command.
struct Invocation {
  GlobalOptions globals;
  std::vector<std::pair<const CLI::App*, Runner>> runners;
  // `watch … --exec CMD ARG...` (CMD and its arguments) and `agents set NAME --wake ARGV...` (the
  // target's words): cut off before parsing (app.cpp) so that none of them is taken for a
  // mailroom option.
  std::vector<std::string> exec_argv;

  // Records that selecting `command` runs `runner`.
  void on_select(const CLI::App& command, Runner runner)
  {
    runners.emplace_back(&command, std::move(runner));
  }
  // The runner of `command`, or nullptr.
  const Runner* find(const CLI::App* command) const;
};

using RegisterFn = void (*)(CLI::App& command, Invocation& invocation);

struct CommandSpec {
  std::string_view name;
  std::string_view description;
  RegisterFn register_fn;
  Access access; // how the store is opened
  Needs needs;
  Paging paging = Paging::never;
  Quiet quiet = Quiet::keeps_output;
};

// Every command, sorted by name.
std::span<const CommandSpec> commands();
// The spec named `name`, or nullptr.
const CommandSpec* find_command(std::string_view name);
// Up to three command names close to `name` (for "did you mean").
std::vector<std::string> suggest_commands(std::string_view name);

// Registration functions, one per command file.
void register_send(CLI::App& command, Invocation& invocation);
void register_wake_run(CLI::App& command, Invocation& invocation);
void register_inbox(CLI::App& command, Invocation& invocation);
void register_migrate(CLI::App& command, Invocation& invocation);
void register_mcp(CLI::App& command, Invocation& invocation);
void register_read(CLI::App& command, Invocation& invocation);
void register_peek(CLI::App& command, Invocation& invocation);
void register_reply(CLI::App& command, Invocation& invocation);
void register_archive(CLI::App& command, Invocation& invocation);
void register_unarchive(CLI::App& command, Invocation& invocation);
void register_delete(CLI::App& command, Invocation& invocation);
void register_doctor(CLI::App& command, Invocation& invocation);
void register_gc_mail(CLI::App& command, Invocation& invocation);
void register_mark_read(CLI::App& command, Invocation& invocation);
void register_mark_unread(CLI::App& command, Invocation& invocation);
void register_team(CLI::App& command, Invocation& invocation);
void register_thread(CLI::App& command, Invocation& invocation);
void register_trace(CLI::App& command, Invocation& invocation);
void register_count(CLI::App& command, Invocation& invocation);
void register_check(CLI::App& command, Invocation& invocation);
void register_status(CLI::App& command, Invocation& invocation);
void register_wait(CLI::App& command, Invocation& invocation);
void register_watch(CLI::App& command, Invocation& invocation);
void register_init(CLI::App& command, Invocation& invocation);
void register_config(CLI::App& command, Invocation& invocation);
void register_agents(CLI::App& command, Invocation& invocation);
void register_hooks(CLI::App& command, Invocation& invocation);
void register_help(CLI::App& command, Invocation& invocation);
void register_completion(CLI::App& command, Invocation& invocation);
// Delivery health.
void register_ack(CLI::App& command, Invocation& invocation);
void register_peers(CLI::App& command, Invocation& invocation);
void register_sweep(CLI::App& command, Invocation& invocation);
void register_schedule(CLI::App& command, Invocation& invocation);
// The life of a request.
void register_cancel(CLI::App& command, Invocation& invocation);
void register_decline(CLI::App& command, Invocation& invocation);
void register_ask(CLI::App& command, Invocation& invocation);
void register_fail(CLI::App& command, Invocation& invocation);
// Views, search, filters and transfer.
void register_sent(CLI::App& command, Invocation& invocation);
void register_search(CLI::App& command, Invocation& invocation);
void register_serve(CLI::App& command, Invocation& invocation);
void register_export(CLI::App& command, Invocation& invocation);
void register_import(CLI::App& command, Invocation& invocation);
void register_purge(CLI::App& command, Invocation& invocation);

} // namespace mailroom::cli
