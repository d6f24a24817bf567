#pragma once

// What the terminal allows one run: colour, table width, a pager (contract "Output at a terminal").

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "context.hpp"
#include "util/terminal.hpp"

namespace mailroom::cli {

// What the terminal allows this run: colour, table width, a pager.
struct Terminal {
  bool color = false;
  std::size_t width = 0;
  std::optional<std::pair<std::vector<std::string>, util::EnvPairs>> pager; // argv and extra env
};

// Colour only at a terminal that is not dumb, without --no-color or NO_COLOR (any value, per
// no-color.org); width from $COLUMNS, else the terminal's; a pager only for a command that pages,
// when standard input and output are both terminals: $MAILROOM_PAGER, else $PAGER, else
// `less -FRX` ("" or "cat" mean none), with LESS=FRX and LV=-c when unset, as git does.
Terminal terminal_for(const CommandSpec& spec, const GlobalOptions& globals, const AppDeps& deps);

} // namespace mailroom::cli
