// The command line as a person and a script meet it: rewrites, help, quiet, multi-id reports,
// JSON warnings and composing a body (the documents against the parser: cli_docs_test.cpp).

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "app.hpp"
#include "beads/bead_store.hpp"
#include "cli_model.hpp"
#include "commands.hpp"
#include "commands/compose.hpp"
#include "completion.hpp"
#include "parser.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/reach.hpp"
#include "testing/temp_dir.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

struct Cli {
  testing::FixedClock clock;
  std::unique_ptr<providers::sqlstore::SqlStore> store;
  std::map<std::string, std::string> vars;
  std::string cwd;
  std::string input;
  StringOutput out;

  Cli() : cwd(testing::make_temp_dir("cli").string())
  {
    vars["HOME"] = cwd;
    mail::StoreSettings settings;
    settings.path = ":memory:";
    auto made = providers::beads::open_bead_store(settings, mail::MailPolicy{}, clock);
    REQUIRE(made.ok());
    store = std::move(made).value();
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob"}).ok());
  }

  int run(const std::vector<std::string>& args)
  {
    out = StringOutput();
    util::MapEnvironment env(vars, cwd);
    StringInput in(input);
    AppDeps deps{env, out, in, clock, nullptr, store.get()};
    return run_args(args, deps);
  }

  std::string send(const std::string& body)
  {
    REQUIRE(run({"--json", "--as", "alice", "send", "bob", body}) == 0);
    return nlohmann::json::parse(out.out_text())["id"].get<std::string>();
  }
};

bool contains(const std::string& text, const std::string& part)
{
  return text.find(part) != std::string::npos;
}

} // namespace

TEST_SUITE("mailroom::cli::parser")
{
  TEST_CASE("mail <command> runs the command; help <command> is <command> --help")
  {
    CHECK(prepare_args({"mail", "inbox"}).args == std::vector<std::string>{"inbox"});
    CHECK(prepare_args({"--as", "bob", "mail", "count"}).command == "count");
    CHECK(prepare_args({"help", "agents", "add"}).args ==
          std::vector<std::string>{"agents", "add", "--help"});
    CHECK(prepare_args({"help"}).args == std::vector<std::string>{"--help"});
    CHECK(prepare_args({"help", "inbx"}).unknown == "inbx");
    // The value of a global option is not the command word.
    CHECK(prepare_args({"--as", "inbox", "count"}).command == "count");
    CHECK(prepare_args({"--db=x.db", "peek", "mr-1"}).command == "peek");
  }

  TEST_CASE("--version alone needs no parser; with anything else the parser decides")
  {
    CHECK(prepare_args({"--version"}).version_only);
    CHECK(prepare_args({"--json", "--version"}).version_only);
    CHECK(prepare_args({"--json", "--version"}).json);
    CHECK_FALSE(prepare_args({"--version", "--bogus"}).version_only);
    CHECK_FALSE(prepare_args({"--version", "--help"}).version_only);
    CHECK_FALSE(prepare_args({"inbox", "--version"}).version_only);
  }
}

TEST_SUITE("mailroom::cli::run (ergonomics)")
{
  TEST_CASE("help <command>, mail <command> and did-you-mean")
  {
    Cli cli;
    CHECK(cli.run({"help", "send"}) == 0);
    CHECK(contains(cli.out.out_text(), "Usage: mailroom send"));
    CHECK(contains(cli.out.out_text(), "--body-file PATH"));
    // One ID for commands that take one, a list for those that take several.
    for (const char* one : {"read", "peek", "status", "thread", "trace"}) {
      CAPTURE(one);
      CHECK(cli.run({one, "--help"}) == 0);
      CHECK(contains(cli.out.out_text(), "[<id>]"));
      CHECK_FALSE(contains(cli.out.out_text(), "<id>..."));
    }
    CHECK(cli.run({"archive", "--help"}) == 0);
    CHECK(contains(cli.out.out_text(), "[<id>...]"));
    CHECK(cli.run({"help", "inbx"}) == 2);
    CHECK(cli.out.err_text() == "mailroom: unknown command \"inbx\"\nhint: did you mean \"inbox\"?\n");
    CHECK(cli.run({"--as", "bob", "mail", "count"}) == 0);
    CHECK(cli.out.out_text() == "0 total, 0 unread for bob\n");
    CHECK(cli.run({"--as", "bob", "inbox", "--lmit", "3"}) == 2);
    CHECK(cli.out.err_text() ==
          "mailroom inbox: unknown option \"--lmit\"\nhint: did you mean \"--limit\"?\n");
    CHECK(cli.run({"--as", "bob", "inbox", "--limit", "0"}) == 2);
    CHECK(cli.out.err_text() == "mailroom inbox: --limit must be a whole number of at least 1, not \"0\"\n");
    CHECK(cli.run({"--as", "bob", "inbox", "--limit", "x"}) == 2);
    CHECK(contains(cli.out.err_text(), "not \"x\""));
  }

  TEST_CASE("a parse error is in the contract's words, and a JSON object under --json")
  {
    Cli cli;
    CHECK(cli.run({"--as", "bob", "inbox", "--limit"}) == 2);
    CHECK(cli.out.err_text() == "mailroom inbox: --limit needs a value\nhint: give it as --limit N\n");
    for (const std::vector<std::string>& line :
         {std::vector<std::string>{"--json", "--as", "bob", "inbox", "--limit"},
          std::vector<std::string>{"--as", "bob", "inbox", "--json", "--limit"}}) {
      CAPTURE(line);
      CHECK(cli.run(line) == 2);
      CHECK(cli.out.out_text().empty());
      const auto doc = nlohmann::json::parse(cli.out.err_text());
      CHECK(doc["ok"] == false);
      CHECK(doc["error"]["code"] == "usage");
      CHECK(doc["error"]["message"] == "--limit needs a value");
      CHECK(doc["error"]["exit_code"] == 2);
    }
    // A word after an option that needs a value is its value, even one that looks like an option:
    // then the value is wrong, and the error is still the JSON object.
    CHECK(cli.run({"--as", "bob", "inbox", "--limit", "--json"}) == 2);
    CHECK(nlohmann::json::parse(cli.out.err_text())["error"]["message"] ==
          "--limit must be a whole number of at least 1, not \"--json\"");
    // No CLI11 wording (its type names, "required", "missing") in any of them.
    CHECK(cli.run({"--json", "--as", "bob", "wait", "--timeout"}) == 2);
    CHECK(nlohmann::json::parse(cli.out.err_text())["error"]["message"] == "--timeout needs a value");
    CHECK_FALSE(contains(cli.out.err_text(), "required"));
  }

  TEST_CASE("global options before the command read as they do after it")
  {
    Cli cli;
    (void)cli.send("hello");
    const std::vector<std::vector<std::string>> lines = {
        {"count"},           {"count", "--jsn"},    {"inbox", "--limit", "0"}, {"inbox", "extra", "words"},
        {"read", "mr-nope"}, {"check", "--inject"}, {"peek", "--bogus"},       {"thread"},
    };
    for (const auto& line : lines) {
      CAPTURE(line.front());
      std::vector<std::string> before = {"--json", "--as", "bob"};
      before.insert(before.end(), line.begin(), line.end());
      std::vector<std::string> after = line;
      after.insert(after.end(), {"--json", "--as", "bob"});
      const int before_code = cli.run(before);
      const std::string before_out = cli.out.out_text() + cli.out.err_text();
      CHECK(cli.run(after) == before_code);
      CHECK(cli.out.out_text() + cli.out.err_text() == before_out);
    }
    // An unknown option after the command: the global options are among the suggestions.
    CHECK(cli.run({"--as", "bob", "count", "--jsn"}) == 2);
    CHECK(contains(cli.out.err_text(), "did you mean \"--json\""));
  }

  TEST_CASE("-- ends the options")
  {
    Cli cli;
    CHECK(cli.run({"--as", "alice", "send", "bob", "--", "-not-an-option"}) == 0);
    CHECK(contains(cli.out.out_text(), "Sent message"));
  }

  TEST_CASE("--version --json is JSON")
  {
    Cli cli;
    CHECK(cli.run({"--version", "--json"}) == 0);
    const auto doc = nlohmann::json::parse(cli.out.out_text());
    CHECK(doc["schema_version"] == 1);
    CHECK(doc["version"] == MAILROOM_VERSION);
    CHECK(doc["stores"].is_array());
  }

  TEST_CASE("-q drops confirmations, never views or errors")
  {
    Cli cli;
    CHECK(cli.run({"-q", "--as", "alice", "send", "bob", "hi"}) == 0);
    CHECK(cli.out.out_text().empty());
    CHECK(cli.run({"--as", "bob", "--quiet", "count"}) == 0);
    CHECK(cli.out.out_text() == "1 total, 1 unread for bob\n");
    CHECK(cli.run({"-q", "--as", "bob", "archive", "mr-nothing"}) == 3);
    CHECK(!cli.out.err_text().empty());
    CHECK(cli.run({"-q", "--json", "--as", "alice", "send", "bob", "hi"}) == 0);
    CHECK(!cli.out.out_text().empty());
  }

  TEST_CASE("multi-id actions report each id and exit with the worst code")
  {
    Cli cli;
    const std::string a = cli.send("one");
    const std::string b = cli.send("two");
    CHECK(cli.run({"--as", "bob", "archive", a}) == 0);
    CHECK(cli.run({"--as", "bob", "archive", a, "mr-0000000000000000", b}) == 3);
    CHECK(cli.out.out_text() == "Already archived " + a + "\nArchived message " + b + "\n");
    CHECK(cli.out.err_text() == "mailroom archive: message \"mr-0000000000000000\" not found\n");
    CHECK(cli.run({"--json", "--as", "bob", "unarchive", a, "mr-0000000000000000", b}) == 3);
    const auto doc = nlohmann::json::parse(cli.out.out_text());
    CHECK(doc["ok"] == false);
    CHECK(doc["ids"] == nlohmann::json::array({a, b}));
    CHECK(doc["already"] == nlohmann::json::array());
    CHECK(doc["failed"] == nlohmann::json::parse(R"([{"id":"mr-0000000000000000","code":"not_found"}])"));
    // One id keeps the plain error, with its hint.
    CHECK(cli.run({"--as", "bob", "archive", "mr-0000000000000000"}) == 3);
    CHECK(cli.run({"--json", "--as", "bob", "archive", a}) == 0);
    CHECK(nlohmann::json::parse(cli.out.out_text())["failed"] == nlohmann::json::array());
  }

  TEST_CASE("under --json a warning is a JSON object on stderr")
  {
    Cli cli;
    CHECK(cli.run({"--json", "--as", "alice", "send", "bob", "hi", "--notify"}) == 0);
    const auto warning = nlohmann::json::parse(cli.out.err_text());
    CHECK(warning["schema_version"] == 1);
    CHECK(warning["warning"]["code"] == "no_notify_command");
    CHECK(warning["warning"]["message"].is_string());
    CHECK(nlohmann::json::parse(cli.out.out_text())["ids"].size() == 1);
  }

  TEST_CASE("piped standard input is the body when none is given; empty is the usage error")
  {
    Cli cli;
    cli.input = "from a pipe\nsecond line\n";
    CHECK(cli.run({"--as", "alice", "send", "bob"}) == 0);
    auto listed = cli.store->count("bob");
    CHECK(listed->total == 1);
    cli.input.clear();
    CHECK(cli.run({"--as", "alice", "send", "bob"}) == 2);
    CHECK(contains(cli.out.err_text(), "usage: mailroom send"));
    // A subject alone is complete and reads nothing; with data waiting on a pipe it is refused
    // rather than dropping the data (contract "No silent misroutes").
    CHECK(cli.run({"--as", "alice", "send", "bob", "-s", "subject only"}) == 0);
    CHECK(cli.store->count("bob")->total == 2);
    cli.input = "not dropped";
    CHECK(cli.run({"--as", "alice", "send", "bob", "-s", "subject only"}) == 2);
    CHECK(cli.store->count("bob")->total == 2);
  }

  TEST_CASE("tables fit COLUMNS")
  {
    Cli cli;
    cli.send(std::string(200, 'x'));
    cli.vars["COLUMNS"] = "50";
    CHECK(cli.run({"--as", "bob", "inbox"}) == 0);
    std::istringstream lines(cli.out.out_text());
    for (std::string line; std::getline(lines, line);) {
      CHECK(text::display_width(line) <= 50);
    }
  }
}

TEST_SUITE("mailroom::cli::compose")
{
  TEST_CASE("drafts are stripped as git strips a commit message")
  {
    CHECK(strip_draft("\n\n# comment\nSubject line  \n\n\n\nbody\n# more\n\n") == "Subject line\n\nbody\n");
    CHECK(strip_draft("# only comments\n\n   \n") == "");
    CHECK(strip_draft("  keep leading spaces\n#x\nend") == "  keep leading spaces\nend\n");
  }

  TEST_CASE("the first line of a draft is the subject; the blank lines after it are dropped")
  {
    Draft draft = split_draft(strip_draft("# c\nLunch plans\n\n\nNoon.\n\nBring cake.\n"));
    CHECK(draft.subject == "Lunch plans");
    CHECK(draft.body == "Noon.\n\nBring cake.\n");
    draft = split_draft(strip_draft("Subject only\n\n# nothing else\n"));
    CHECK(draft.subject == "Subject only");
    CHECK(draft.body.empty());
    draft = split_draft("One\nTwo\n");
    CHECK(draft.subject == "One");
    CHECK(draft.body == "Two\n");
  }

  TEST_CASE("the editor is chosen by git's rules")
  {
    using Env = util::MapEnvironment;
    CHECK(choose_editor(Env({}, "/")) == "vi");
    CHECK(choose_editor(Env({{"EDITOR", "nano"}}, "/")) == "nano");
    CHECK(choose_editor(Env({{"EDITOR", "nano"}, {"VISUAL", "code --wait"}}, "/")) == "code --wait");
    CHECK(choose_editor(Env({{"EDITOR", "nano"}, {"VISUAL", "code"}, {"TERM", "dumb"}}, "/")) == "nano");
    CHECK_FALSE(choose_editor(Env({{"TERM", "dumb"}}, "/")).has_value());
    CHECK(choose_editor(Env({{"MAILROOM_EDITOR", "ed"}, {"VISUAL", "code"}}, "/")) == "ed");
  }
}

} // namespace mailroom::cli
