// The MCP entry per agent (contract "Round 4: decisions after review", Identity): the form each
// agent expands, and the expansion `doctor` applies to find the identity the server will have.

#include "hooks/mcp_settings.hpp"

#include <doctest/doctest.h>

using namespace mailroom;
using namespace mailroom::hooks;

TEST_SUITE("mailroom::hooks mcp entries")
{
  TEST_CASE("each agent's arguments: Claude Code's ${VAR:-}, none for Gemini CLI and Codex; --digest last")
  {
    CHECK(mcp_args(Agent::claude) == nlohmann::ordered_json({"mcp", "--as", "${MAILROOM_IDENTITY:-}"}));
    CHECK(mcp_args(Agent::gemini) == nlohmann::ordered_json({"mcp"}));
    CHECK(mcp_args(Agent::codex, true) == nlohmann::ordered_json({"mcp", "--digest"}));
    CHECK(mcp_args(Agent::claude, true).back() == "--digest");
    CHECK(mcp_toml_table(true) == "[mcp_servers.mailroom]\ncommand = \"mailroom\"\nargs = [\"mcp\", "
                                  "\"--digest\"]\nenv_vars = [\"MAILROOM_IDENTITY\"]\n");
    CHECK(claude_user_command() == "claude mcp add -s user mailroom -- mailroom mcp\n");
  }

  TEST_CASE("expansion as each agent documents it")
  {
    const std::vector<std::string> args = {"--as", "${MAILROOM_IDENTITY:-}", "${MAILROOM_IDENTITY}",
                                           "$MAILROOM_IDENTITY", "${OTHER:-dflt}"};
    util::MapEnvironment set({{"MAILROOM_IDENTITY", "carol"}}, "/");
    util::MapEnvironment unset({}, "/");
    CHECK(expand_args(Agent::claude, args, set) ==
          std::vector<std::string>{"--as", "carol", "carol", "$MAILROOM_IDENTITY", "dflt"});
    CHECK(expand_args(Agent::claude, args, unset) ==
          std::vector<std::string>{"--as", "", "${MAILROOM_IDENTITY}", "$MAILROOM_IDENTITY", "dflt"});
    // Gemini CLI: $VAR and ${VAR}; no default form (the whole inside is the name); unset as written.
    CHECK(expand_args(Agent::gemini, args, set) ==
          std::vector<std::string>{"--as", "${MAILROOM_IDENTITY:-}", "carol", "carol", "${OTHER:-dflt}"});
    CHECK(expand_args(Agent::gemini, args, unset) == args);
    CHECK(expand_args(Agent::codex, args, set) == args);
  }
}
