// `mailroom mcp --digest` (contract "MCP, round 2"; "Round 4: decisions after review", MCP): every
// tool result, error results included, gets a second text block with the unread line when the
// caller has unread mail, never in structuredContent, counted in the 48 KiB bound; none without
// unread mail or without --digest. On a real bead store (a temporary file, a connection per call).

#include <cstdlib>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "beads/bead_store.hpp"
#include "mcp/result.hpp"
#include "mcp/tools.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/reach.hpp"
#include "text/sanitize.hpp"
#include "util/environment.hpp"

namespace mailroom::mcp {

namespace {

struct DigestServer {
  std::filesystem::path dir;
  testing::FixedClock clock;
  config::Config config;
  mail::MailPolicy policy;
  util::MapEnvironment env{{}, "/"};
  std::unique_ptr<ConnectionPool> pool;
  std::unique_ptr<mail::Provider> store;
  ToolEnv tools;

  DigestServer()
  {
    std::string pattern = (std::filesystem::temp_directory_path() / "mailroom-digest-test.XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    dir = pattern;
    store = open(mail::Access::create);
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob"}).ok());
    pool = std::make_unique<ConnectionPool>([this]() -> Result<std::unique_ptr<mail::Provider>> {
      return std::unique_ptr<mail::Provider>(open());
    });
    tools.me = config::Identity{"alice", config::default_origin()};
    tools.config = &config;
    tools.policy = &policy;
    tools.clock = &clock;
    tools.environment = &env;
    tools.connections = pool.get();
    tools.digest = true;
  }
  ~DigestServer()
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

  mail::MessageId send(const std::string& type)
  {
    mail::SendRequest request;
    request.from = "bob";
    request.to = {"alice"};
    request.subject = "s";
    request.body = "b";
    request.type = type;
    auto receipt = store->send(request);
    REQUIRE(receipt.ok());
    return receipt->message.id;
  }

  json call(std::string_view tool, const json& args)
  {
    const ToolDef* def = find_tool(tool);
    REQUIRE(def != nullptr);
    return call_tool(*def, tools, args, {});
  }
};

} // namespace

TEST_SUITE("mailroom::mcp --digest")
{
  TEST_CASE("a second block with unread mail, on success and error results, never in structuredContent")
  {
    DigestServer server;
    CHECK(server.call("count", json::object())["content"].size() == 1);
    server.send("task_request");
    const mail::MessageId id = server.send("message");
    const json counted = server.call("count", json::object());
    REQUIRE(counted["content"].size() == 2);
    CHECK(counted["content"][1] ==
          json({{"type", "text"}, {"text", "mailroom: 2 unread (1 request awaits your reply)"}}));
    CHECK(counted["structuredContent"].dump().find("mailroom: 2 unread") == std::string::npos);
    // An error result (a bad argument, a missing message) has it too.
    const json bad = server.call("read", json{{"id", "zz-nothing"}});
    CHECK(bad["isError"] == true);
    REQUIRE(bad["content"].size() == 2);
    CHECK(bad["content"][1]["text"] == "mailroom: 2 unread (1 request awaits your reply)");
    const json invalid = server.call("count", json{{"no_such_argument", 1}});
    CHECK(invalid["isError"] == true);
    CHECK(invalid["content"].size() == 2);
    // Counted after the call's own change: reading one leaves one.
    const json read = server.call("read", json{{"id", id}});
    REQUIRE(read["content"].size() == 2);
    CHECK(read["content"][1]["text"] == "mailroom: 1 unread (1 request awaits your reply)");
    server.tools.digest = false;
    CHECK(server.call("count", json::object())["content"].size() == 1);
  }

  TEST_CASE("the digest block counts in the 48 KiB bound: the first block is cut, the line kept")
  {
    DigestServer server;
    const ToolDef* tool = find_tool("count");
    REQUIRE(tool != nullptr);
    ToolOutput out;
    out.structured = json{{"schema_version", 1}, {"total", 0}, {"unread", 0}};
    out.text = text::sanitize_line(std::string(k_max_result_bytes, 'x'));
    const json result = finish(*tool, server.tools, {}, std::move(out), std::string("mailroom: 9 unread"));
    CHECK(written_size(result) <= k_max_result_bytes);
    REQUIRE(result["content"].size() == 2);
    CHECK(result["content"][1]["text"] == "mailroom: 9 unread");
    CHECK(result["content"][0]["text"].get<std::string>().find("[cut: ") != std::string::npos);
  }
}

} // namespace mailroom::mcp
