#include "app.hpp"

#include <algorithm>
#include <csignal>
#include <exception>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "factory.hpp"
#include "base/exit_code.hpp"
#include "config/config.hpp"
#include "mail/address.hpp"
#include "mail/limits.hpp"
#include "support.hpp"
#include "text/strings.hpp"

namespace mailroom::cli {

namespace {

constexpr std::string_view k_usage = "usage: mailroom [global options] <command> [arguments]";

// The root App: global options (accepted before or after the command, hence fallthrough) and one
// subcommand per table entry. `stray` catches words that are neither a command nor an argument.
void build_app(CLI::App& app, Invocation& inv, std::vector<std::string>& stray)
{
  app.fallthrough();
  app.require_subcommand(0, 1);
  // A plain flag rather than CLI11's version flag, which reports itself by throwing: in a static
  // binary the first exception costs ~4 ms of unwinder set-up (BENCHMARKS.md, B10).
  app.add_flag("--version", inv.globals.version, "print the version and exit");
  app.footer("Run 'mailroom <command> --help' for a command's options.\n"
             "Example:\n  mailroom send mayor \"build is green\"\n  mailroom --as mayor inbox");
  auto& g = inv.globals;
  app.add_flag("--json", g.json, "machine output: one JSON object on stdout, errors as JSON on stderr");
  app.add_option("--as", g.as, "act as mailbox NAME")->type_name("NAME");
  app.add_option("--config", g.config, "use this config file instead of discovery")->type_name("PATH");
  app.add_option("--db", g.db, "use this SQLite store")->type_name("PATH");
  app.add_flag("--no-color", g.no_color, "no colour even on a terminal (NO_COLOR is honoured too)");
  app.add_flag("--verbose", g.verbose, "say on stderr which store is used and why");
  app.add_option("stray", stray)->group("");
  for (const CommandSpec& spec : commands()) {
    CLI::App* sub = app.add_subcommand(std::string(spec.name), std::string(spec.description));
    spec.register_fn(*sub, inv);
  }
}

// The parsed chain below the root: ("agents add", leaf App).
std::pair<std::string, const CLI::App*> selected(const CLI::App& app)
{
  std::string name;
  const CLI::App* leaf = &app;
  for (;;) {
    const auto subs = leaf->get_subcommands();
    if (subs.empty()) {
      break;
    }
    leaf = subs.front();
    name += name.empty() ? leaf->get_name() : " " + leaf->get_name();
  }
  return {name, leaf};
}

std::string lower_first(std::string text)
{
  if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z') {
    text[0] = static_cast<char>(text[0] - 'A' + 'a');
  }
  const auto newline = text.find('\n');
  if (newline != std::string::npos) {
    text.resize(newline);
  }
  while (!text.empty() && (text.back() == '.' || text.back() == ' ')) {
    text.pop_back();
  }
  return text;
}

// CLI11's messages in the contract's style: one lower-case line, user values quoted.
Error parse_error_to_error(const CLI::ParseError& e)
{
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    const auto colon = what.find(": ");
    std::string first = colon == std::string::npos ? what : what.substr(colon + 2);
    first = first.substr(0, first.find(' '));
    if (!first.empty() && first[0] == '-') {
      return usage_error(fmt::format("unknown option \"{}\"", first), "run with --help to see the options");
    }
    return usage_error(fmt::format("unexpected argument \"{}\"", first));
  }
  return usage_error(lower_first(what), "run with --help to see the options");
}

std::string command_list()
{
  std::string text = fmt::format("{}\n\ncommands:\n", k_usage);
  for (const CommandSpec& spec : commands()) {
    text += fmt::format("  {:<12} {}\n", spec.name, spec.description);
  }
  text += "\nRun 'mailroom --help' for the global options.\n";
  return text;
}

Error unknown_command(const std::string& word)
{
  Error error = usage_error(fmt::format("unknown command \"{}\"", word));
  const auto suggestions = suggest_commands(word);
  if (!suggestions.empty()) {
    error.hint = fmt::format("did you mean \"{}\"?", suggestions.front());
  } else {
    error.hint = "run 'mailroom --help' for the list of commands";
  }
  return error;
}

// The identity guard: a command acting as a mailbox needs a known one, so a typo in --as or
// $MAILROOM_IDENTITY is an error, never a new empty mailbox. Known: registered, reserved, or listed
// in [agents] names. `send` as an unknown sender passes when [agents] register = "on-send".
Result<void> guard_identity(mail::Provider& provider, const config::Identity& me, const mail::MailPolicy& policy,
                            bool registers_on_use)
{
  if (!provider.capabilities().registry || mail::is_reserved_mailbox(me.name) || registers_on_use ||
      std::find(policy.config_agents.begin(), policy.config_agents.end(), me.name) != policy.config_agents.end()) {
    return {};
  }
  TRY_ASSIGN(mail::MailboxInfo info, provider.mailbox_info(me.name));
  if (info.state == mail::MailboxInfo::State::active) {
    return {};
  }
  const std::string where = config::to_string(me.origin);
  Error error = make_error(ErrorCode::unknown_recipient,
                           info.state == mail::MailboxInfo::State::retired
                               ? fmt::format("identity \"{}\" (from {}) is a retired mailbox", me.name, where)
                               : fmt::format("unknown identity \"{}\" (from {})", me.name, where));
  error.input = me.name;
  auto directory = provider.directory();
  if (directory.ok()) {
    std::vector<std::string> known = directory->active;
    known.insert(known.end(), policy.config_agents.begin(), policy.config_agents.end());
    error.suggestions = mail::suggest_mailboxes(me.name, known);
  }
  const std::string add = fmt::format("register it with: mailroom agents add {}", me.name);
  error.hint = error.suggestions.empty() ? add
                                         : fmt::format("did you mean \"{}\"? ({})", error.suggestions.front(), add);
  return error;
}

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

  config::Config config;
  config::Identity me{std::string(mail::k_human), config::default_origin()};
  if (spec->needs != Needs::nothing) {
    auto loaded = config::discover_config(deps.env, {inv.globals.config, inv.globals.db});
    if (!loaded.ok()) {
      report_error(deps.out, name, loaded.error(), json);
      return to_int(to_exit_code(loaded.error().code));
    }
    config = std::move(loaded).value();
    const bool from = inv.globals.from.has_value();
    auto identity = config::resolve_identity(deps.env, config, from ? inv.globals.from : inv.globals.as,
                                           from ? "--from" : "--as");
    if (!identity.ok()) {
      report_error(deps.out, name, identity.error(), json);
      return to_int(to_exit_code(identity.error().code));
    }
    me = std::move(identity).value();
  }

  const mail::MailPolicy policy = config::mail_policy(config);
  if (inv.globals.verbose && spec->needs != Needs::nothing) {
    deps.out.err(fmt::format("mailroom: store {} ({}){}\n", providers::display_store(config.store_path.value),
                             config.store_reason,
                             config.user_wide_store ? "; warning: this store is shared by everything you run "
                                                      "outside a workspace"
                                                    : ""));
  }
  const bool registers_on_use =
      name == "send" && policy.register_policy == mail::RegisterPolicy::on_send;
  std::unique_ptr<mail::Provider> owned;
  ProviderSlot slot([&]() -> Result<mail::Provider*> {
    mail::Provider* provider = deps.provider;
    if (provider == nullptr) {
      TRY_ASSIGN(mail::ProviderSettings settings, config::provider_settings(config));
      settings.store.access = spec->access;
      TRY_ASSIGN(owned, deps.open_provider(settings, me));
      provider = owned.get();
    }
    if (spec->needs == Needs::mailbox) {
      TRY(guard_identity(*provider, me, policy, registers_on_use));
    }
    return provider;
  });
  const bool color = !json && !inv.globals.no_color && !deps.env.get("NO_COLOR").has_value() && deps.out.out_is_tty();
  ProviderOpener opener = [&](const mail::ProviderSettings& settings) { return deps.open_provider(settings, me); };
  Context ctx{config, policy, deps.out, deps.in, deps.clock, me, deps.env, slot, json, color, name, inv.globals,
              opener};
  auto result = (*runner)(ctx);
  if (!result.ok()) {
    report_error(deps.out, name, result.error(), json);
    return to_int(to_exit_code(result.error().code));
  }
  if (spec->needs == Needs::mailbox && spec->access == Access::read) {
    // Presence: a command that only reads records last_seen at most once a minute; the fast path
    // stays read-only while it is fresh. A failure here never fails the command.
    auto opened = slot.get();
    if (opened.ok()) {
      (void)(*opened)->touch(me.name, mail::k_presence_interval_ms);
    }
  }
  return to_int(*result);
}

} // namespace

namespace {

// True when `args` run `check --inject` or `check --hook-format …`: a hook line, which must never
// fail the agent (contract "Hooks for coding agents").
bool is_hook_invocation(const std::vector<std::string>& args)
{
  constexpr std::string_view k_valued[] = {"--as", "--config", "--db"};
  std::size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (std::find(std::begin(k_valued), std::end(k_valued), arg) != std::end(k_valued)) {
      ++i; // its value
      continue;
    }
    if (arg.empty() || arg[0] != '-') {
      break;
    }
  }
  if (i >= args.size() || args[i] != "check") {
    return false;
  }
  return std::any_of(args.begin() + static_cast<std::ptrdiff_t>(i), args.end(), [](const std::string& arg) {
    return arg == "--inject" || text::starts_with(arg, "--hook-format");
  });
}

// Passes standard output through and keeps only the first line written to standard error, for a
// hook invocation: whatever failed is one bounded line, and the agent never sees an exit code.
class OneLineErrors final : public Output {
public:
  explicit OneLineErrors(Output& inner) : m_inner(inner) {}
  Result<void> out(std::string_view text) override { return m_inner.out(text); }
  void err(std::string_view text) override { m_text.append(text); }
  bool out_is_tty() const override { return m_inner.out_is_tty(); }

  // Writes the first error line, capped, to the real standard error.
  void flush()
  {
    if (m_text.empty()) {
      return;
    }
    const std::string line = m_text.substr(0, m_text.find('\n'));
    m_inner.err(text::cap_for_echo(line, 400) + "\n");
  }

private:
  Output& m_inner;
  std::string m_text;
};

int run_args_inner(const std::vector<std::string>& args, const AppDeps& deps);

} // namespace

int run_args(const std::vector<std::string>& args, const AppDeps& deps)
{
  if (!is_hook_invocation(args)) {
    return run_args_inner(args, deps);
  }
  OneLineErrors errors(deps.out);
  const AppDeps hook{deps.env, errors, deps.in, deps.clock, deps.open_provider, deps.provider};
  (void)run_args_inner(args, hook);
  errors.flush();
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
    Invocation inv;
    std::vector<std::string> stray;
    CLI::App app{"mailroom: mail for teams of AI agents", "mailroom"};
    build_app(app, inv, stray);
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    try {
      app.parse(reversed);
    } catch (const CLI::ParseError& e) {
      command = selected(app).first;
      json = inv.globals.json;
      if (dynamic_cast<const CLI::CallForHelp*>(&e) != nullptr ||
          dynamic_cast<const CLI::CallForAllHelp*>(&e) != nullptr) {
        std::ostringstream help;
        help << app.help();
        (void)deps.out.out(help.str());
        return to_int(ExitCode::ok);
      }
      report_error(deps.out, command, parse_error_to_error(e), json);
      return to_int(ExitCode::usage);
    }
    if (inv.globals.version) {
      (void)deps.out.out(fmt::format("mailroom {} (stores: {})\n", MAILROOM_VERSION,
                                    fmt::join(providers::provider_schemes(), ", ")));
      return to_int(ExitCode::ok);
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

int run(int argc, char** argv)
{
  // A closed stdout must show up as a failed write (so `read` keeps the message unread and a
  // committed send says so on stderr), not as a silent death by SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    args.emplace_back(argv[i]);
  }
  util::ProcessEnvironment env;
  FdOutput out;
  FdInput in;
  mail::SystemClock clock;
  AppDeps deps{env, out, in, clock,
               [&clock](const mail::ProviderSettings& settings, const config::Identity& identity) {
                 return providers::make_provider(settings, clock, identity.name);
               }};
  return run_args(args, deps);
}

} // namespace mailroom::cli
