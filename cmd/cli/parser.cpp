#include "parser.hpp"

#include <algorithm>
#include <array>

namespace mailroom::cli {

namespace {

constexpr std::array k_globals = {
    GlobalSpec{"--json", "",
               "machine output: one JSON object on stdout, errors and warnings as JSON on stderr",
               &GlobalOptions::json},
    GlobalSpec{"--as", "NAME", "act as mailbox NAME", nullptr, &GlobalOptions::as},
    GlobalSpec{"--config", "PATH", "use this config file instead of discovery", nullptr,
               &GlobalOptions::config},
    GlobalSpec{"--db", "PATH", "use this store (a SQLite path)", nullptr, &GlobalOptions::db},
    GlobalSpec{"-q,--quiet", "", "no confirmation lines on stdout (errors and warnings still go to stderr)",
               &GlobalOptions::quiet},
    GlobalSpec{"--no-color", "", "no colour even on a terminal (NO_COLOR and TERM=dumb are honoured too)",
               &GlobalOptions::no_color},
    GlobalSpec{"--no-pager", "", "never page long output through $PAGER", &GlobalOptions::no_pager},
    GlobalSpec{"--city", "DIR", "run as if started in DIR (Gas City's flag)", nullptr, &GlobalOptions::city},
    GlobalSpec{"--rig", "NAME", "Gas City's rig flag: refused; qualify the mailbox as rig/name instead",
               nullptr, &GlobalOptions::rig},
    GlobalSpec{"--verbose", "", "say on stderr which store is used and why", &GlobalOptions::verbose},
    // A plain flag rather than CLI11's version flag, which reports itself by throwing: in a static
    // binary the first exception costs the unwinder's set-up (BENCHMARKS.md, B10).
    GlobalSpec{"--version", "", "print the version and exit (with --json: as JSON)", &GlobalOptions::version},
};

// Help in the contract's words: positionals as `<id>`, a list of them as `<id>...`.
class Formatter final : public CLI::Formatter {
public:
  std::string make_option_name(const CLI::Option* opt, bool is_positional) const override
  {
    if (!is_positional) {
      return CLI::Formatter::make_option_name(opt, false);
    }
    return positional_label(opt);
  }

  std::string make_option_opts(const CLI::Option* opt) const override
  {
    const std::string value = value_name(*opt);
    if (opt->get_positional() || value.empty()) {
      return {};
    }
    std::string out = " " + value;
    if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) {
      out += " ...";
    }
    return out;
  }

  std::string make_usage(const CLI::App* app, std::string name) const override
  {
    std::string out = "Usage: " + name;
    if (!app->get_options([](const CLI::Option* o) { return o->nonpositional(); }).empty()) {
      out += " [OPTIONS]";
    }
    // Hidden positionals (the root's stray words) are not part of the usage.
    for (const CLI::Option* opt : app->get_options(
             [](const CLI::Option* o) { return o->get_positional() && !o->get_group().empty(); })) {
      out += " " + make_option_usage(opt);
    }
    if (!app->get_subcommands({}).empty()) {
      out += app->get_parent() == nullptr ? " <command>" : " [<subcommand>]";
    }
    return out + "\n";
  }

  std::string make_option_usage(const CLI::Option* opt) const override
  {
    const std::string label = positional_label(opt);
    return opt->get_required() ? label : "[" + label + "]";
  }

private:
  static std::string positional_label(const CLI::Option* opt)
  {
    std::string name = opt->get_name(true, false);
    // A command that takes one message ID names its positional "id" and collects into a vector
    // only to refuse a second ID in its own words: its help shows `<id>`.
    const bool many = opt->get_expected_max() > 1 && name != "id";
    if (many && name.size() > 1 && name.back() == 's') {
      name.pop_back(); // "ids" -> "<id>..."
    }
    return "<" + name + ">" + (many ? "..." : "");
  }
};

bool is_help_flag(std::string_view word)
{
  return word == "-h" || word == "--help";
}

// The index of the command word, or args.size(). `all_global` says whether every word before it
// is a known global option (or its value); `json` and `version` whether those were among them.
struct Located {
  std::size_t index = 0;
  bool all_global = true;
  bool json = false;
  bool version = false;
};

Located locate(const std::vector<std::string>& args)
{
  Located at;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word == "--") {
      at.index = i + 1;
      at.all_global = false;
      return at;
    }
    if (word.size() < 2 || word[0] != '-') {
      at.index = i;
      return at;
    }
    const std::string_view name = std::string_view(word).substr(0, word.find('='));
    const GlobalSpec* spec = find_global(name);
    if (spec == nullptr) {
      at.all_global = false;
      continue;
    }
    at.json = at.json || spec->flag == &GlobalOptions::json;
    at.version = at.version || spec->flag == &GlobalOptions::version;
    if (!spec->value_name.empty() && name.size() == word.size()) {
      ++i; // its value
    }
  }
  at.index = args.size();
  return at;
}

} // namespace

std::span<const GlobalSpec> global_options()
{
  return {k_globals.data(), k_globals.size()};
}

const GlobalSpec* find_global(std::string_view word)
{
  for (const GlobalSpec& spec : k_globals) {
    std::string_view names = spec.names;
    while (!names.empty()) {
      const auto comma = names.find(',');
      if (names.substr(0, comma) == word) {
        return &spec;
      }
      names = comma == std::string_view::npos ? std::string_view() : names.substr(comma + 1);
    }
  }
  return nullptr;
}

void build_parser(CLI::App& app, Invocation& inv, std::vector<std::string>& stray, Scope scope,
                  std::string_view command)
{
  app.formatter(std::make_shared<Formatter>());
  app.fallthrough();
  app.require_subcommand(0, 1);
  app.footer("Run 'mailroom help <command>' for a command's options, 'man mailroom' for the manual.\n"
             "Example:\n  mailroom send mayor \"build is green\"\n  mailroom --as mayor inbox");
  for (const GlobalSpec& spec : k_globals) {
    const std::string names(spec.names);
    if (spec.flag != nullptr) {
      app.add_flag(names, inv.globals.*spec.flag, std::string(spec.description));
    } else {
      app.add_option(names, inv.globals.*spec.value, std::string(spec.description))
          ->type_name(std::string(spec.value_name));
    }
  }
  app.add_option("stray", stray)->group("");
  for (const CommandSpec& spec : commands()) {
    if (scope == Scope::one && spec.name != command) {
      continue;
    }
    CLI::App* sub = app.add_subcommand(std::string(spec.name), std::string(spec.description));
    if (scope != Scope::names) {
      spec.register_fn(*sub, inv);
    }
  }
}

Prepared prepare_args(std::vector<std::string> args)
{
  Prepared prepared;
  Located at = locate(args);
  if (at.index < args.size() && args[at.index] == "mail") {
    args.erase(args.begin() + static_cast<std::ptrdiff_t>(at.index));
    at = locate(args);
    prepared.mail_alone =
        at.index >= args.size() &&
        std::none_of(args.begin(), args.end(), [](const std::string& w) { return is_help_flag(w); });
  }
  if (at.index < args.size() && args[at.index] == "help") {
    args.erase(args.begin() + static_cast<std::ptrdiff_t>(at.index));
    if (at.index < args.size() && !args[at.index].empty() && args[at.index][0] != '-' &&
        find_command(args[at.index]) == nullptr) {
      prepared.unknown = args[at.index];
    }
    args.emplace_back("--help");
  }
  if (at.index < args.size() && find_command(args[at.index]) != nullptr) {
    prepared.command = args[at.index];
    prepared.command_index = at.index;
  } else if (at.index < args.size() && !prepared.unknown && !args[at.index].empty() &&
             args[at.index][0] != '-') {
    // A word where the command goes that names none (`mailroom sned bob -m x`): the mistyped
    // command is the error, with its did-you-mean, not an option the command would have taken.
    prepared.unknown = args[at.index];
  }
  if (prepared.command) {
    const auto dashes = std::find(args.begin() + static_cast<std::ptrdiff_t>(at.index), args.end(), "--");
    if (dashes != args.end()) {
      prepared.operands.assign(dashes + 1, args.end());
      args.erase(dashes, args.end());
    }
  }
  // --json anywhere before a `--` (a global option may follow the command word): a parse error
  // is then a JSON object too, although CLI11 stores no option of a parse it gave up on.
  const auto words_end = std::find(args.begin(), args.end(), "--");
  prepared.json = at.json || std::find(args.begin(), words_end, "--json") != words_end;
  const bool asks_help =
      std::any_of(args.begin(), args.end(), [](const std::string& w) { return is_help_flag(w); });
  prepared.version_only = at.version && at.all_global && at.index >= args.size() && !asks_help;
  prepared.args = std::move(args);
  return prepared;
}

void parse_command_line(std::optional<CLI::App>& app, Invocation& inv, std::vector<std::string>& stray,
                        const Prepared& prepared, const std::vector<std::string>& exec_argv)
{
  inv = Invocation{};
  inv.exec_argv = exec_argv;
  stray.clear();
  CLI::App& parser = app.emplace("mailroom: mail for teams of AI agents", "mailroom");
  build_parser(parser, inv, stray, prepared.command ? Scope::one : Scope::names,
               prepared.command.value_or(""));
  std::vector<std::string> reversed(prepared.args.rbegin(), prepared.args.rend());
  parser.parse(reversed);
}

bool add_operands(CLI::App& command, const std::vector<std::string>& operands)
{
  CLI::Option* last = nullptr;
  for (CLI::Option* opt : command.get_options([](const CLI::Option* o) { return o->get_positional(); })) {
    last = opt;
  }
  if (last == nullptr) {
    return false;
  }
  for (const std::string& word : operands) {
    last->add_result(word);
  }
  last->run_callback();
  return true;
}

std::string value_name(const CLI::Option& option)
{
  std::string name = option.get_type_name();
  if (option.get_type_size() == 0 || name.empty()) {
    return {}; // a flag
  }
  name = name.substr(0, name.find(':'));
  if (name.empty() || name == "TEXT" || name == "UINT" || name == "INT" || name == "NUMBER") {
    return name == "TEXT" || name.empty() ? "TEXT" : "N";
  }
  return name;
}

std::vector<std::string> option_names(const CLI::App& command)
{
  std::vector<std::string> names;
  for (const CLI::App* app = &command; app != nullptr; app = app->get_parent()) {
    for (const CLI::Option* opt : app->get_options()) {
      if (opt->get_positional()) {
        continue;
      }
      for (const auto& l : opt->get_lnames()) {
        names.push_back("--" + l);
      }
      for (const auto& s : opt->get_snames()) {
        names.push_back("-" + s);
      }
    }
  }
  return names;
}

} // namespace mailroom::cli
