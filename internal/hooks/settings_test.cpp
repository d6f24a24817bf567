#include "hooks/settings.hpp"

#include "testing/temp_dir.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace mailroom;
using namespace mailroom::hooks;
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

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

// Backups and install records go to a private state directory per test run.
const util::MapEnvironment& state_env()
{
  static const fs::path state = testing::make_temp_dir("state");
  static const util::MapEnvironment env({{"XDG_STATE_HOME", state.string()}, {"HOME", state.string()}}, "/");
  return env;
}

settingsfile::Surroundings around()
{
  return {state_env(), std::chrono::system_clock::now()};
}

Result<InstallResult> install(const fs::path& path, Agent agent)
{
  return install_hooks(path.string(), agent, mail::k_default_hook_budget, around());
}

// What a fresh install writes: the snippet, and Gemini CLI's switch.
Json installed(Agent agent)
{
  Json doc = settings_snippet(agent);
  if (agent == Agent::gemini) {
    doc["hooksConfig"] = Json::object({{"enabled", true}});
  }
  return doc;
}

// The settings file of `agent` in a fresh project directory.
fs::path project_file(Agent agent)
{
  return testing::make_temp_dir("settings") / settings_file(agent);
}

// Installs twice; the second run must change nothing at all.
InstallResult install_twice(const fs::path& path, Agent agent)
{
  auto first = install(path, agent);
  REQUIRE(first.ok());
  const std::string after_first = slurp(path);
  const bool had_backup = fs::exists(path.string() + ".bak");
  const std::string backup = had_backup ? slurp(path.string() + ".bak") : "";
  auto second = install(path, agent);
  REQUIRE(second.ok());
  CHECK(!second->changed);
  CHECK(!second->created);
  CHECK(!second->backup);
  CHECK(second->merge.added.empty());
  CHECK(second->merge.already.size() == 2);
  CHECK(slurp(path) == after_first);
  CHECK(fs::exists(path.string() + ".bak") == had_backup);
  if (had_backup) {
    CHECK(slurp(path.string() + ".bak") == backup);
  }
  return *first;
}

std::size_t temp_files_beside(const fs::path& path)
{
  std::size_t count = 0;
  for (const auto& entry : fs::directory_iterator(path.parent_path())) {
    count += entry.path().filename().string().find(".tmp-") != std::string::npos ? 1 : 0;
  }
  return count;
}

} // namespace

TEST_SUITE("mailroom::hooks::settings")
{
  TEST_CASE("the snippet per agent")
  {
    const Json claude = settings_snippet(Agent::claude);
    CHECK(
        claude.dump() ==
        R"({"hooks":{"UserPromptSubmit":[{"matcher":"","hooks":[{"type":"command","command":"mailroom check --hook-format claude","timeout":5}]}],)"
        R"("SessionStart":[{"matcher":"","hooks":[{"type":"command","command":"mailroom check --hook-format claude","timeout":5}]}]}})");
    CHECK(settings_snippet(Agent::codex)["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"] ==
          "mailroom check --hook-format codex");
    const Json gemini = settings_snippet(Agent::gemini)["hooks"];
    CHECK(gemini.begin().key() == "BeforeAgent");
    CHECK(gemini["SessionStart"][0]["hooks"][0]["timeout"] == 5000);
    CHECK(gemini["BeforeAgent"][0]["hooks"][0]["name"] == "mailroom");
  }

  TEST_CASE("what counts as a mailroom hook already")
  {
    CHECK(is_mailroom_hook_command("mailroom check --hook-format claude"));
    CHECK(is_mailroom_hook_command("/usr/local/bin/mailroom --as mayor check --inject"));
    CHECK(is_mailroom_hook_command(
        "env MAILROOM_IDENTITY=bob \"$HOME/bin/mailroom\" check --hook-format=codex"));
    CHECK(!is_mailroom_hook_command("gc mail check --inject"));
    CHECK(!is_mailroom_hook_command("mailroom check"));
    CHECK(!is_mailroom_hook_command("mailroom inbox --inject"));
    CHECK(!is_mailroom_hook_command("mailroomd check --inject"));
    CHECK(!is_mailroom_hook_command(""));
  }

  TEST_CASE("paths: the project's, or the user's under HOME")
  {
    util::MapEnvironment env({{"HOME", "/home/dev"}}, "/work/app");
    CHECK(*settings_path(Agent::claude, Scope::project, env) == "/work/app/.claude/settings.json");
    CHECK(*settings_path(Agent::codex, Scope::user, env) == "/home/dev/.codex/hooks.json");
    CHECK(*settings_path(Agent::gemini, Scope::user, env) == "/home/dev/.gemini/settings.json");
    util::MapEnvironment homeless({}, "/work/app");
    auto none = settings_path(Agent::claude, Scope::user, homeless);
    REQUIRE(!none.ok());
    CHECK(none.error().code == ErrorCode::usage);
  }

  TEST_CASE("install on a missing file creates it and its directory, twice")
  {
    for (const Agent agent : k_agents) {
      const fs::path path = project_file(agent);
      const InstallResult first = install_twice(path, agent);
      CHECK(first.created);
      CHECK(first.changed);
      CHECK(!first.backup);
      CHECK(first.merge.added.size() == 2);
      CHECK(Json::parse(slurp(path)) == installed(agent));
      CHECK(slurp(path) == installed(agent).dump(2) + "\n");
      CHECK(first.switch_set == (agent == Agent::gemini));
      CHECK(!fs::exists(path.string() + ".bak"));
    }
  }

  TEST_CASE("install on an empty file treats it as {} and backs it up, twice")
  {
    const fs::path path = project_file(Agent::claude);
    spit(path, "");
    const InstallResult first = install_twice(path, Agent::claude);
    CHECK(!first.created);
    CHECK(first.changed);
    REQUIRE(first.backup);
    CHECK(first.backup->find("/mailroom/backups/") != std::string::npos);
    CHECK(!fs::exists(path.string() + ".bak"));
    CHECK(slurp(*first.backup).empty());
    CHECK(Json::parse(slurp(path)) == settings_snippet(Agent::claude));
  }

  TEST_CASE("install keeps every other key, its order and other hooks, twice")
  {
    const fs::path path = project_file(Agent::claude);
    const std::string original = R"j({
    "permissions": {"allow": ["Bash(npm test:*)"], "deny": []},
    "model": "opus",
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}],
        "UserPromptSubmit": [{"matcher": "", "hooks": [{"type": "command", "command": "./log-prompt.sh", "timeout": 5}]}]
    },
    "env": {"FOO": "1", "ÄÖ": "ü ✓"},
    "cleanupPeriodDays": 30,
    "ratio": 0.25
})j";
    spit(path, original);
    const InstallResult first = install_twice(path, Agent::claude);
    CHECK(first.changed);
    REQUIRE(first.backup);
    CHECK(slurp(*first.backup) == original);
    const Json doc = Json::parse(slurp(path));
    std::vector<std::string> keys;
    for (const auto& [key, value] : doc.items()) {
      keys.push_back(key);
    }
    CHECK(keys ==
          std::vector<std::string>{"permissions", "model", "hooks", "env", "cleanupPeriodDays", "ratio"});
    CHECK(doc["permissions"] == Json::parse(R"j({"allow": ["Bash(npm test:*)"], "deny": []})j"));
    CHECK(doc["env"]["ÄÖ"] == "ü ✓");
    CHECK(doc["ratio"] == 0.25);
    CHECK(doc["hooks"]["PreToolUse"].size() == 1);
    const Json& prompt = doc["hooks"]["UserPromptSubmit"];
    REQUIRE(prompt.size() == 2);
    CHECK(prompt[0]["hooks"][0]["command"] == "./log-prompt.sh");
    CHECK(prompt[1]["hooks"][0]["command"] == "mailroom check --hook-format claude");
    CHECK(doc["hooks"]["SessionStart"].size() == 1);
    // Two-space indentation, UTF-8 kept as is.
    CHECK(slurp(path).find("\n  \"model\": \"opus\",\n") != std::string::npos);
    CHECK(slurp(path).find("\"ÄÖ\": \"ü ✓\"") != std::string::npos);
  }

  TEST_CASE("an event that already runs mailroom is left alone")
  {
    const fs::path path = project_file(Agent::gemini);
    const std::string original =
        R"({"hooks":{"BeforeAgent":[{"hooks":[{"type":"command","command":"mailroom --as bob check --inject"}]}],"disabled":["x"]}})";
    spit(path, original);
    const InstallResult first = install_twice(path, Agent::gemini);
    CHECK(first.merge.added == std::vector<std::string>{"SessionStart"});
    CHECK(first.merge.already == std::vector<std::string>{"BeforeAgent"});
    const Json doc = Json::parse(slurp(path));
    CHECK(doc["hooks"]["BeforeAgent"].size() == 1);
    CHECK(doc["hooks"]["disabled"] == Json::array({"x"}));
  }

  TEST_CASE("uninstall removes exactly what install added, and a file it created")
  {
    for (const Agent agent : k_agents) {
      CAPTURE(to_string(agent));
      const fs::path created = project_file(agent);
      REQUIRE(install(created, agent).ok());
      auto removed = uninstall_hooks(created.string(), agent, around());
      REQUIRE(removed.ok());
      CHECK(removed->removed);
      CHECK(!fs::exists(created));

      const fs::path path = project_file(agent);
      const std::string original =
          R"({"model":"x","hooks":{"SessionStart":[{"matcher":"","hooks":[{"type":"command","command":"./mine.sh"}]}]}})";
      spit(path, original);
      REQUIRE(install(path, agent).ok());
      auto undone = uninstall_hooks(path.string(), agent, around());
      REQUIRE(undone.ok());
      CHECK(undone->changed);
      CHECK(!undone->removed);
      CHECK(Json::parse(slurp(path)) == Json::parse(original));
      auto again = uninstall_hooks(path.string(), agent, around());
      REQUIRE(again.ok());
      CHECK(!again->changed);
    }
  }

  TEST_CASE("uninstall without a record removes only mailroom's own groups")
  {
    const fs::path path = project_file(Agent::claude);
    const std::string mine =
        R"({"hooks":{"SessionStart":[{"matcher":"","hooks":[{"type":"command","command":"./mine.sh"}]},)"
        R"({"matcher":"","hooks":[{"type":"command","command":"mailroom check --hook-format claude","timeout":5}]}]}})";
    spit(path, mine);
    auto undone = uninstall_hooks(path.string(), Agent::claude, around());
    REQUIRE(undone.ok());
    CHECK(
        Json::parse(slurp(path)) ==
        Json::parse(
            R"({"hooks":{"SessionStart":[{"matcher":"","hooks":[{"type":"command","command":"./mine.sh"}]}]}})"));
  }

  TEST_CASE("another mail reminder is found; Gemini's switch turned off is reported, not changed")
  {
    CHECK(is_other_mail_hook_command("gc mail check --inject"));
    CHECK(is_other_mail_hook_command("/usr/bin/gc mail check"));
    CHECK(!is_other_mail_hook_command("gc mail send x"));
    const fs::path path = project_file(Agent::gemini);
    spit(
        path,
        R"({"hooksConfig":{"enabled":false},"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"gc mail check --inject"}]}]}})");
    auto result = install(path, Agent::gemini);
    REQUIRE(result.ok());
    CHECK(result->merge.other_mail_hooks == std::vector<std::string>{"SessionStart: gc mail check --inject"});
    CHECK(result->switch_off);
    CHECK(Json::parse(slurp(path))["hooksConfig"]["enabled"] == false);
  }

  TEST_CASE("an unparseable file is a usage error naming the position; nothing is written, twice")
  {
    const fs::path path = project_file(Agent::codex);
    const std::string broken = "{\n  \"hooks\": {\n    \"Stop\": [,]\n  }\n}\n";
    spit(path, broken);
    for (int run = 0; run < 2; ++run) {
      auto result = install(path, Agent::codex);
      REQUIRE(!result.ok());
      CHECK(result.error().code == ErrorCode::usage);
      CHECK(result.error().message.find(path.string() + ":3:14: not valid JSON (") == 0);
      CHECK(result.error().message.find("; left unchanged") != std::string::npos);
      CHECK(slurp(path) == broken);
      CHECK(!fs::exists(path.string() + ".bak"));
      CHECK(temp_files_beside(path) == 0);
    }
  }

  TEST_CASE("comments, trailing garbage and wrong shapes are refused too")
  {
    const fs::path path = project_file(Agent::gemini);
    for (const std::string& text :
         {std::string("{\n  // mine\n  \"a\": 1\n}\n"), std::string("{} {}"), std::string("[]"),
          std::string(R"({"hooks": []})"), std::string(R"({"hooks": {"SessionStart": {}}})"),
          std::string("\"x\"")}) {
      CAPTURE(text);
      spit(path, text);
      auto result = install(path, Agent::gemini);
      REQUIRE(!result.ok());
      CHECK(result.error().code == ErrorCode::usage);
      CHECK(result.error().message.find(path.string()) == 0);
      CHECK(slurp(path) == text);
      CHECK(!fs::exists(path.string() + ".bak"));
    }
  }

  TEST_CASE("the file keeps its mode, and a symlink is written through")
  {
    const fs::path dir = testing::make_temp_dir("settings");
    const fs::path real = dir / "dotfiles" / "settings.json";
    spit(real, R"({"model":"opus"})");
    ::chmod(real.c_str(), 0600);
    const fs::path link = dir / ".claude" / "settings.json";
    fs::create_directories(link.parent_path());
    fs::create_symlink(real, link);
    const InstallResult first = install_twice(link, Agent::claude);
    CHECK(first.path == fs::canonical(real).string());
    CHECK(fs::is_symlink(link));
    CHECK(Json::parse(slurp(real))["model"] == "opus");
    struct stat info {};
    REQUIRE(::stat(real.c_str(), &info) == 0);
    CHECK((info.st_mode & 07777) == 0600);
    REQUIRE(first.backup);
    REQUIRE(::stat(first.backup->c_str(), &info) == 0);
    CHECK((info.st_mode & 07777) == 0600);
  }

  TEST_CASE("merge_settings on a document")
  {
    Json doc;
    auto merged = merge_settings(doc, Agent::codex, "x");
    REQUIRE(merged.ok());
    CHECK(doc == settings_snippet(Agent::codex));
    Json wrong = Json::parse(R"({"hooks":{"UserPromptSubmit":[],"SessionStart":7}})");
    const Json before = wrong;
    auto refused = merge_settings(wrong, Agent::claude, "f.json");
    REQUIRE(!refused.ok());
    CHECK(refused.error().message == "f.json: \"hooks.SessionStart\" is not a JSON array; left unchanged");
    CHECK(wrong == before);
  }
}
