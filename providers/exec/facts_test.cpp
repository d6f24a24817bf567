#include "exec/facts.hpp"

#include <filesystem>
#include <fstream>

#include <sys/stat.h>

#include <doctest/doctest.h>

#include "exec/exec_test_support.hpp"

namespace mailroom::providers::exec {

namespace {

using testing::StateDir;

void write(const std::string& path, const std::string& text)
{
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

} // namespace

TEST_SUITE("mailroom::providers::exec::facts")
{
  TEST_CASE("facts round-trip for the same version of a script, and are forgotten for another")
  {
    StateDir state;
    const FactsCache cache(state.path() + "/sub/dir/facts.json");
    const ScriptKey key{"/opt/mail/script", 120, 1'700'000'000'123'456'789};
    CHECK(cache.load(key) == ScriptFacts{});

    ScriptFacts facts;
    facts.ensure_running_absent = true;
    cache.store(key, facts);
    CHECK(cache.load(key) == facts);

    facts.probed = true; // asked, declares nothing (a gc script)
    cache.store(key, facts);
    CHECK(cache.load(key) == facts);

    facts.ops = std::vector<std::string>{"inbox", "count"};
    cache.store(key, facts);
    CHECK(cache.load(key) == facts);

    ScriptKey edited = key;
    edited.size = 121;
    CHECK(cache.load(edited) == ScriptFacts{});
    edited = key;
    edited.mtime_ns += 1;
    CHECK(cache.load(edited) == ScriptFacts{});

    struct stat st {};
    REQUIRE(::stat((state.path() + "/sub/dir").c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0700);
    // Nothing but the cache is left behind (no temporary files).
    int files = 0;
    for ([[maybe_unused]] const auto& entry :
         std::filesystem::directory_iterator(state.path() + "/sub/dir")) {
      ++files;
    }
    CHECK(files == 1);
  }

  TEST_CASE("a missing, malformed or foreign cache file is an empty cache, and is replaced on store")
  {
    StateDir state;
    const std::string file = state.path() + "/facts.json";
    const FactsCache cache(file);
    const ScriptKey key{"/s", 1, 2};
    ScriptFacts facts;
    facts.ensure_running_absent = true;
    for (const std::string text :
         {"", "{", "[]", R"({"version":2,"scripts":{}})",
          R"({"version":1,"scripts":{"/s":{"size":"1","mtime_ns":2}}})",
          R"({"version":1,"scripts":{"/s":{"size":1,"mtime_ns":2,"capabilities":[1]}}})"}) {
      CAPTURE(text);
      write(file, text);
      const ScriptFacts loaded = cache.load(key);
      CHECK_FALSE(loaded.probed);
      CHECK_FALSE(loaded.ops.has_value());
      cache.store(key, facts);
      CHECK(cache.load(key) == facts);
    }
  }

  TEST_CASE("the cache keeps the most recently learned scripts")
  {
    StateDir state;
    const FactsCache cache(state.path() + "/facts.json");
    ScriptFacts facts;
    facts.ensure_running_absent = true;
    for (std::size_t i = 0; i < FactsCache::k_max_facts_entries + 5; ++i) {
      cache.store(ScriptKey{"/s" + std::to_string(i), i, 1}, facts);
    }
    const std::size_t last = FactsCache::k_max_facts_entries + 4;
    CHECK(cache.load(ScriptKey{"/s" + std::to_string(last), last, 1}) == facts);
    std::ifstream in(state.path() + "/facts.json");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t entries = 0;
    for (std::size_t at = text.find("\"size\""); at != std::string::npos;
         at = text.find("\"size\"", at + 1)) {
      ++entries;
    }
    CHECK(entries == FactsCache::k_max_facts_entries);
  }

  TEST_CASE("no cache file: nothing is kept, nothing is written")
  {
    const FactsCache cache("");
    ScriptFacts facts;
    facts.probed = true;
    cache.store(ScriptKey{"/s", 1, 2}, facts);
    CHECK(cache.load(ScriptKey{"/s", 1, 2}) == ScriptFacts{});
  }

  TEST_CASE("scripts are identified as execvp finds them: by path, or along $PATH")
  {
    StateDir state;
    const std::string bin = state.path() + "/bin";
    std::filesystem::create_directories(bin);
    write(bin + "/mail-script", "#!/bin/sh\nexit 2\n");
    ::chmod((bin + "/mail-script").c_str(), 0755);
    write(bin + "/not-executable", "x");
    std::filesystem::create_symlink(bin + "/mail-script", state.path() + "/link");

    const util::MapEnvironment env({{"PATH", "/nonexistent:" + bin}}, state.path());
    const auto by_name = identify_script("mail-script", env);
    REQUIRE(by_name.has_value());
    CHECK(by_name->path == std::filesystem::canonical(bin + "/mail-script").string());
    CHECK(by_name->size == 17); // "#!/bin/sh\nexit 2\n"
    CHECK(by_name->mtime_ns > 0);
    const auto relative = identify_script("bin/mail-script", env);
    REQUIRE(relative.has_value());
    CHECK(*relative == *by_name);
    const auto through_link = identify_script("./link", env);
    REQUIRE(through_link.has_value());
    CHECK(through_link->path == by_name->path);
    CHECK_FALSE(identify_script("not-executable", env).has_value());
    CHECK_FALSE(identify_script("missing", env).has_value());
    CHECK_FALSE(identify_script("bin", env).has_value()); // a directory
  }

  TEST_CASE("the default cache file follows XDG_CACHE_HOME, then HOME")
  {
    CHECK(default_facts_path(util::MapEnvironment({{"XDG_CACHE_HOME", "/x/cache"}, {"HOME", "/home/a"}},
                                                  "/")) == "/x/cache/mailroom/exec-capabilities.json");
    CHECK(default_facts_path(util::MapEnvironment({{"XDG_CACHE_HOME", "relative"}, {"HOME", "/home/a"}},
                                                  "/")) == "/home/a/.cache/mailroom/exec-capabilities.json");
    CHECK(default_facts_path(util::MapEnvironment({{"HOME", "/home/a"}}, "/")) ==
          "/home/a/.cache/mailroom/exec-capabilities.json");
    CHECK(default_facts_path(util::MapEnvironment({}, "/")).empty());
  }
}

} // namespace mailroom::providers::exec
