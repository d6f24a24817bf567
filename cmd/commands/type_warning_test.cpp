// The type rule and empty identity flags on the command line (contract "Round 4: decisions after
// review", Types and Identity): an undeclared type far from every known one is sent with warning
// unknown_type (stderr, and `warnings` in the --json result), a near one is exit 2; an empty --as
// or --from is none. Against a real bead store in memory.

#include <fstream>
#include <map>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "beads/bead_store.hpp"
#include "cli/app.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/reach.hpp"
#include "testing/temp_dir.hpp"

namespace mailroom::cli {

namespace {

struct TypeHarness {
  testing::FixedClock clock;
  std::unique_ptr<providers::sqlstore::SqlStore> store;
  std::map<std::string, std::string> vars;
  std::string cwd;
  StringOutput out;

  TypeHarness() : cwd(testing::make_temp_dir("types").string())
  {
    vars["HOME"] = cwd;
    mail::StoreSettings settings;
    settings.path = ":memory:";
    auto made = providers::beads::open_bead_store(settings, mail::MailPolicy{}, clock);
    REQUIRE(made.ok());
    store = std::move(made).value();
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob", "carol"}).ok());
    std::ofstream(cwd + "/mailroom.toml") << "[types.deploy]\nexpects_reply = true\n";
  }

  int run(const std::vector<std::string>& args)
  {
    out = StringOutput();
    util::MapEnvironment env(vars, cwd);
    StringInput in("");
    AppDeps deps{env, out, in, clock, nullptr, store.get()};
    return run_args(args, deps);
  }

  bool err_has(const std::string& part) const { return out.err_text().find(part) != std::string::npos; }
};

} // namespace

TEST_SUITE("mailroom::cli unknown_type and empty identity flags")
{
  TEST_CASE("send --type request: sent, with the warning naming task_request on stderr")
  {
    TypeHarness h;
    CHECK(h.run({"--as", "alice", "send", "bob", "-s", "build it", "-m", "please", "--type", "request"}) ==
          0);
    CHECK(h.out.out_text().rfind("Sent message ", 0) == 0);
    CHECK(h.err_has("mailroom send: warning: type \"request\" is neither built in nor declared"));
    CHECK(h.err_has("did you mean task_request (expects a reply)?"));
    CHECK(h.store->count("bob")->unread == 1);
  }

  TEST_CASE("send --json --type request: the warning in the result's warnings[] and on stderr")
  {
    TypeHarness h;
    CHECK(h.run({"--json", "--as", "alice", "send", "bob", "-s", "build it", "-m", "please", "--type",
                 "request"}) == 0);
    const auto doc = nlohmann::json::parse(h.out.out_text());
    REQUIRE(doc.contains("warnings"));
    REQUIRE(doc["warnings"].size() == 1);
    CHECK(doc["warnings"][0]["code"] == "unknown_type");
    CHECK(doc["warnings"][0]["message"].get<std::string>().find("task_request") != std::string::npos);
    const auto err = nlohmann::json::parse(h.out.err_text());
    CHECK(err["warning"]["code"] == "unknown_type");
  }

  TEST_CASE("no warning for a built-in or declared type; a near typo is exit 2; reply --type warns too")
  {
    TypeHarness h;
    CHECK(h.run({"--json", "--as", "alice", "send", "bob", "-s", "a", "-m", "b", "--type", "task_request"}) ==
          0);
    CHECK_FALSE(nlohmann::json::parse(h.out.out_text()).contains("warnings"));
    CHECK(h.out.err_text().empty());
    const std::string id = nlohmann::json::parse(h.out.out_text())["id"];
    CHECK(h.run({"--as", "alice", "send", "bob", "-s", "a", "-m", "b", "--type", "deploy"}) == 0);
    CHECK(h.out.err_text().empty());
    CHECK(h.run({"--as", "alice", "send", "bob", "-s", "a", "-m", "b", "--type", "task_reqest"}) == 2);
    CHECK(h.err_has("did you mean \"task_request\"?"));
    CHECK(h.run({"--json", "--as", "bob", "reply", id, "-m", "done", "--type", "result"}) == 0);
    const auto reply = nlohmann::json::parse(h.out.out_text());
    REQUIRE(reply.contains("warnings"));
    CHECK(reply["warnings"][0]["message"].get<std::string>().find("cron_result") != std::string::npos);
  }

  TEST_CASE("an empty --as or --from is none: the next source decides")
  {
    TypeHarness h;
    h.vars["MAILROOM_IDENTITY"] = "carol";
    CHECK(h.run({"--as", "", "count"}) == 0);
    CHECK(h.out.out_text() == "0 total, 0 unread for carol\n");
    CHECK(h.run({"--as", "  ", "count"}) == 0);
    CHECK(h.out.out_text() == "0 total, 0 unread for carol\n");
    CHECK(h.run({"--as", "bob", "send", "--from", "", "alice", "-s", "hi", "-m", "x"}) == 0);
    CHECK(h.run({"--json", "--as", "alice", "inbox"}) == 0);
    CHECK(nlohmann::json::parse(h.out.out_text())["messages"][0]["from"] == "bob");
  }
}

} // namespace mailroom::cli
