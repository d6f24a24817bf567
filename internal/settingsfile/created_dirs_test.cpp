// An uninstall takes back the folders its install created to hold a new file, and only those.

#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "settingsfile/install.hpp"
#include "testing/temp_dir.hpp"

namespace mailroom::settingsfile {
namespace {

namespace fs = std::filesystem;

struct Fixture {
  fs::path dir = testing::make_temp_dir("created-dirs");
  util::MapEnvironment env{{{"XDG_STATE_HOME", (dir / "state").string()}}, dir.string()};
  Surroundings around{env, std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000))};
};

const JsonChange k_add = [](JsonEditor& editor) -> Result<void> {
  TRY(editor.set_member({"mcpServers", "mailroom"}, nlohmann::ordered_json{{"command", "mailroom"}}));
  return {};
};

const JsonGuess k_nothing = [](const nlohmann::ordered_json&) { return std::vector<Edit>(); };

TEST_CASE("uninstall removes the file install created and the folders it made for it")
{
  Fixture f;
  const fs::path file = f.dir / "project" / ".agent" / "deep" / "settings.json";
  fs::create_directories(f.dir / "project");
  REQUIRE(install_json(file.string(), "mcp", k_add, f.around).ok());
  REQUIRE(fs::is_regular_file(file));
  auto removed = uninstall_json(file.string(), "mcp", k_nothing, f.around);
  REQUIRE(removed.ok());
  CHECK(removed->removed);
  CHECK_FALSE(fs::exists(f.dir / "project" / ".agent")); // both folders it created are gone
  CHECK(fs::is_directory(f.dir / "project"));            // the one that was there stays
}

TEST_CASE("a folder the user has filled since, or one that was there before, stays")
{
  Fixture f;
  const fs::path file = f.dir / ".agent" / "settings.json";
  REQUIRE(install_json(file.string(), "mcp", k_add, f.around).ok());
  std::ofstream(f.dir / ".agent" / "notes.txt") << "mine\n";
  REQUIRE(uninstall_json(file.string(), "mcp", k_nothing, f.around).ok());
  CHECK_FALSE(fs::exists(file));
  CHECK(fs::exists(f.dir / ".agent" / "notes.txt"));

  const fs::path other = f.dir / "existing" / "settings.json";
  fs::create_directories(other.parent_path());
  REQUIRE(install_json(other.string(), "mcp", k_add, f.around).ok());
  REQUIRE(uninstall_json(other.string(), "mcp", k_nothing, f.around).ok());
  CHECK_FALSE(fs::exists(other));
  CHECK(fs::is_directory(other.parent_path()));
}

} // namespace
} // namespace mailroom::settingsfile
