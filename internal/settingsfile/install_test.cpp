#include "settingsfile/install.hpp"

#include "testing/temp_dir.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace mailroom;
using namespace mailroom::settingsfile;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& path)
{
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

void spit(const fs::path& path, std::string_view text)
{
  fs::create_directories(path.parent_path());
  std::ofstream file(path, std::ios::binary);
  file << text;
}

struct Fixture {
  fs::path dir = testing::make_temp_dir("settingsfile");
  util::MapEnvironment env{{{"XDG_STATE_HOME", (dir / "state").string()}}, dir.string()};
  Surroundings around{env, std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000))};
};

constexpr std::string_view k_body = "command = \"mailroom\"\nargs = [\"mcp\"]\n";

} // namespace

TEST_SUITE("mailroom::settingsfile")
{
  TEST_CASE("a TOML table is appended once, its conflict is exit 2 naming the line, uninstall restores")
  {
    Fixture f;
    const fs::path file = f.dir / ".codex" / "config.toml";
    const std::string original = "# mine\nmodel = \"o3\"\n\n[features]\nhooks = true\n";
    spit(file, original);
    auto first = install_toml_table(file.string(), "mcp", "mcp_servers.mailroom", k_body, f.around);
    REQUIRE(first.ok());
    CHECK(first->changed);
    REQUIRE(first->backup);
    CHECK(slurp(*first->backup) == original);
    CHECK(first->backup->find("/state/mailroom/backups/20270115T080000Z-") != std::string::npos);
    CHECK(slurp(file) == original + "\n[mcp_servers.mailroom]\n" + std::string(k_body));
    auto second = install_toml_table(file.string(), "mcp", "mcp_servers.mailroom", k_body, f.around);
    REQUIRE(second.ok());
    CHECK(!second->changed);

    auto other =
        install_toml_table(file.string(), "mcp", "mcp_servers.mailroom", "command = \"x\"\n", f.around);
    REQUIRE(!other.ok());
    CHECK(other.error().code == ErrorCode::usage);
    CHECK(other.error().message.find(file.string() + ":7: [mcp_servers.mailroom] is already there") == 0);

    auto removed = uninstall_toml_table(file.string(), "mcp", "mcp_servers.mailroom", k_body, f.around);
    REQUIRE(removed.ok());
    CHECK(removed->changed);
    CHECK(slurp(file) == original);
    auto again = uninstall_toml_table(file.string(), "mcp", "mcp_servers.mailroom", k_body, f.around);
    REQUIRE(again.ok());
    CHECK(!again->changed);
  }

  TEST_CASE("a TOML table followed by other tables is removed alone; a created file is removed")
  {
    Fixture f;
    const fs::path file = f.dir / "config.toml";
    auto made = install_toml_table(file.string(), "mcp", "mcp_servers.mailroom", k_body, f.around);
    REQUIRE(made.ok());
    CHECK(made->created);
    spit(file, slurp(file) + "\n[mcp_servers.mailroom.env]\nA = \"1\"\n\n[other]\nx = 1\n");
    auto changed = uninstall_toml_table(file.string(), "mcp", "mcp_servers.mailroom", k_body, f.around);
    REQUIRE(!changed.ok()); // its sub-table added since makes it another table: left alone
    spit(file, "[mcp_servers.mailroom]\n" + std::string(k_body));
    auto removed = uninstall_toml_table(file.string(), "mcp", "mcp_servers.mailroom", k_body, f.around);
    REQUIRE(removed.ok());
    CHECK(removed->removed);
    CHECK(!fs::exists(file));
  }

  TEST_CASE("bad TOML is a usage error with its position, nothing written")
  {
    Fixture f;
    const fs::path file = f.dir / "config.toml";
    spit(file, "a = \n");
    auto result = install_toml_table(file.string(), "mcp", "mcp_servers.mailroom", k_body, f.around);
    REQUIRE(!result.ok());
    CHECK(result.error().code == ErrorCode::usage);
    CHECK(result.error().message.find(file.string() + ":1:") == 0);
    CHECK(slurp(file) == "a = \n");
  }

  TEST_CASE("JSON: a member set by one owner is undone by that owner only")
  {
    Fixture f;
    const fs::path file = f.dir / ".gemini" / "settings.json";
    spit(file, R"({"theme":"dark"})");
    auto mcp = install_json(
        file.string(), "mcp",
        [](JsonEditor& editor) -> Result<void> {
          TRY_ASSIGN(const Member member,
                     editor.set_member({"mcpServers", "mailroom"}, Json{{"command", "mailroom"}}));
          CHECK(member == Member::added);
          return {};
        },
        f.around);
    REQUIRE(mcp.ok());
    auto hooks = install_json(
        file.string(), "hooks",
        [](JsonEditor& editor) {
          return editor.append({"hooks", "SessionStart"}, Json{{"matcher", ""}});
        },
        f.around);
    REQUIRE(hooks.ok());
    auto none = [](const Json&) { return std::vector<Edit>{}; };
    auto undone = uninstall_json(file.string(), "mcp", none, f.around);
    REQUIRE(undone.ok());
    const Json doc = Json::parse(slurp(file));
    CHECK(!doc.contains("mcpServers"));
    CHECK(doc["hooks"]["SessionStart"].size() == 1);
    CHECK(doc["theme"] == "dark");
    auto rest = uninstall_json(file.string(), "hooks", none, f.around);
    REQUIRE(rest.ok());
    CHECK(Json::parse(slurp(file)) == Json::parse(R"({"theme":"dark"})"));
  }

  TEST_CASE("JSON: a member present with another value is reported, never overwritten")
  {
    Fixture f;
    const fs::path file = f.dir / ".mcp.json";
    spit(file, R"({"mcpServers":{"mailroom":{"command":"other"}}})");
    Member seen = Member::added;
    auto result = install_json(
        file.string(), "mcp",
        [&](JsonEditor& editor) -> Result<void> {
          TRY_ASSIGN(seen, editor.set_member({"mcpServers", "mailroom"}, Json{{"command", "mailroom"}}));
          return {};
        },
        f.around);
    REQUIRE(result.ok());
    CHECK(seen == Member::different);
    CHECK(!result->changed);
    CHECK(Json::parse(slurp(file))["mcpServers"]["mailroom"]["command"] == "other");
  }
}
