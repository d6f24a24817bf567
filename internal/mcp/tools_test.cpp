// The MCP tools on a real bead store (a temporary file, one connection per call as the server
// runs them): a wait that takes a message marks it read only when its answer was written; a
// sender reading their own message gets the sender_read warning; every outputSchema is tested
// against its operation's result definition.

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "beads/bead_store.hpp"
#include "mcp/tools.hpp"
#include "ops/agents.hpp"
#include "ops/change.hpp"
#include "ops/check.hpp"
#include "ops/count.hpp"
#include "ops/inbox.hpp"
#include "ops/peek.hpp"
#include "ops/read.hpp"
#include "ops/search.hpp"
#include "ops/send.hpp"
#include "ops/sent.hpp"
#include "ops/thread.hpp"
#include "ops/views.hpp"
#include "ops/wait.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/reach.hpp"
#include "util/environment.hpp"

namespace mailroom::mcp {

namespace {

struct Server {
  std::filesystem::path dir;
  testing::FixedClock clock;
  config::Config config;
  mail::MailPolicy policy;
  util::MapEnvironment env{{}, "/"};
  std::unique_ptr<ConnectionPool> pool;
  std::unique_ptr<mail::Provider> store; // the test's own connection, to look
  ToolEnv tools;

  explicit Server(const std::string& me)
  {
    std::string pattern = (std::filesystem::temp_directory_path() / "mailroom-mcp-test.XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    dir = pattern;
    store = open(mail::Access::create);
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob"}).ok());
    pool = std::make_unique<ConnectionPool>([this]() -> Result<std::unique_ptr<mail::Provider>> {
      return std::unique_ptr<mail::Provider>(open());
    });
    tools.me = config::Identity{me, config::default_origin()};
    tools.config = &config;
    tools.policy = &policy;
    tools.clock = &clock;
    tools.environment = &env;
    tools.connections = pool.get();
  }
  ~Server()
  {
    pool.reset();
    store.reset();
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }

  std::unique_ptr<mail::Provider> open(mail::Access access = mail::Access::write)
  {
    mail::StoreSettings settings;
    settings.path = (dir / "mail.db").string();
    settings.access = access;
    auto made = providers::beads::open_bead_store(settings, policy, clock);
    REQUIRE(made.ok());
    return std::move(made).value();
  }

  mail::MessageId send(const std::string& from, const std::string& to, const std::string& body)
  {
    mail::SendRequest request;
    request.from = from;
    request.to = {to};
    request.body = body;
    auto receipt = store->send(request);
    REQUIRE(receipt.ok());
    return receipt->message.id;
  }

  std::int64_t unread(const std::string& name)
  {
    auto counts = store->count(name);
    REQUIRE(counts.ok());
    return counts->unread;
  }

  json call(std::string_view tool, const json& args, const Answer& answer = {}, std::stop_token stop = {})
  {
    const ToolDef* def = find_tool(tool);
    REQUIRE(def != nullptr);
    return call_tool(*def, tools, args, std::move(stop), answer);
  }
};

} // namespace

TEST_SUITE("mailroom::mcp::tools")
{
  TEST_CASE("wait read=true marks the message read only when its answer was written")
  {
    Server server("alice");
    const mail::MessageId id = server.send("bob", "alice", "take me");
    const json args{{"read", true}, {"timeout", "2s"}};

    // A cancellation that arrives after the take, before the answer (the server cancels and
    // stops the request in one step, then refuses its answer): the message stays unread.
    std::stop_source cancel;
    int refused = 0;
    const json cancelled = server.call(
        "wait", args,
        [&](const json&) {
          ++refused;
          cancel.request_stop();
          return false;
        },
        cancel.get_token());
    CHECK(refused == 1);
    CHECK(cancelled.value("isError", false));
    CHECK(server.unread("alice") == 1);

    // Written: the answer carries the message, marked read, and nothing else is answered.
    json written;
    const json answered = server.call("wait", args, [&](const json& result) {
      written = result;
      return true;
    });
    CHECK(answered.is_null());
    REQUIRE(written.contains("structuredContent"));
    CHECK(written["structuredContent"]["message"]["id"] == id);
    CHECK(written["structuredContent"]["message"]["read"] == true);
    CHECK(written["structuredContent"]["mailbox"] == "alice");
    CHECK(server.unread("alice") == 0);
  }

  TEST_CASE("a sender reading their own message gets sender_read, and the copy stays unread")
  {
    Server server("bob");
    const mail::MessageId id = server.send("bob", "alice", "mine");
    const json result = server.call("read", json{{"id", id}});
    REQUIRE_FALSE(result.value("isError", false));
    const json& doc = result["structuredContent"];
    REQUIRE(doc.contains("warnings"));
    CHECK(doc["warnings"][0]["code"] == "sender_read");
    CHECK(result["content"][0]["text"].get<std::string>().find("warning: you sent") != std::string::npos);
    CHECK(server.unread("alice") == 1);
    // An ordinary read has no warnings key.
    Server reader("alice");
    const mail::MessageId other = reader.send("bob", "alice", "theirs");
    const json plain = reader.call("read", json{{"id", other}});
    CHECK_FALSE(plain["structuredContent"].contains("warnings"));
  }
}

TEST_SUITE("mailroom::mcp::tools")
{
  // Each outputSchema is generated from its operation's result schema (schema::from_operation):
  // every key and required key of the operation's result is in it, with the operation's type.
  TEST_CASE("every outputSchema is its operation's result schema, at the top level")
  {
    const std::map<std::string, json> ops_schemas{
        {"count", ops::count_output_schema()},      {"check", ops::check_output_schema()},
        {"inbox", ops::inbox_output_schema()},      {"sent", ops::sent_output_schema()},
        {"search", ops::search_output_schema()},    {"read", ops::read_output_schema()},
        {"peek", ops::peek_output_schema()},        {"thread", ops::thread_output_schema()},
        {"trace", ops::trace_output_schema()},      {"status", ops::status_output_schema()},
        {"peers", ops::peers_output_schema()},      {"team", ops::team_output_schema()},
        {"agents", ops::agents_output_schema()},    {"archive", ops::change_output_schema()},
        {"unarchive", ops::change_output_schema()}, {"delete", ops::change_output_schema()},
        {"mark_read", ops::change_output_schema()}, {"mark_unread", ops::change_output_schema()},
        {"ack", ops::change_output_schema()},       {"wait", ops::wait_output_schema()},
        {"send", ops::send_output_schema()},        {"reply", ops::reply_output_schema()},
    };
    const json wait_keys = ops::wait_output_schema()["properties"];
    for (const ToolDef& tool : all_tools()) {
      CAPTURE(tool.name);
      const auto found = ops_schemas.find(std::string(tool.name));
      REQUIRE(found != ops_schemas.end());
      const json& theirs = found->second["properties"];
      const json ours = tool.output_schema();
      for (const auto& [key, value] : theirs.items()) {
        CAPTURE(key);
        REQUIRE(ours["properties"].contains(key));
        if (value.contains("type")) {
          CHECK(ours["properties"][key]["type"] == value["type"]);
        }
      }
      for (const json& key : found->second.value("required", json::array())) {
        CAPTURE(key);
        CHECK(std::find(ours["required"].begin(), ours["required"].end(), key) != ours["required"].end());
      }
      for (const auto& [key, value] : ours["properties"].items()) {
        CAPTURE(key);
        const bool added = key == "mailbox" || key == "total" || key == "has_more" ||
                           (tool.name == "send" && (wait_keys.contains(key) || key == "reply"));
        CHECK((theirs.contains(key) || added));
      }
    }
  }
}

TEST_SUITE("mailroom::mcp::tools")
{
  TEST_CASE("outputSchemas list each required key once")
  {
    for (const ToolDef& tool : all_tools()) {
      CAPTURE(tool.name);
      const json schema = tool.output_schema();
      const std::vector<std::string> required = schema["required"].get<std::vector<std::string>>();
      const std::set<std::string> unique(required.begin(), required.end());
      CHECK(unique.size() == required.size());
      for (const std::string& key : required) {
        CHECK(schema["properties"].contains(key));
      }
    }
  }
}

} // namespace mailroom::mcp
