// What reaches an agent, on the command line (contract "What reaches an agent"): no silent
// misroutes (an address as the subject, a piped body beside -s), empty bodies, compose checks
// before the editor, and read --json showing the state after the read. Against a real bead store
// in memory.

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

struct Harness {
  testing::FixedClock clock;
  std::unique_ptr<providers::sqlstore::SqlStore> store;
  std::map<std::string, std::string> vars;
  std::string cwd;
  std::string input;
  bool tty = false;
  StringOutput out;

  Harness() : cwd(testing::make_temp_dir("misroute").string())
  {
    vars["HOME"] = cwd;
    mail::StoreSettings settings;
    settings.path = ":memory:";
    auto made = providers::beads::open_bead_store(settings, mail::MailPolicy{}, clock);
    REQUIRE(made.ok());
    store = std::move(made).value();
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob", "carol"}).ok());
    std::ofstream(cwd + "/mailroom.toml") << "[groups]\nops = [\"bob\", \"carol\"]\n";
  }

  int run(const std::vector<std::string>& args)
  {
    out = StringOutput();
    out.set_tty(tty);
    util::MapEnvironment env(vars, cwd);
    StringInput in(input, tty);
    AppDeps deps{env, out, in, clock, nullptr, store.get()};
    return run_args(args, deps);
  }

  std::int64_t total(const std::string& mailbox) { return store->count(mailbox)->total; }

  bool err_has(const std::string& part) const { return out.err_text().find(part) != std::string::npos; }
};

} // namespace

TEST_SUITE("mailroom::cli what reaches an agent")
{
  TEST_CASE("send A B BODY where B names a mailbox or a group is exit 2 with the --to hint")
  {
    Harness h;
    for (const char* second : {"carol", "@ops", "ops", "@all"}) {
      CAPTURE(second);
      CHECK(h.run({"--as", "alice", "send", "bob", second, "lunch at noon"}) == 2);
      CHECK(h.err_has("names a recipient"));
      CHECK(h.err_has(std::string("hint: to send to several, use --to bob --to ") + second));
    }
    CHECK(h.total("bob") == 0);
    CHECK(h.total("carol") == 0);
    // A word that names no mailbox is a subject, as gc has it; so is a retired mailbox.
    CHECK(h.run({"--as", "alice", "send", "bob", "lunch", "at noon"}) == 0);
    REQUIRE(mailroom::testing::reach(*h.store).remove_agent("carol").ok());
    CHECK(h.run({"--as", "alice", "send", "bob", "carol", "left the team"}) == 0);
    CHECK(h.total("bob") == 2);
    // --to says who the recipients are: the two positionals are subject and body.
    CHECK(h.run({"--as", "alice", "send", "--to", "bob", "alice", "a note"}) == 0);
    CHECK(h.total("bob") == 3);
  }

  TEST_CASE("-s alone with data waiting on standard input is exit 2; nothing is read or sent")
  {
    Harness h;
    h.input = "the task body\n";
    CHECK(h.run({"--as", "alice", "send", "bob", "-s", "done"}) == 2);
    CHECK(h.err_has("standard input has data but -s alone is a complete message"));
    CHECK(h.err_has("hint: add - (or --stdin) to send it as the body, or -m '' for none"));
    CHECK(h.total("bob") == 0);
    // - or --stdin sends it; -m '' sends an empty body and leaves standard input alone.
    CHECK(h.run({"--json", "--as", "alice", "send", "bob", "-s", "done", "--stdin"}) == 0);
    const std::string id = nlohmann::json::parse(h.out.out_text())["id"].get<std::string>();
    CHECK(h.store->get("bob", id)->body == "the task body\n");
    CHECK(h.run({"--json", "--as", "alice", "send", "bob", "-s", "done", "-m", ""}) == 0);
    const std::string empty = nlohmann::json::parse(h.out.out_text())["id"].get<std::string>();
    CHECK(h.store->get("bob", empty)->body.empty());
    CHECK(h.store->get("bob", empty)->subject == "done");
    // reply follows the same rule.
    CHECK(h.run({"--as", "bob", "reply", id, "-s", "thanks"}) == 2);
    CHECK(h.err_has("standard input has data"));
    CHECK(h.total("alice") == 0);
    CHECK(h.run({"--as", "bob", "reply", id, "-s", "thanks", "-m", ""}) == 0);
    CHECK(h.total("alice") == 1);
    // At the end of standard input, -s alone is the complete subject-only message.
    h.input.clear();
    CHECK(h.run({"--as", "alice", "send", "bob", "-s", "subject only"}) == 0);
    CHECK(h.run({"--as", "bob", "reply", id, "-s", "ok"}) == 0);
    CHECK(h.total("bob") == 3);
    CHECK(h.total("alice") == 2);
  }

  TEST_CASE("an empty body from --stdin or - is exit 2; -m '' alone is the usage error")
  {
    Harness h;
    CHECK(h.run({"--as", "alice", "send", "bob", "-s", "S", "--stdin"}) == 2);
    CHECK(h.err_has("the body from standard input is empty"));
    CHECK(h.run({"--as", "alice", "send", "bob", "-s", "S", "-"}) == 2);
    CHECK(h.run({"--as", "alice", "send", "bob", "-m", ""}) == 2);
    CHECK(h.total("bob") == 0);
  }

  TEST_CASE("compose checks first: an unknown recipient or reply id fails before the editor opens")
  {
    Harness h;
    h.tty = true; // standard input and output terminals: the editor would open
    h.vars["EDITOR"] = "/bin/false";
    h.vars["TMPDIR"] = h.cwd;
    CHECK(h.run({"--as", "alice", "send", "buidler"}) == 2);
    CHECK(h.err_has("unknown recipient"));
    CHECK_FALSE(h.err_has("editor"));
    CHECK(h.run({"--as", "alice", "reply", "mr-0000000000000000"}) == 3);
    CHECK_FALSE(h.err_has("editor"));
    // A message carol is no party to: not_recipient before the editor.
    CHECK(h.run({"--as", "alice", "send", "bob", "hello"}) == 0);
    const std::string id = h.store
                               ->list([] {
                                 mail::ListQuery q;
                                 q.mailbox = "bob";
                                 return q;
                               }())
                               ->messages.front()
                               .message.id;
    CHECK(h.run({"--as", "carol", "reply", id}) != 0);
    CHECK_FALSE(h.err_has("editor"));
    // A known recipient gets as far as the editor (which fails here).
    CHECK(h.run({"--as", "alice", "send", "bob"}) == 2);
    CHECK(h.err_has("editor"));
  }

  TEST_CASE("read --json shows the state after the read")
  {
    Harness h;
    CHECK(h.run({"--json", "--as", "alice", "send", "bob", "hello"}) == 0);
    const std::string id = nlohmann::json::parse(h.out.out_text())["id"].get<std::string>();
    CHECK(h.run({"--json", "--as", "bob", "read", id}) == 0);
    CHECK(nlohmann::json::parse(h.out.out_text())["message"]["read"] == true);
    CHECK(h.store->get("bob", id)->state->read);
    // The sender is no recipient: no state, before or after.
    CHECK(h.run({"--json", "--as", "alice", "read", id}) == 0);
    CHECK(nlohmann::json::parse(h.out.out_text())["message"]["read"].is_null());
  }
}

} // namespace mailroom::cli
