#include "hooks/agent.hpp"

#include <doctest/doctest.h>

using namespace mailroom;
using namespace mailroom::hooks;

TEST_SUITE("mailroom::hooks::Agent")
{
  TEST_CASE("the three names parse and print back")
  {
    for (const Agent agent : k_agents) {
      auto parsed = parse_agent(to_string(agent));
      REQUIRE(parsed.ok());
      CHECK(*parsed == agent);
    }
  }

  TEST_CASE("an unknown name is a usage error with a did-you-mean")
  {
    auto close = parse_agent("claud");
    REQUIRE(!close.ok());
    CHECK(close.error().code == ErrorCode::usage);
    CHECK(close.error().message == "unknown agent \"claud\"");
    CHECK(close.error().hint == "did you mean \"claude\"?");
    auto far = parse_agent("cursor", "hook format");
    REQUIRE(!far.ok());
    CHECK(far.error().message == "unknown hook format \"cursor\"");
    CHECK(far.error().hint == "use claude, codex or gemini");
    CHECK(!parse_agent("Claude").ok());
    CHECK(!parse_agent("").ok());
  }

  TEST_CASE("events and files per agent")
  {
    CHECK(default_event(Agent::claude) == "UserPromptSubmit");
    CHECK(default_event(Agent::codex) == "UserPromptSubmit");
    CHECK(default_event(Agent::gemini) == "BeforeAgent");
    CHECK(hook_events(Agent::gemini)[1] == "SessionStart");
    CHECK(settings_file(Agent::claude) == ".claude/settings.json");
    CHECK(settings_file(Agent::codex) == ".codex/hooks.json");
    CHECK(settings_file(Agent::gemini) == ".gemini/settings.json");
  }
}
