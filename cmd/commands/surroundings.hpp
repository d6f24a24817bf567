#pragma once

// What an edit of an agent's settings file runs with (hooks install/uninstall, mcp
// install/uninstall): the command's environment and its clock.

#include <chrono>

#include "cli/context.hpp"
#include "settingsfile/state.hpp"

namespace mailroom::cli {

inline settingsfile::Surroundings surroundings(const Context& ctx)
{
  return {ctx.env, std::chrono::system_clock::time_point(std::chrono::milliseconds(ctx.clock.now()))};
}

} // namespace mailroom::cli
