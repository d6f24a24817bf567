#include "app.hpp"
#include "app_texts.hpp"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <optional>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/exit_code.hpp"
#include "commands.hpp"
#include "config/config.hpp"
#include "factory.hpp"
#include "hook_deadline.hpp"
#include "hook_guard.hpp"
#include "hooks/budget.hpp"
#include "mail/address.hpp"
#include "mail/limits.hpp"
#include "ops/errors.hpp"
#include "ops/identity.hpp"
#include "ops/presence.hpp"
#include "parse_errors.hpp"
#include "parser.hpp"
#include "render/json.hpp"
#include "support.hpp"
#include "terminal_setup.hpp"
#include "text/conninfo.hpp"
#include "text/strings.hpp"
#include "util/terminal.hpp"

namespace mailroom::cli {

namespace {

int perform(CLI::App& app, Invocation& inv, const std::vector<std::string>& stray, const AppDeps& deps)
{
  const auto [name, leaf] = selected(app);
  const bool json = inv.globals.json;
  if (leaf == &app) {
    if (!stray.empty()) {
      report_error(deps.out, "", unknown_command(stray.front()), json);
    } else if (json) {
      report_error(deps.out, "", usage_error("missing command"), json);
    } else {
      deps.out.err("mailroom: missing command\n" + command_list());
    }
    return to_int(ExitCode::usage);
  }
  if (!stray.empty()) {
    report_error(deps.out, name, usage_error(fmt::format("unexpected argument \"{}\"", stray.front())), json);
    return to_int(ExitCode::usage);
  }
  const Runner* runner = inv.find(leaf);
  const CommandSpec* spec = find_command(name.substr(0, name.find(' ')));
  if (runner == nullptr || spec == nullptr) {
    report_error(deps.out, name, usage_error("missing subcommand"), json);
    return to_int(ExitCode::usage);
  }

  if (inv.globals.rig) {
    report_error(deps.out, name,
                 usage_error("--rig is Gas City's flag; mailroom has no rigs",
                             fmt::format("qualify the mailbox as rig/name (--as {}/<name>)",
                                         text::cap_for_echo(*inv.globals.rig))),
                 json);
    return to_int(ExitCode::usage);
  }
  std::optional<util::RelocatedEnvironment> city;
  if (inv.globals.city) {
    std::error_code ec;
    const std::filesystem::path dir = std::filesystem::absolute(*inv.globals.city, ec);
    if (ec || !std::filesystem::is_directory(dir, ec)) {
      report_error(
          deps.out, name,
          usage_error(fmt::format("--city: no directory \"{}\"", text::cap_for_echo(*inv.globals.city))),
          json);
      return to_int(ExitCode::usage);
    }
    city.emplace(deps.env, dir.lexically_normal().string());
  }
  const util::Environment& env = city ? static_cast<const util::Environment&>(*city) : deps.env;

  config::Config config;
  config::Identity me{std::string(mail::k_human), config::default_origin()};
  if (spec->needs != Needs::nothing) {
    auto loaded = config::discover_config(env, {inv.globals.config, inv.globals.db});
    if (!loaded.ok()) {
      report_error(deps.out, name, loaded.error(), json);
      return to_int(to_exit_code(loaded.error().code));
    }
    config = std::move(loaded).value();
    // An empty --from, like an empty --as, is none (contract "Round 4: decisions after review").
    const bool from = inv.globals.from.has_value() && !text::trim(*inv.globals.from).empty();
    auto identity = config::resolve_identity(env, config, from ? inv.globals.from : inv.globals.as,
                                             from ? "--from" : "--as");
    if (!identity.ok()) {
      report_error(deps.out, name, identity.error(), json);
      return to_int(to_exit_code(identity.error().code));
    }
    me = std::move(identity).value();
  }

  const mail::MailPolicy policy = config::mail_policy(config);
  if (inv.globals.verbose && spec->needs != Needs::nothing) {
    deps.out.err(fmt::format("mailroom: store {} ({}){}\n", text::redact_conninfo(config.store_path.value),
                             config.store_reason,
                             config.user_wide_store ? "; warning: this store is shared by everything you run "
                                                      "outside a workspace"
                                                    : ""));
    if (!config.ignored_config.empty()) {
      deps.out.err(fmt::format("mailroom: ignored {} (this repository's configuration is {})\n",
                               config.ignored_config, config.file));
    }
  }
  const bool registers_on_use = name == "send" && policy.register_policy == mail::RegisterPolicy::on_send;
  std::unique_ptr<mail::Provider> owned;
  ProviderSlot slot([&]() -> Result<mail::Provider*> {
    mail::Provider* provider = deps.provider;
    if (provider == nullptr) {
      TRY_ASSIGN(mail::ProviderSettings settings, config::provider_settings(config));
      settings.store.access = spec->access;
      if (deps.deadline != nullptr) {
        settings.store.timeout =
            std::min(settings.store.timeout, deps.deadline->budget()); // the hook's budget
      }
      TRY_ASSIGN(owned, deps.open_provider(settings, me));
      provider = owned.get();
    }
    if (spec->needs == Needs::mailbox) {
      TRY(ops::guard_identity(*provider, me, policy, registers_on_use));
    }
    return provider;
  });
  const Terminal term = terminal_for(*spec, inv.globals, deps);
  Output* out = &deps.out;
  std::optional<QuietOutput> quiet;
  if (inv.globals.quiet && !json && spec->quiet == Quiet::drops_output) {
    out = &quiet.emplace(*out);
  }
  std::optional<PagerOutput> pager;
  if (term.pager) {
    out = &pager.emplace(*out, std::move(term.pager->first), std::move(term.pager->second));
  }
  ProviderOpener opener = [&](const mail::ProviderSettings& settings) {
    return deps.open_provider(settings, me);
  };
  ops::Session session{config, policy, deps.clock, me, env, slot};
  Context ctx{config,  policy, *out,       deps.in, deps.clock,  me,     env,       slot,
              session, json,   term.color, name,    inv.globals, opener, term.width};
  ctx.deadline = deps.deadline;
  session.notice = [&ctx](const ops::Notice& notice) { print_notice(ctx, notice); };
  // Presence (ops/presence.hpp, the one table): a command acting as its mailbox records it as
  // `command` (`check`, `wait`, `watch` as themselves); wait and watch when they start.
  ops::Presence presence;
  if (spec->needs == Needs::mailbox) {
    presence = ops::Presence::of(session, name, ops::Source::command);
  }
  presence.before(session);
  auto result = (*runner)(ctx);
  if (pager) {
    pager->finish();
  }
  if (!ctx.draft.empty()) {
    if (result.ok()) {
      ::unlink(ctx.draft.c_str());
    } else if (!is_closed_pipe(result.error())) {
      Error error = std::move(result).error();
      error.hint = fmt::format("your message is saved in {}", ctx.draft);
      result = Result<ExitCode>(std::move(error));
    }
  }
  if (!result.ok()) {
    if (is_closed_pipe(result.error())) {
      // The reader went away and nothing was changed (a command that changed state says so in
      // its own error, exit 5): a pipe into `head` is not a failure (contract "Closed pipes").
      return to_int(ExitCode::ok);
    }
    report_error(deps.out, name, ops::in_gc_words(config.compat_gc.value, result.error()), json);
    return to_int(to_exit_code(result.error().code));
  }
  bool hook_failed = false;
  if (deps.hook_output != nullptr) {
    // The hook's answer goes out now, before the presence write: nothing after it makes the
    // agent wait (and the deadline ends the process silently from here on).
    hook_failed = deps.hook_output->failed();
    deps.hook_output->answer(*result == ExitCode::ok);
  }
  if (!hook_failed) {
    // A read or a write that counts as the agent's records last_seen at most once a minute; the
    // fast path stays read-only while it is fresh (a write's own transaction just wrote it).
    // Views record nothing. It never waits for a lock (skipped when the store is busy) and never
    // opens a store the command did not. A failure here never fails the command.
    presence.after(session);
  }
  return to_int(*result);
}

} // namespace

namespace {

int run_args_inner(const std::vector<std::string>& args, const AppDeps& deps);

// `watch … --exec CMD ARG...` and `agents set NAME --wake ARGV...`: everything after the flag is
// an argv (the handler's, the wake target's), run without a shell and never read as mailroom's
// options (nor a `--` in it as theirs), so it is cut off here, before prepare_args and CLI11 see
// it; the flag stays as a flag. Called only for that command: the first `flag` after the first
// word `command`, and only before a `--`.
std::vector<std::string> split_tail_argv(std::vector<std::string> args, std::string_view command,
                                         std::string_view flag, std::vector<std::string>& tail)
{
  const auto named = std::find(args.begin(), args.end(), command);
  if (named == args.end()) {
    return args;
  }
  const std::string with_value = std::string(flag) + "=";
  for (auto it = named + 1; it != args.end() && *it != "--"; ++it) {
    if (*it == flag || text::starts_with(*it, with_value)) {
      if (it->size() > flag.size()) {
        tail.push_back(it->substr(flag.size() + 1));
      }
      tail.insert(tail.end(), it + 1, args.end());
      *it = std::string(flag);
      args.erase(it + 1, args.end());
      break;
    }
  }
  return args;
}

} // namespace

int run_args(const std::vector<std::string>& args, const AppDeps& deps)
{
  if (!is_hook_invocation(args)) {
    return run_args_inner(args, deps);
  }
  // A hook line: exit 0 whatever happens, the answer only when complete, one stderr line at most.
  HookOutput output(deps.out, deps.deadline);
  const AppDeps hook{deps.env,           output,        deps.in,       deps.clock,
                     deps.open_provider, deps.provider, deps.deadline, &output};
  const int code = run_args_inner(args, hook);
  output.answer(code == to_int(ExitCode::ok));
  return to_int(ExitCode::ok);
}

namespace {

int run_args_inner(const std::vector<std::string>& args, const AppDeps& deps)
{
  std::string command;
  bool json = false;
  // The single catch-all: parse errors, toml or library exceptions and anything unexpected end
  // here as one line and a contract exit code, never as CLI11's 100+ codes.
  try {
    Prepared prepared = prepare_args(args);
    std::vector<std::string> exec_argv;
    if (prepared.command == "watch") {
      prepared = prepare_args(split_tail_argv(args, "watch", "--exec", exec_argv));
    } else if (prepared.command == "agents") {
      prepared = prepare_args(split_tail_argv(args, "agents", "--wake", exec_argv));
    }
    json = prepared.json;
    if (prepared.version_only) {
      return print_version(deps.out, prepared.json);
    }
    if (prepared.unknown) {
      report_error(deps.out, "", unknown_command(*prepared.unknown), json);
      return to_int(ExitCode::usage);
    }
    if (prepared.mail_alone && !prepared.version_only) {
      // `mailroom mail` alone, as gc answers a bare `gc mail` (with mailroom's exit code).
      report_error(deps.out, "mail",
                   usage_error("missing subcommand (archive, check, count, delete, inbox, mark-read, "
                               "mark-unread, peek, read, reply, send, thread)"),
                   json);
      return to_int(ExitCode::usage);
    }
    Invocation inv;
    std::vector<std::string> stray;
    std::optional<CLI::App> parsed;
    try {
      parse_command_line(parsed, inv, stray, prepared, exec_argv);
    } catch (const CLI::ParseError& e) {
      CLI::App& app = *parsed;
      const auto [name, leaf] = selected(app);
      command = name;
      json = inv.globals.json || prepared.json; // CLI11 stored nothing if it failed before --json
      if (dynamic_cast<const CLI::CallForHelp*>(&e) != nullptr ||
          dynamic_cast<const CLI::CallForAllHelp*>(&e) != nullptr) {
        std::ostringstream help;
        help << app.help();
        (void)deps.out.out(help.str());
        return to_int(ExitCode::ok);
      }
      report_error(deps.out, command, parse_error_to_error(e, leaf), json);
      return to_int(ExitCode::usage);
    }
    CLI::App& app = *parsed;
    if (inv.globals.version) {
      return print_version(deps.out, inv.globals.json);
    }
    if (!prepared.operands.empty()) {
      CLI::App* leaf = &app;
      while (!leaf->get_subcommands().empty()) {
        leaf = leaf->get_subcommands().front();
      }
      if (leaf == &app || !add_operands(*leaf, prepared.operands)) {
        report_error(deps.out, selected(app).first,
                     usage_error(fmt::format("unexpected argument \"{}\"", prepared.operands.front())),
                     inv.globals.json);
        return to_int(ExitCode::usage);
      }
    }
    command = selected(app).first;
    json = inv.globals.json;
    return perform(app, inv, stray, deps);
  } catch (const std::exception& e) {
    report_error(deps.out, command,
                 make_error(ErrorCode::store_error, fmt::format("internal error: {}", e.what())), json);
    return to_int(ExitCode::failure);
  }
}

} // namespace

constexpr std::string_view k_gc_mail_link = "mailroom-gc-mail";

int run(int argc, char** argv)
{
  const auto start = HookDeadline::Clock::now();
  // A closed stdout must show up as a failed write (so `read` keeps the message unread and a
  // committed send says so on stderr), not as a silent death by SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  std::vector<std::string> args;
  // Installed as `mailroom-gc-mail` (a link), the binary is `mailroom gc-mail`: Gas City's mail
  // script (docs/gas-city.md).
  const std::string_view invoked = argc > 0 ? std::string_view(argv[0]) : std::string_view();
  const bool gc_mail_link = invoked.substr(invoked.rfind('/') + 1) == k_gc_mail_link;
  if (gc_mail_link) {
    args.emplace_back("gc-mail");
  }
  for (int i = 1; i < argc; ++i) {
    args.emplace_back(argv[i]);
  }
  const bool gc_mail = !args.empty() && args.front() == "gc-mail";
  // A hook's budget runs from here, decided from the raw words before anything can fail.
  std::unique_ptr<HookDeadline> deadline;
  if (const HookWords words = read_hook_words(args); words.hook) {
    const char* budget_env = std::getenv(std::string(hooks::k_budget_env).c_str());
    auto armed = HookDeadline::arm(
        start,
        hooks::early_budget(words.budget, budget_env ? std::optional<std::string>(budget_env) : std::nullopt),
        words.json);
    if (armed.ok()) {
      deadline = std::move(armed).value();
    }
  }
  util::ProcessEnvironment env;
  FdOutput out;
  FdInput in;
  mail::SystemClock clock;
  AppDeps deps{env, out, in, clock,
               [&clock](const mail::ProviderSettings& settings, const config::Identity& identity) {
                 return providers::make_provider(settings, clock, identity.name);
               }};
  deps.deadline = deadline.get();
  const int code = run_args(args, deps);
  // To gc, a script's exit 2 means success: gc-mail turns even a usage error into exit 1.
  return gc_mail && code == to_int(ExitCode::usage) ? to_int(ExitCode::none) : code;
}

} // namespace mailroom::cli
