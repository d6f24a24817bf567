#include "app.hpp"

#include <fstream>
#include <map>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "testing/fake_provider.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/temp_dir.hpp"

namespace mailroom::cli {

namespace {

// Runs the CLI in-process against one FakeProvider whose state persists across runs.
struct Harness {
  testing::FixedClock clock;
  testing::FakeProvider fake{clock};
  std::map<std::string, std::string> vars;
  std::string cwd;
  std::string input;
  StringOutput out;
  int opened = 0;

  Harness() : cwd(testing::make_temp_dir("app").string()) { vars["HOME"] = cwd; }

  int run(const std::vector<std::string>& args)
  {
    out = StringOutput();
    util::MapEnvironment env(vars, cwd);
    StringInput in(input);
    AppDeps deps{env, out, in, clock,
                 [this](const mail::ProviderSettings&, const config::Identity&)
                   -> Result<std::unique_ptr<mail::Provider>> {
                   ++opened;
                   return make_error(ErrorCode::store_error, "unexpected open");
                 },
                 &fake};
    return run_args(args, deps);
  }

  std::string first_id()
  {
    auto listed = fake.inbox("bob", {});
    REQUIRE(listed.ok());
    REQUIRE(!listed->empty());
    return listed->front().id;
  }
};

} // namespace

TEST_SUITE("mailroom::cli::run")
{
  TEST_CASE("bare mailroom lists the commands on stderr and exits 2")
  {
    Harness h;
    CHECK(h.run({}) == 2);
    CHECK(h.out.out_text().empty());
    CHECK(h.out.err_text().find("mailroom: missing command") == 0);
    CHECK(h.out.err_text().find("mark-unread") != std::string::npos);
  }

  TEST_CASE("--help and --version exit 0 and never touch the provider")
  {
    Harness h;
    CHECK(h.run({"--help"}) == 0);
    CHECK(h.out.out_text().find("send") != std::string::npos);
    CHECK(h.run({"send", "--help"}) == 0);
    CHECK(h.out.out_text().find("Examples:") != std::string::npos);
    CHECK(h.run({"--version"}) == 0);
    CHECK(h.out.out_text() == "mailroom " MAILROOM_VERSION "\n");
    CHECK(h.fake.operations().empty());
  }

  TEST_CASE("an unknown command suggests the closest one")
  {
    Harness h;
    CHECK(h.run({"inbx"}) == 2);
    CHECK(h.out.err_text() == "mailroom: unknown command \"inbx\"\nhint: did you mean \"inbox\"?\n");
  }

  TEST_CASE("unknown flags and extra arguments are usage errors with exit 2, never CLI11 codes")
  {
    Harness h;
    CHECK(h.run({"inbox", "--bogus"}) == 2);
    CHECK(h.out.err_text().find("mailroom inbox: unknown option \"--bogus\"") == 0);
    CHECK(h.run({"count", "a", "b"}) == 2);
    CHECK(h.out.err_text() == "mailroom count: unexpected argument \"b\"\n");
    CHECK(h.run({"inbox", "--limit", "x"}) == 2);
  }

  TEST_CASE("global options work before and after the command")
  {
    Harness h;
    REQUIRE(h.fake.add_agents({"bob"}).ok());
    CHECK(h.run({"--as", "bob", "count"}) == 0);
    CHECK(h.out.out_text() == "0 total, 0 unread for bob\n");
    CHECK(h.run({"count", "--as", "bob", "--json"}) == 0);
    auto doc = nlohmann::json::parse(h.out.out_text());
    CHECK(doc["mailbox"] == "bob");
    CHECK(doc["schema_version"] == 1);
  }

  TEST_CASE("send, inbox, read, count and check follow the contract strings")
  {
    Harness h;
    REQUIRE(h.fake.add_agents({"bob"}).ok());
    CHECK(h.run({"send", "bob", "hello there"}) == 0);
    const std::string id = h.first_id();
    CHECK(h.out.out_text() == "Sent message " + id + " to bob\n");
    CHECK(h.run({"--as", "bob", "check"}) == 0);
    CHECK(h.out.out_text() == "1 unread message(s) for bob\n");
    CHECK(h.run({"--as", "bob", "read", id}) == 0);
    CHECK(h.out.out_text().find("From:     human\n") != std::string::npos);
    CHECK(h.run({"--as", "bob", "count"}) == 0);
    CHECK(h.out.out_text() == "1 total, 0 unread for bob\n");
    CHECK(h.run({"--as", "bob", "inbox"}) == 0);
    CHECK(h.out.out_text() == "No unread messages for bob\n");
    CHECK(h.run({"--as", "bob", "check"}) == 1);
    CHECK(h.out.out_text().empty());
  }

  TEST_CASE("read keeps the message unread when the output cannot be written")
  {
    Harness h;
    REQUIRE(h.fake.add_agents({"bob"}).ok());
    REQUIRE(h.run({"send", "bob", "hi"}) == 0);
    const std::string id = h.first_id();
    util::MapEnvironment env({{"MAILROOM_IDENTITY", "bob"}, {"HOME", h.cwd}}, h.cwd);
    StringOutput broken;
    broken.set_fail_out(true);
    StringInput in;
    AppDeps deps{env, broken, in, h.clock, nullptr, &h.fake};
    CHECK(run_args({"read", id}, deps) == 5);
    auto counts = h.fake.count("bob");
    REQUIRE(counts.ok());
    CHECK(counts->unread == 1);
  }

  TEST_CASE("send argument rules")
  {
    Harness h;
    REQUIRE(h.fake.add_agents({"bob"}).ok());
    SUBCASE("three positionals are subject and body")
    {
      CHECK(h.run({"send", "bob", "Subj", "Body"}) == 0);
      auto m = h.fake.get("bob", h.first_id());
      CHECK(m->subject == "Subj");
      CHECK(m->body == "Body");
    }
    SUBCASE("a fourth positional is a usage error and stores nothing")
    {
      CHECK(h.run({"send", "bob", "a", "b", "c"}) == 2);
      CHECK(h.fake.message_count() == 0);
    }
    SUBCASE("a positional body with -m is a usage error")
    {
      CHECK(h.run({"send", "bob", "text", "-m", "other"}) == 2);
      CHECK(h.fake.message_count() == 0);
    }
    SUBCASE("no subject and no body is the gc usage line")
    {
      CHECK(h.run({"send", "bob"}) == 2);
      CHECK(h.out.err_text().find("mailroom send: usage: mailroom send <to> <body>") == 0);
      CHECK(h.run({"send"}) == 2);
    }
    SUBCASE("a body of - reads standard input byte for byte")
    {
      h.input = "line one\n$(rm -rf ~) `x`\n";
      CHECK(h.run({"send", "bob", "-"}) == 0);
      auto m = h.fake.get("bob", h.first_id());
      CHECK(m->body == h.input);
      CHECK(m->subject == "line one");
    }
    SUBCASE("a bad priority is a usage error")
    {
      CHECK(h.run({"send", "bob", "hi", "--priority", "huge"}) == 2);
      CHECK(h.out.err_text().find("mailroom send: invalid priority \"huge\"") == 0);
    }
    SUBCASE("an unreadable body file is a usage error naming it")
    {
      CHECK(h.run({"send", "bob", "--body-file", "/nonexistent/x"}) == 2);
      CHECK(h.out.err_text().find("\"/nonexistent/x\"") != std::string::npos);
    }
    SUBCASE("invalid recipients are rejected before anything is stored")
    {
      CHECK(h.run({"send", "AGENT:gpt", "hi"}) == 2);
      CHECK(h.run({"--json", "send", "bob smith", "hi"}) == 2);
      auto err = nlohmann::json::parse(h.out.err_text());
      CHECK(err["error"]["code"] == "invalid_recipient");
      CHECK(err["error"]["exit_code"] == 2);
      CHECK(h.fake.message_count() == 0);
    }
    SUBCASE("--urgent and --cc travel with the message")
    {
      REQUIRE(h.fake.add_agents({"carol"}).ok());
      CHECK(h.run({"send", "bob", "--cc", "carol", "--urgent", "hi"}) == 0);
      auto m = h.fake.get("bob", h.first_id());
      CHECK(m->priority == mail::Priority::urgent);
      CHECK(m->cc == std::vector<std::string>{"carol"});
      CHECK(h.out.out_text() == "Sent message " + m->id + " to bob, carol\n");
    }
  }

  TEST_CASE("archive twice, delete and missing ids")
  {
    Harness h;
    REQUIRE(h.fake.add_agents({"bob"}).ok());
    REQUIRE(h.run({"send", "bob", "hi"}) == 0);
    const std::string id = h.first_id();
    CHECK(h.run({"--as", "bob", "archive", id}) == 0);
    CHECK(h.out.out_text() == "Archived message " + id + "\n");
    CHECK(h.run({"--as", "bob", "archive", id}) == 0);
    CHECK(h.out.out_text() == "Already archived " + id + "\n");
    CHECK(h.run({"--as", "bob", "delete", id}) == 0);
    CHECK(h.out.out_text() == "Already deleted " + id + "\n");
    CHECK(h.run({"archive"}) == 2);
    CHECK(h.out.err_text() == "mailroom archive: missing message ID\n");
    CHECK(h.run({"archive", "mr-nope"}) == 3);
  }

  TEST_CASE("a config error names file:line:column and exits 2")
  {
    Harness h;
    {
      std::ofstream f(h.cwd + "/mailroom.toml");
      f << "[mail]\nprovder = \"beads\"\n";
    }
    CHECK(h.run({"inbox"}) == 2);
    CHECK(h.out.err_text() == "mailroom inbox: mailroom.toml:2:1: unknown key \"provder\"\n");
    // init never reads the config, so it still works (and leaves the file alone).
    CHECK(h.run({"init"}) == 0);
    CHECK(h.out.out_text().find("Already initialised") == 0);
  }

  TEST_CASE("the identity chain: --as, MAILROOM_IDENTITY, GC_ALIAS, GC_AGENT, human")
  {
    Harness h;
    REQUIRE(h.fake.add_agents({"bob"}).ok());
    h.vars["GC_AGENT"] = "agent";
    h.vars["GC_ALIAS"] = " alias ";
    CHECK(h.run({"count"}) == 0);
    CHECK(h.out.out_text() == "0 total, 0 unread for alias\n");
    h.vars["MAILROOM_IDENTITY"] = "ident";
    CHECK(h.run({"count"}) == 0);
    CHECK(h.out.out_text() == "0 total, 0 unread for ident\n");
    CHECK(h.run({"--as", "flag", "count"}) == 0);
    CHECK(h.out.out_text() == "0 total, 0 unread for flag\n");
    h.vars["MAILROOM_IDENTITY"] = "bad name";
    CHECK(h.run({"count"}) == 2);
    CHECK(h.out.err_text().find("identity \"bad name\" (from env MAILROOM_IDENTITY)") != std::string::npos);
  }

  TEST_CASE("check --inject always exits 0, even when the provider fails")
  {
    Harness h;
    h.fake.fail_next("check", make_error(ErrorCode::store_error, "disk on fire"));
    CHECK(h.run({"check", "--inject"}) == 0);
    CHECK(h.out.out_text().empty());
    CHECK(h.out.err_text() == "mailroom check: disk on fire\n");
    h.fake.fail_next("check", make_error(ErrorCode::store_error, "disk on fire"));
    CHECK(h.run({"check"}) == 5);
  }

  TEST_CASE("claude hook output is JSON with the event name")
  {
    Harness h;
    REQUIRE(h.fake.add_agents({"bob"}).ok());
    REQUIRE(h.run({"send", "bob", "hi"}) == 0);
    CHECK(h.run({"--as", "bob", "check", "--inject", "--hook-format", "claude", "--hook-event", "SessionStart"}) == 0);
    auto doc = nlohmann::json::parse(h.out.out_text());
    CHECK(doc["hookSpecificOutput"]["hookEventName"] == "SessionStart");
    CHECK(doc["hookSpecificOutput"]["additionalContext"].get<std::string>().find("<system-reminder>") == 0);
  }
}

} // namespace mailroom::cli
