// Every MCP tool has its row in ops/presence.cpp's table (contract "Three surfaces, one truth"):
// a tool that records no presence is one of the views named here, so a new tool is a decision.

#include <set>
#include <string>

#include <doctest/doctest.h>

#include "mcp/tools.hpp"
#include "ops/presence.hpp"

namespace mailroom::mcp {

TEST_CASE("every MCP tool records presence as mcp, but the views")
{
  const std::set<std::string> views = {"peek", "thread", "status",        "trace",      "peers",
                                       "team", "agents", "schedule_list", "wake_status"};
  for (const ToolDef& tool : all_tools()) {
    const std::string name(tool.name);
    CAPTURE(name);
    if (views.count(name) != 0) {
      CHECK(ops::presence_kind(name) == ops::PresenceKind::none);
      CHECK(ops::presence_of(name, ops::Source::mcp) == std::nullopt);
    } else {
      CHECK(ops::presence_kind(name) != ops::PresenceKind::none);
      CHECK(ops::presence_of(name, ops::Source::mcp) == mail::SeenVia::mcp);
    }
  }
}

} // namespace mailroom::mcp
