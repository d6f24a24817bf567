#include "app_texts.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "factory.hpp"
#include "parse_errors.hpp"
#include "render/json.hpp"
#include "support.hpp"

namespace mailroom::cli {

namespace {

constexpr std::string_view k_usage = "usage: mailroom [global options] <command> [arguments]";

} // namespace

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
    (void)out.out(fmt::format("mailroom {} (stores: {})\n", MAILROOM_VERSION,
                              fmt::join(providers::provider_schemes(), ", ")));
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

} // namespace mailroom::cli
