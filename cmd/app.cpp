#include "app.hpp"

#include <algorithm>
#include <csignal>
#include <exception>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "factory.hpp"
#include "parser.hpp"
#include "render/json.hpp"
#include "util/terminal.hpp"
#include "base/exit_code.hpp"
#include "config/config.hpp"
#include "mail/address.hpp"
#include "mail/limits.hpp"
#include "support.hpp"
#include "text/strings.hpp"

namespace mailroom::cli {

namespace {

constexpr std::string_view k_usage = "usage: mailroom [global options] <command> [arguments]";

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

// "did you mean "--limit"?" for an option close to `word` among `leaf`'s and the global ones.
std::string option_hint(const CLI::App* leaf, const std::string& word)
{
  if (leaf != nullptr) {
    const auto close = mail::suggest_mailboxes(word, option_names(*leaf), 1);
    if (!close.empty()) {
      return fmt::format("did you mean \"{}\"?", close.front());
    }
  }
  return "run with --help to see the options";
}

// `--limit: Value 0 not in range ...` (CLI11's range check) or `Could not convert: --limit = x`:
// the option and the value, when the message has that shape.
std::optional<std::pair<std::string, std::string>> bad_value(const std::string& what)
{
  const auto value_at = what.find(": Value ");
  if (value_at != std::string::npos && what.find(" not in range") != std::string::npos) {
    const auto begin = value_at + 8;
    return std::pair{what.substr(0, value_at), what.substr(begin, what.find(" not in range") - begin)};
  }
  const std::string_view convert = "Could not convert: ";
  if (what.rfind(convert, 0) == 0) {
    const auto equals = what.find(" = ");
    if (equals != std::string::npos) {
      return std::pair{what.substr(convert.size(), equals - convert.size()), what.substr(equals + 3)};
    }
  }
  return std::nullopt;
}

// CLI11's messages in the contract's style: one lower-case line, user values quoted, and a
// did-you-mean for an unknown option.
Error parse_error_to_error(const CLI::ParseError& e, const CLI::App* leaf)
{
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    const auto colon = what.find(": ");
    std::string first = colon == std::string::npos ? what : what.substr(colon + 2);
    first = first.substr(0, first.find(' '));
    if (!first.empty() && first[0] == '-') {
      const std::string name = first.substr(0, first.find('='));
      return usage_error(fmt::format("unknown option \"{}\"", name), option_hint(leaf, name));
    }
    return usage_error(fmt::format("unexpected argument \"{}\"", first));
  }
  if (dynamic_cast<const CLI::ValidationError*>(&e) != nullptr ||
      dynamic_cast<const CLI::ConversionError*>(&e) != nullptr) {
    if (auto bad = bad_value(what)) {
      const auto& [option, value] = *bad;
      return usage_error(fmt::format("{} must be a whole number of at least 1, not \"{}\"", option, value));
    }
  }
  return usage_error(lower_first(what), "run with --help to see the options");
}

int print_version(Output& out, bool json)
{
  if (json) {
    nlohmann::json doc = render::json_document();
    doc["version"] = MAILROOM_VERSION;
    doc["stores"] = nlohmann::json::array();
    for (const auto scheme : providers::provider_schemes()) {
      doc["stores"].push_back(std::string(scheme));
    }
    (void)out.out(render::dump_json(doc));
  } else {
    (void)out.out(fmt::format("mailroom {} (stores: {})\n", MAILROOM_VERSION, fmt::join(providers::provider_schemes(), ", ")));
  }
  return to_int(ExitCode::ok);
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

// What the terminal allows this run: colour, table width, a pager.
struct Terminal {
  bool color = false;
  std::size_t width = 0;
  std::optional<std::pair<std::vector<std::string>, util::EnvPairs>> pager; // argv and extra env
};

std::optional<std::size_t> positive_number(const std::optional<std::string>& text)
{
  if (!text || text->empty() || text->size() > 5 ||
      text->find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  const auto n = static_cast<std::size_t>(std::stoul(*text));
  return n > 0 ? std::optional<std::size_t>(n) : std::nullopt;
}

// Colour only at a terminal that is not dumb, without --no-color or NO_COLOR (any value, per
// no-color.org); width from $COLUMNS, else the terminal's; a pager only for a command that pages,
// when standard input and output are both terminals: $MAILROOM_PAGER, else $PAGER, else
// `less -FRX` ("" or "cat" mean none), with LESS=FRX and LV=-c when unset, as git does.
Terminal terminal_for(const CommandSpec& spec, const GlobalOptions& globals, const AppDeps& deps)
{
  Terminal term;
  const bool tty = deps.out.out_is_tty();
  const bool dumb = deps.env.get("TERM").value_or("") == "dumb";
  term.color = !globals.json && !globals.no_color && !deps.env.get("NO_COLOR").has_value() && !dumb && tty;
  if (auto columns = positive_number(deps.env.get("COLUMNS"))) {
    term.width = *columns;
  } else if (tty) {
    term.width = deps.out.terminal_width().value_or(0);
  }
  if (spec.paging != Paging::at_terminal || globals.json || globals.no_pager || dumb || !tty || !deps.in.is_tty()) {
    return term;
  }
  std::optional<std::string> line = deps.env.get("MAILROOM_PAGER");
  if (!line) {
    line = deps.env.get("PAGER");
  }
  auto argv = util::split_command_line(line.value_or("less -FRX"));
  if (!argv.ok() || argv->empty() || (argv->size() == 1 && argv->front() == "cat")) {
    return term;
  }
  util::EnvPairs env;
  if (!deps.env.get("LESS")) {
    env.emplace_back("LESS", "FRX");
  }
  if (!deps.env.get("LV")) {
    env.emplace_back("LV", "-c");
  }
  term.pager.emplace(std::move(argv).value(), std::move(env));
  return term;
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
  ProviderOpener opener = [&](const mail::ProviderSettings& settings) { return deps.open_provider(settings, me); };
  Context ctx{config, policy, *out, deps.in, deps.clock, me, deps.env, slot, json, term.color, name, inv.globals,
              opener, term.width};
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
    Prepared prepared = prepare_args(args);
    json = prepared.json;
    if (prepared.version_only) {
      return print_version(deps.out, prepared.json);
    }
    if (prepared.unknown) {
      report_error(deps.out, "", unknown_command(*prepared.unknown), json);
      return to_int(ExitCode::usage);
    }
    Invocation inv;
    std::vector<std::string> stray;
    CLI::App app{"mailroom: mail for teams of AI agents", "mailroom"};
    // Only the invoked command is built; an unknown word or none needs only the names (help,
    // did-you-mean).
    build_parser(app, inv, stray, prepared.command ? Scope::one : Scope::names, prepared.command.value_or(""));
    std::vector<std::string> reversed(prepared.args.rbegin(), prepared.args.rend());
    try {
      app.parse(reversed);
    } catch (const CLI::ParseError& e) {
      const auto [name, leaf] = selected(app);
      command = name;
      json = inv.globals.json;
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
