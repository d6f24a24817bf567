// The MCP tools on a real bead store (a temporary file, one connection per call as the server
// runs them): a wait that takes a message marks it read only when its answer was written; a
// sender reading their own message gets the sender_read warning; every outputSchema is tested
// against its operation's result definition.

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include <doctest/doctest.h>
#include <fmt/format.h>
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
#include "ops/requests.hpp"
#include "ops/schedules.hpp"
#include "ops/search.hpp"
#include "ops/send.hpp"
#include "ops/sent.hpp"
#include "ops/thread.hpp"
#include "ops/views.hpp"
#include "ops/wait.hpp"
#include "ops/wake.hpp"
#include "render/json.hpp"
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

  mail::MessageId send(const std::string& from, const std::string& to, const std::string& body,
                       std::optional<std::string> subject = std::nullopt)
  {
    return send_to(from, {to}, body, std::move(subject));
  }

  mail::MessageId send_to(const std::string& from, std::vector<std::string> to, const std::string& body,
                          std::optional<std::string> subject = std::nullopt)
  {
    mail::SendRequest request;
    request.from = from;
    request.to = std::move(to);
    request.subject = std::move(subject);
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
  TEST_CASE("send's dedup and archive's filters: the mailbox's own stream, its own matching mail")
  {
    Server server("bob");
    const json first = server.call("send", json{{"to", "alice"}, {"body", "disk full"}, {"dedup", "disk"}});
    REQUIRE_FALSE(first.value("isError", false));
    const std::string first_id = first["structuredContent"]["id"];
    const json again = server.call("send", json{{"to", "alice"}, {"body", "disk full!"}, {"dedup", "disk"}});
    REQUIRE_FALSE(again.value("isError", false));
    CHECK(again["structuredContent"]["id"].is_null());
    CHECK(again["structuredContent"]["suppressed"][0]["id"] == first_id);
    CHECK(server.unread("alice") == 1);

    Server alice("alice");
    alice.send("bob", "alice", "noise one");
    alice.send("bob", "alice", "noise two");
    alice.send("carol", "alice", "from carol");
    const json dry = alice.call("archive", json{{"from", "bob"}, {"dry_run", true}});
    REQUIRE_FALSE(dry.value("isError", false));
    CHECK(dry["structuredContent"]["matches"].size() == 2);
    CHECK(alice.unread("alice") == 3);
    const json done = alice.call("archive", json{{"from", "bob"}});
    CHECK(done["structuredContent"]["ids"].size() == 2);
    CHECK(alice.unread("alice") == 1);
    // ids beside filters, as gc refuses them.
    const json both = alice.call("archive", json{{"ids", first_id}, {"from", "bob"}});
    CHECK(both.value("isError", false));
  }

  // Each outputSchema is generated from its operation's result schema (schema::from_operation):
  // every required key of the operation's result is required in it, and nothing else but the keys
  // the server always adds.
  TEST_CASE("every outputSchema is its operation's result schema, at the top level")
  {
    const std::map<std::string, json> ops_schemas{
        {"count", ops::count_output_schema()},
        {"check", ops::check_output_schema()},
        {"inbox", ops::inbox_output_schema()},
        {"sent", ops::sent_output_schema()},
        {"search", ops::search_output_schema()},
        {"read", ops::read_output_schema()},
        {"peek", ops::peek_output_schema()},
        {"thread", ops::thread_output_schema()},
        {"trace", ops::trace_output_schema()},
        {"status", ops::status_output_schema()},
        {"peers", ops::peers_output_schema()},
        {"team", ops::team_output_schema()},
        {"agents", ops::agents_output_schema()},
        {"archive", ops::change_output_schema()},
        {"unarchive", ops::change_output_schema()},
        {"delete", ops::change_output_schema()},
        {"mark_read", ops::change_output_schema()},
        {"mark_unread", ops::change_output_schema()},
        {"ack", ops::change_output_schema()},
        {"wait", ops::wait_output_schema()},
        {"send", ops::send_output_schema()},
        {"reply", ops::reply_output_schema()},
        {"cancel", ops::cancel_output_schema()},
        {"decline", ops::respond_output_schema()},
        {"ask", ops::respond_output_schema()},
        {"fail", ops::respond_output_schema()},
        {"schedule_add", ops::schedule_result_output_schema()},
        {"schedule_list", ops::schedule_list_output_schema()},
        {"schedule_cancel", ops::schedule_change_output_schema()},
        {"wake_status", ops::wake_status_output_schema()},
    };
    for (const ToolDef& tool : all_tools()) {
      CAPTURE(tool.name);
      const auto found = ops_schemas.find(std::string(tool.name));
      REQUIRE(found != ops_schemas.end());
      const json& theirs = found->second["properties"];
      const json ours = tool.output_schema();
      CHECK(ours["type"] == "object");
      CHECK_FALSE(ours.contains("properties")); // the keys' types are the operation's (docs/cli.md)
      for (const json& key : found->second.value("required", json::array())) {
        CAPTURE(key);
        CHECK(std::find(ours["required"].begin(), ours["required"].end(), key) != ours["required"].end());
      }
      for (const json& key : ours["required"]) {
        CAPTURE(key);
        const bool added = key == "mailbox" || key == "total" || key == "has_more" || key == "next_cursor";
        CHECK((theirs.contains(key.get<std::string>()) || added));
      }
    }
  }
}

TEST_SUITE("mailroom::mcp::tools")
{
  // What the server writes for a result: its size on the wire (escapes included).
  std::size_t wire_size(const json& result)
  {
    return render::dump_json(result).size();
  }

  // Registers `count` mailboxes with names of about 120 bytes ("<prefix>-NNN-…").
  std::vector<mail::Mailbox> add_long_names(Server & server, std::string_view prefix, int count)
  {
    std::vector<mail::Mailbox> names;
    for (int i = 0; i < count; ++i) {
      names.push_back(fmt::format("{}-{:03}-{}", prefix, i, std::string(110, 'n')));
    }
    REQUIRE(mailroom::testing::reach(*server.store).add_agents(names).ok());
    return names;
  }

  TEST_CASE("every result is within 48 KiB: lists are cut with has_more, total and a cursor")
  {
    Server server("bob");
    const std::vector<mail::Mailbox> many = add_long_names(server, "agent", 160);
    const std::string escapes(8000, '\x1b');
    for (int i = 0; i < 12; ++i) {
      server.send("alice", "bob", escapes, fmt::format("esc {}", i));
    }
    const mail::MessageId wide = server.send_to("bob", many, "to everyone");
    for (const auto& [tool, args] : std::vector<std::pair<std::string, json>>{
             {"check", json{{"limit", 100}}},
             {"check", json::object()},
             {"inbox", json{{"max_body_bytes", 1 << 20}}},
             {"team", json::object()},
             {"agents", json::object()},
             {"status", json{{"id", wide}}},
         }) {
      CAPTURE(tool);
      CAPTURE(args.dump());
      const json result = server.call(tool, args);
      REQUIRE_FALSE(result.value("isError", false));
      CHECK(wire_size(result) <= k_max_result_bytes);
      const json& doc = result["structuredContent"];
      CHECK(doc["has_more"] == true);
      CHECK(doc["next_cursor"].is_string());
      CHECK(doc["total"].get<std::size_t>() >= 12);
    }
  }

  TEST_CASE("following next_cursor pages through the whole list once")
  {
    Server server("alice");
    add_long_names(server, "member", 250);
    std::set<std::string> seen;
    std::size_t pages = 0;
    json args = json::object();
    for (;;) {
      const json result = server.call("agents", args);
      REQUIRE_FALSE(result.value("isError", false));
      CHECK(wire_size(result) <= k_max_result_bytes);
      const json& doc = result["structuredContent"];
      CHECK(doc["total"] == 252);
      for (const json& agent : doc["agents"]) {
        CHECK(seen.insert(agent["name"].get<std::string>()).second);
      }
      ++pages;
      if (!doc["has_more"].get<bool>()) {
        CHECK(doc["next_cursor"].is_null());
        break;
      }
      REQUIRE(pages < 50);
      args["cursor"] = doc["next_cursor"];
    }
    CHECK(pages > 1);
    CHECK(seen.size() == 252);
    // A cursor is the server's: anything else, or another tool's, is a usage error.
    CHECK(server.call("agents", json{{"cursor", "bogus"}})["structuredContent"]["error"]["code"] == "usage");
    const json team_page = server.call("team", json::object());
    if (team_page["structuredContent"]["next_cursor"].is_string()) {
      const json other =
          server.call("agents", json{{"cursor", team_page["structuredContent"]["next_cursor"]}});
      CHECK(other.value("isError", false));
    }
  }

  TEST_CASE("max_body_bytes cannot raise the bound: a single message of escapes still fits")
  {
    Server server("bob");
    const std::string esc_subject(4096, '\x1b');
    const std::string rtl_body = [] {
      std::string body;
      for (int i = 0; i < 20000; ++i) {
        body += "\xe2\x80\xae";
      }
      return body;
    }();
    const mail::MessageId id = server.send("alice", "bob", rtl_body, esc_subject);
    for (const char* tool : {"peek", "read", "thread"}) {
      CAPTURE(tool);
      const json result = server.call(tool, json{{"id", id}, {"max_body_bytes", 1 << 20}});
      REQUIRE_FALSE(result.value("isError", false));
      CHECK(wire_size(result) <= k_max_result_bytes);
    }
    const json found = server.call("peek", json{{"id", id}, {"max_body_bytes", 1 << 20}});
    CHECK(found["structuredContent"]["message"]["body_truncated"] == true);
    CHECK(found["structuredContent"]["message"]["subject"] == esc_subject);
  }

  TEST_CASE("outputSchemas list each required key once")
  {
    for (const ToolDef& tool : all_tools()) {
      CAPTURE(tool.name);
      const json schema = tool.output_schema();
      const std::vector<std::string> required = schema["required"].get<std::vector<std::string>>();
      const std::set<std::string> unique(required.begin(), required.end());
      CHECK(unique.size() == required.size());
    }
  }
}

} // namespace mailroom::mcp
