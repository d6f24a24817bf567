#include "config/discovery.hpp"

#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "testing/temp_dir.hpp"

namespace mailroom::config {

using util::MapEnvironment;

namespace {

void write_file(const std::filesystem::path& path, std::string_view text)
{
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

} // namespace

TEST_SUITE("mailroom::config::discovery")
{
  TEST_CASE("the nearest mailroom.toml walking up is the workspace; its store is beside it")
  {
    const auto root = testing::make_temp_dir("discovery");
    write_file(root / "mailroom.toml", "[mail]\nprovider = \"beads\"\n");
    std::filesystem::create_directories(root / "a" / "b");
    MapEnvironment env({{"HOME", (root / "home").string()}}, (root / "a" / "b").string());
    auto config = discover_config(env, {});
    REQUIRE(config.ok());
    CHECK(config->file == (root / "mailroom.toml").string());
    CHECK(config->workspace == root.string());
    CHECK(config->store_path.value == (root / ".mailroom" / "mail.db").string());
  }

  TEST_CASE("store.path is relative to the config file, and --db and MAILROOM_DB win in that order")
  {
    const auto root = testing::make_temp_dir("discovery");
    write_file(root / "mailroom.toml", "[store]\npath = \"data/x.db\"\n");
    std::filesystem::create_directories(root / "sub");
    std::map<std::string, std::string> vars{{"HOME", root.string()}};
    {
      MapEnvironment env(vars, (root / "sub").string());
      auto config = discover_config(env, {});
      REQUIRE(config.ok());
      CHECK(config->store_path.value == (root / "data" / "x.db").string());
      CHECK(to_string(config->store_path.origin) == (root / "mailroom.toml").string() + ":2");
    }
    vars["MAILROOM_DB"] = "env.db";
    {
      MapEnvironment env(vars, (root / "sub").string());
      auto config = discover_config(env, {});
      REQUIRE(config.ok());
      CHECK(config->store_path.value == (root / "sub" / "env.db").string());
      CHECK(to_string(config->store_path.origin) == "env MAILROOM_DB");
      auto flagged = discover_config(env, {std::nullopt, std::string("/x/flag.db")});
      REQUIRE(flagged.ok());
      CHECK(flagged->store_path.value == "/x/flag.db");
      CHECK(to_string(flagged->store_path.origin) == "flag --db");
    }
  }

  TEST_CASE("--config and MAILROOM_CONFIG must exist; XDG config is optional; XDG data holds the store")
  {
    const auto root = testing::make_temp_dir("discovery");
    std::map<std::string, std::string> vars{{"HOME", (root / "home").string()}};
    {
      MapEnvironment env(vars, root.string());
      auto config = discover_config(env, {});
      REQUIRE(config.ok());
      CHECK(config->file.empty());
      CHECK(config->store_path.value ==
            (root / "home" / ".local" / "share" / "mailroom" / "mail.db").string());
      auto missing = discover_config(env, {std::string("nope.toml"), std::nullopt});
      REQUIRE_FALSE(missing.ok());
      CHECK(missing.error().message == "config file \"nope.toml\" not found (from flag --config)");
    }
    write_file(root / "home" / ".config" / "mailroom" / "config.toml", "identity = \"xdg\"\n");
    vars["XDG_DATA_HOME"] = (root / "data").string();
    {
      MapEnvironment env(vars, root.string());
      auto config = discover_config(env, {});
      REQUIRE(config.ok());
      CHECK(config->identity.value == "xdg");
      CHECK(config->workspace.empty());
      CHECK(config->store_path.value == (root / "data" / "mailroom" / "mail.db").string());
    }
    vars["MAILROOM_CONFIG"] = (root / "missing.toml").string();
    {
      MapEnvironment env(vars, root.string());
      auto config = discover_config(env, {});
      REQUIRE_FALSE(config.ok());
      CHECK(config.error().code == ErrorCode::usage);
    }
  }

  TEST_CASE("MAILROOM_PROVIDER overrides the file")
  {
    const auto root = testing::make_temp_dir("discovery");
    MapEnvironment env({{"HOME", root.string()}, {"MAILROOM_PROVIDER", "exec:./s.sh"}}, root.string());
    auto config = discover_config(env, {});
    REQUIRE(config.ok());
    CHECK(config->provider.value == "exec:./s.sh");
    CHECK(to_string(config->provider.origin) == "env MAILROOM_PROVIDER");
  }

  TEST_CASE("identity: flag, MAILROOM_IDENTITY, GC_ALIAS, GC_AGENT, config, human; trimmed, empty unset")
  {
    Config config;
    auto who = [&](std::map<std::string, std::string> vars, std::optional<std::string> flag = std::nullopt) {
      MapEnvironment env(std::move(vars), "/");
      auto identity = resolve_identity(env, config, flag, "--as");
      REQUIRE(identity.ok());
      return identity->name + " " + to_string(identity->origin);
    };
    CHECK(who({}) == "human default");
    config.identity = {"cfg", {Origin::Kind::file, "mailroom.toml:1"}};
    CHECK(who({}) == "cfg mailroom.toml:1");
    CHECK(who({{"GC_AGENT", "agent"}}) == "agent env GC_AGENT");
    CHECK(who({{"GC_AGENT", "agent"}, {"GC_ALIAS", "  "}}) == "agent env GC_AGENT");
    CHECK(who({{"GC_AGENT", "agent"}, {"GC_ALIAS", " alias\n"}}) == "alias env GC_ALIAS");
    CHECK(who({{"GC_ALIAS", "alias"}, {"MAILROOM_IDENTITY", "me"}}) == "me env MAILROOM_IDENTITY");
    CHECK(who({{"MAILROOM_IDENTITY", "me"}}, std::string("flag")) == "flag flag --as");
    CHECK(who({{"MAILROOM_IDENTITY", "me"}, {"GC_SESSION_ID", "sess"}}) == "me env MAILROOM_IDENTITY");
    MapEnvironment bad({{"GC_ALIAS", "AGENT:x"}}, "/");
    auto identity = resolve_identity(bad, config, std::nullopt, "--as");
    REQUIRE_FALSE(identity.ok());
    CHECK(identity.error().code == ErrorCode::usage);
    // An empty --as is no --as.
    CHECK(who({{"GC_AGENT", "agent"}}, std::string("")) == "agent env GC_AGENT");
    CHECK(who({{"GC_AGENT", "agent"}}, std::string("  ")) == "agent env GC_AGENT");
  }

  TEST_CASE("identity under [compat] gc: gc's newest order of its variables, nothing else changes")
  {
    Config config;
    const std::map<std::string, std::string> both = {{"GC_ALIAS", "alias"}, {"GC_SESSION_ID", "sess"}};
    auto who = [&](std::map<std::string, std::string> vars,
                   std::optional<IdentityOrder> order = std::nullopt) {
      MapEnvironment env(std::move(vars), "/");
      auto identity = resolve_identity(env, config, std::nullopt, "--as", order);
      REQUIRE(identity.ok());
      return identity->name;
    };
    CHECK(identity_order(config) == IdentityOrder::mailroom);
    CHECK(who(both) == "alias");
    config.compat_gc = {true, {}};
    CHECK(identity_order(config) == IdentityOrder::gc);
    CHECK(who(both) == "sess");
    CHECK(who({{"GC_ALIAS", "alias"}, {"GC_AGENT", "agent"}}) == "alias");
    CHECK(who({{"GC_SESSION_ID", "sess"}, {"MAILROOM_IDENTITY", "me"}}) == "me");
    CHECK(who({{"GC_AGENT", "agent"}}) == "agent");
    CHECK(who({}) == "human");
    // gc-mail asks for gc's order whatever the config says.
    config.compat_gc = {false, {}};
    CHECK(who(both, IdentityOrder::gc) == "sess");
  }
}

} // namespace mailroom::config
