#include "app.hpp"

#include <cerrno>
#include <fstream>
#include <map>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "beads/bead_store.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/reach.hpp"
#include "testing/temp_dir.hpp"

namespace mailroom::cli {

namespace {

// Runs the CLI in-process against one real bead store on SQLite :memory: whose state persists
// across runs (the in-memory store is the real store: nothing here re-implements mail rules).
struct Harness {
  testing::FixedClock clock;
  std::unique_ptr<providers::sqlstore::SqlStore> store;
  std::map<std::string, std::string> vars;
  std::string cwd;
  std::string input;
  StringOutput out;
  int opened = 0;
  bool borrow = true; // false: run with no provider, counting attempts to open one

  Harness() : cwd(testing::make_temp_dir("app").string())
  {
    vars["HOME"] = cwd;
    mail::StoreSettings settings;
    settings.path = ":memory:";
    auto made = providers::beads::open_bead_store(settings, mail::MailPolicy{}, clock);
    REQUIRE(made.ok());
    store = std::move(made).value();
  }

  int run(const std::vector<std::string>& args)
  {
    out = StringOutput();
    util::MapEnvironment env(vars, cwd);
    StringInput in(input);
    AppDeps deps{env,
                 out,
                 in,
                 clock,
                 [this](const mail::ProviderSettings&,
                        const config::Identity&) -> Result<std::unique_ptr<mail::Provider>> {
                   ++opened;
                   return make_error(ErrorCode::store_error, "unexpected open");
                 },
                 borrow ? store.get() : nullptr};
    return run_args(args, deps);
  }

  std::string first_id()
  {
    mail::ListQuery query;
    query.mailbox = "bob";
    query.include_read = true;
    auto listed = store->list(query);
    REQUIRE(listed.ok());
    REQUIRE(!listed->messages.empty());
    return listed->messages.front().message.id;
  }

  std::int64_t total(const std::string& mailbox)
  {
    auto counts = store->count(mailbox);
    REQUIRE(counts.ok());
    return counts->total;
  }
};

// A provider whose every operation fails as a broken store would.
class BrokenProvider final : public mail::Provider {
public:
  mail::Facets facets() override { return {}; }
  Result<mail::SendReceipt> send(const mail::SendRequest&) override { return fail(); }
  Result<mail::SendReceipt> reply(const mail::ReplyRequest&) override { return fail(); }
  Result<mail::ListResult> list(const mail::ListQuery&) override { return fail(); }
  Result<mail::CheckResult> check(const mail::Mailbox&, std::size_t, std::optional<std::size_t>) override
  {
    return fail();
  }
  Result<mail::Counts> count(const mail::Mailbox&) override { return fail(); }
  Result<mail::Message> get(const mail::Mailbox&, const mail::MessageId&) override { return fail(); }
  Result<mail::Message> read(const mail::Actor&, const mail::MessageId&, const mail::DeliverFn&) override
  {
    return fail();
  }
  Result<mail::ChangeOutcome> change(const mail::Actor&, const mail::MessageId&, mail::Change) override
  {
    return fail();
  }
  Result<std::vector<mail::MessageId>> mark_all_read(const mail::Mailbox&) override { return fail(); }
  Result<mail::ThreadResult> thread(const mail::Mailbox&, const std::string&) override { return fail(); }

private:
  static Error fail() { return make_error(ErrorCode::store_error, "disk on fire"); }
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
    h.borrow = false;
    CHECK(h.run({"--version"}) == 0);
    CHECK(h.out.out_text().rfind("mailroom " MAILROOM_VERSION, 0) == 0);
    CHECK(h.run({"--help"}) == 0);
    CHECK(h.run({"send", "--help"}) == 0);
    CHECK(h.opened == 0);
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
    REQUIRE(mailroom::testing::reach(*h.store).add_agents({"bob"}).ok());
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
    REQUIRE(mailroom::testing::reach(*h.store).add_agents({"bob"}).ok());
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
    REQUIRE(mailroom::testing::reach(*h.store).add_agents({"bob"}).ok());
    REQUIRE(h.run({"send", "bob", "hi"}) == 0);
    const std::string id = h.first_id();
    util::MapEnvironment env({{"MAILROOM_IDENTITY", "bob"}, {"HOME", h.cwd}}, h.cwd);
    StringInput in;
    // A closed pipe changed nothing: exit 0 quietly (contract "Closed pipes").
    StringOutput closed;
    closed.set_fail_out(true);
    AppDeps deps{env, closed, in, h.clock, nullptr, h.store.get()};
    CHECK(run_args({"read", id}, deps) == 0);
    CHECK(closed.err_text().empty());
    // Any other write failure is exit 5.
    StringOutput broken;
    broken.set_fail_out(true, EIO);
    AppDeps broken_deps{env, broken, in, h.clock, nullptr, h.store.get()};
    CHECK(run_args({"read", id}, broken_deps) == 5);
    auto counts = h.store->count("bob");
    REQUIRE(counts.ok());
    CHECK(counts->unread == 1);
  }

  TEST_CASE("send argument rules")
  {
    Harness h;
    REQUIRE(mailroom::testing::reach(*h.store).add_agents({"bob"}).ok());
    SUBCASE("three positionals are subject and body")
    {
      CHECK(h.run({"send", "bob", "Subj", "Body"}) == 0);
      auto m = h.store->get("bob", h.first_id());
      CHECK(m->subject == "Subj");
      CHECK(m->body == "Body");
    }
    SUBCASE("a fourth positional is a usage error and stores nothing")
    {
      CHECK(h.run({"send", "bob", "a", "b", "c"}) == 2);
      CHECK(h.total("bob") == 0);
    }
    SUBCASE("a positional body with -m is a usage error")
    {
      CHECK(h.run({"send", "bob", "text", "-m", "other"}) == 2);
      CHECK(h.total("bob") == 0);
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
      auto m = h.store->get("bob", h.first_id());
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
      CHECK(h.total("bob") == 0);
    }
    SUBCASE("--urgent and --cc travel with the message")
    {
      REQUIRE(mailroom::testing::reach(*h.store).add_agents({"carol"}).ok());
      CHECK(h.run({"send", "bob", "--cc", "carol", "--urgent", "hi"}) == 0);
      auto m = h.store->get("bob", h.first_id());
      CHECK(m->priority == mail::Priority::urgent);
      CHECK(m->cc == std::vector<std::string>{"carol"});
      CHECK(h.out.out_text() == "Sent message " + m->id + " to bob, carol\n");
    }
  }

  TEST_CASE("archive twice, delete and missing ids")
  {
    Harness h;
    REQUIRE(mailroom::testing::reach(*h.store).add_agents({"bob"}).ok());
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
    CHECK(h.out.err_text() ==
          "mailroom inbox: mailroom.toml:2:1: unknown key \"provder\"\nhint: did you mean "
          "\"mail.provider\"?\n");
    // init reads the config to find the store it creates, so it reports the same error.
    CHECK(h.run({"init"}) == 2);
    CHECK(h.out.err_text().find("mailroom.toml:2:1: unknown key \"provder\"") != std::string::npos);
  }

  TEST_CASE("the identity chain: --as, MAILROOM_IDENTITY, GC_ALIAS, GC_SESSION_ID, GC_AGENT, human")
  {
    Harness h;
    REQUIRE(mailroom::testing::reach(*h.store)
                .add_agents({"bob", "agent", "session", "alias", "ident", "flag"})
                .ok());
    h.vars["GC_AGENT"] = "agent";
    CHECK(h.run({"count"}) == 0);
    CHECK(h.out.out_text() == "0 total, 0 unread for agent\n");
    h.vars["GC_SESSION_ID"] = "session";
    CHECK(h.run({"count"}) == 0);
    CHECK(h.out.out_text() == "0 total, 0 unread for session\n");
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
    BrokenProvider broken;
    h.vars["MAILROOM_IDENTITY"] = "mayor"; // a hook without an identity is quiet before any store
    util::MapEnvironment env(h.vars, h.cwd);
    StringInput in;
    StringOutput out;
    AppDeps deps{env, out, in, h.clock, nullptr, &broken};
    CHECK(run_args({"check", "--inject"}, deps) == 0);
    CHECK(out.out_text().empty());
    CHECK(out.err_text() == "mailroom check: disk on fire\n");
    StringOutput plain;
    AppDeps plain_deps{env, plain, in, h.clock, nullptr, &broken};
    CHECK(run_args({"check"}, plain_deps) == 5);
  }

  TEST_CASE("an unknown identity is exit 2 with a suggestion, and registers nothing")
  {
    Harness h;
    REQUIRE(mailroom::testing::reach(*h.store).add_agents({"polecat"}).ok());
    CHECK(h.run({"--as", "polecta", "inbox"}) == 2);
    CHECK(h.out.err_text().find("unknown identity \"polecta\" (from flag --as)") != std::string::npos);
    CHECK(h.out.err_text().find("did you mean \"polecat\"?") != std::string::npos);
    CHECK(h.run({"--as", "polecta", "send", "polecat", "hi"}) == 2);
    CHECK(h.total("polecat") == 0);
    auto agents = mailroom::testing::reach(*h.store).agents();
    REQUIRE(agents.ok());
    CHECK(agents->size() == 1);
    CHECK(h.run({"--as", "polecta", "check", "--inject"}) == 0);
    CHECK(h.out.out_text().empty());
  }

  TEST_CASE("claude hook output is JSON with the event name")
  {
    Harness h;
    REQUIRE(mailroom::testing::reach(*h.store).add_agents({"bob"}).ok());
    REQUIRE(h.run({"send", "bob", "hi"}) == 0);
    CHECK(h.run({"--as", "bob", "check", "--inject", "--hook-format", "claude", "--hook-event",
                 "SessionStart"}) == 0);
    auto doc = nlohmann::json::parse(h.out.out_text());
    CHECK(doc["hookSpecificOutput"]["hookEventName"] == "SessionStart");
    CHECK(doc["hookSpecificOutput"]["additionalContext"].get<std::string>().find("<system-reminder>") == 0);
  }
}

} // namespace mailroom::cli
