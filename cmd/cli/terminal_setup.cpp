#include "terminal_setup.hpp"

#include <string>

#include "util/terminal.hpp"

namespace mailroom::cli {

namespace {

std::optional<std::size_t> positive_number(const std::optional<std::string>& text)
{
  if (!text || text->empty() || text->size() > 5 ||
      text->find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  const auto n = static_cast<std::size_t>(std::stoul(*text));
  return n > 0 ? std::optional<std::size_t>(n) : std::nullopt;
}

} // namespace

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
  if (spec.paging != Paging::at_terminal || globals.json || globals.no_pager || dumb || !tty ||
      !deps.in.is_tty()) {
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

} // namespace mailroom::cli
