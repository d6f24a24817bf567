#include "cli_model.hpp"

#include "parser.hpp"

namespace mailroom::cli {

namespace {

OptionInfo describe_option(const CLI::Option& opt)
{
  OptionInfo info;
  for (const auto& l : opt.get_lnames()) {
    info.names.push_back("--" + l);
  }
  for (const auto& s : opt.get_snames()) {
    info.names.push_back("-" + s);
  }
  info.value_name = value_name(opt);
  info.description = opt.get_description();
  return info;
}

CommandInfo describe_command(const CLI::App& app)
{
  CommandInfo info;
  info.name = app.get_name();
  info.description = app.get_description();
  info.aliases = app.get_aliases();
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_positional()) {
      info.positionals.push_back(opt->get_name(true, false));
    } else if (opt != app.get_help_ptr()) {
      info.options.push_back(describe_option(*opt));
    }
  }
  for (const CLI::App* sub : app.get_subcommands({})) {
    info.subcommands.push_back(describe_command(*sub));
  }
  return info;
}

} // namespace

CliModel describe_cli()
{
  Invocation inv;
  std::vector<std::string> stray;
  CLI::App app{"mailroom", "mailroom"};
  build_parser(app, inv, stray, Scope::all);
  CliModel model;
  for (const CLI::Option* opt : app.get_options()) {
    if (!opt->get_positional()) {
      model.globals.push_back(describe_option(*opt));
    }
  }
  for (const CLI::App* sub : app.get_subcommands({})) {
    model.commands.push_back(describe_command(*sub));
  }
  return model;
}

} // namespace mailroom::cli
