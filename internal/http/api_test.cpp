// The API answered in process on a real bead store in memory: the Host, Origin and bearer rules,
// the login code, the views, paging, and the changes, each through http::handle.

#include <future>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "beads/bead_store.hpp"
#include "http/api.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/reach.hpp"
#include "util/environment.hpp"

namespace mailroom::http {

namespace {

using nlohmann::json;

struct Served {
  testing::FixedClock clock;
  config::Config config;
  mail::MailPolicy policy;
  util::MapEnvironment env{{}, "/"};
  config::Identity me{"human", config::default_origin()};
  std::unique_ptr<mail::Provider> store;
  ops::ConnectionPool connections;
  // While `gated`, a connection is handed out only once `gate` opens (a store that is slow to answer).
  bool gated = false;
  std::promise<void> open_gate;
  std::shared_future<void> gate = open_gate.get_future().share();
  Credentials credentials{std::string(64, 'a')};
  LoginCodes codes;
  ApiEnv api;

  Served()
      : connections([this]() -> Result<std::unique_ptr<mail::Provider>> {
          // One store in memory: the requests run one after another and give it back.
          if (gated) {
            gate.wait();
          }
          if (!store) {
            return make_error(ErrorCode::store_error, "the test store is in use");
          }
          return std::move(store);
        }),
        api{config,
            policy,
            clock,
            me,
            env,
            connections,
            credentials,
            codes,
            host_rule({}, 8025),
            [](std::string_view path) -> std::optional<Asset> {
              if (path == "/") {
                return Asset{"text/html; charset=utf-8", "<!doctype html>"};
              }
              return std::nullopt;
            }}
  {
    mail::StoreSettings settings;
    settings.path = ":memory:";
    auto made = providers::beads::open_bead_store(settings, policy, clock);
    REQUIRE(made.ok());
    store = std::move(made).value();
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob", "rig/carol"}).ok());
  }

  void send(const std::string& from, const std::string& to, const std::string& subject)
  {
    auto provider = connections.take();
    REQUIRE(provider.ok());
    mail::SendRequest request;
    request.from = from;
    request.to = {to};
    request.subject = subject;
    request.body = "body of " + subject;
    REQUIRE((*provider)->send(request).ok());
    connections.give_back(std::move(provider).value());
    clock.advance(1000);
  }

  Response call(const std::string& method, const std::string& target, const std::string& body = {},
                std::optional<std::string> bearer = std::string(64, 'a'))
  {
    Request request;
    request.method = method;
    request.target = target;
    request.host = "127.0.0.1:8025";
    request.body = body;
    if (bearer) {
      request.authorization = "Bearer " + *bearer;
    }
    return handle(api, request);
  }

  json get(const std::string& target)
  {
    const Response response = call("GET", target);
    CAPTURE(target);
    CAPTURE(response.body);
    REQUIRE(response.status == 200);
    return json::parse(response.body);
  }
};

std::string code_of(const Response& response)
{
  return json::parse(response.body)["error"]["code"];
}

} // namespace

TEST_CASE("api: a foreign Host or Origin is refused before anything else")
{
  Served s;
  Request request;
  request.method = "GET";
  request.target = "/api/v1/team";
  request.authorization = "Bearer " + std::string(64, 'a');
  Response none = handle(s.api, request);
  CHECK(none.status == 403);
  CHECK(code_of(none) == "forbidden_host");
  request.host = "127.0.0.1:9999";
  CHECK(code_of(handle(s.api, request)) == "forbidden_host");
  request.host = "evil.example:8025";
  CHECK(code_of(handle(s.api, request)) == "forbidden_host");
  request.host = "localhost:8025";
  request.origin = "http://127.0.0.1:8026";
  Response origin = handle(s.api, request);
  CHECK(origin.status == 403);
  CHECK(code_of(origin) == "forbidden_origin");
  request.origin = "http://localhost:8025";
  CHECK(handle(s.api, request).status == 200);
  request.method = "OPTIONS";
  Response options = handle(s.api, request);
  CHECK(options.status == 405);
  CHECK_FALSE(options.allow.empty());
}

TEST_CASE("api: the API needs a bearer; a login code gives the session token once")
{
  Served s;
  CHECK(s.call("GET", "/api/v1/team", {}, std::nullopt).status == 401);
  CHECK(code_of(s.call("GET", "/api/v1/team", {}, std::string(64, 'b'))) == "unauthorized");
  CHECK(s.call("GET", "/", {}, std::nullopt).status == 200); // the page itself holds no data
  CHECK(s.call("GET", "/nothing", {}, std::nullopt).status == 404);

  const std::string code = s.codes.issue(s.clock.now());
  const Response login = s.call("POST", "/api/v1/session", json{{"code", code}}.dump(), std::nullopt);
  REQUIRE(login.status == 200);
  const std::string session = json::parse(login.body)["token"];
  CHECK(session == s.credentials.session_token());
  CHECK(s.call("GET", "/api/v1/team", {}, session).status == 200);
  const Response again = s.call("POST", "/api/v1/session", json{{"code", code}}.dump(), std::nullopt);
  CHECK(again.status == 401);
  CHECK(code_of(again) == "unauthorized");
  CHECK(s.call("POST", "/api/v1/session", "{not json", std::nullopt).status == 400);
}

TEST_CASE("api: a mailbox's boxes page with opaque cursors; rig%2Fname names one mailbox")
{
  Served s;
  for (int i = 0; i < 5; ++i) {
    s.send("alice", "bob", "to bob " + std::to_string(i));
  }
  s.send("bob", "alice", "from bob");
  s.send("alice", "rig/carol", "to carol");

  json first = s.get("/api/v1/mailboxes/bob/messages?box=in&limit=2");
  CHECK(first["mailbox"] == "bob");
  CHECK(first["total"] == 5);
  REQUIRE(first["messages"].size() == 2);
  CHECK(first["messages"][0]["subject"] == "to bob 0");
  CHECK(first["has_more"] == true);
  std::vector<std::string> seen;
  json page = first;
  while (true) {
    for (const json& m : page["messages"]) {
      seen.push_back(m["subject"]);
    }
    if (!page["has_more"].get<bool>()) {
      CHECK(page["next_cursor"].is_null());
      break;
    }
    page = s.get("/api/v1/mailboxes/bob/messages?box=in&limit=2&cursor=" +
                 page["next_cursor"].get<std::string>());
  }
  CHECK(seen == std::vector<std::string>{"to bob 0", "to bob 1", "to bob 2", "to bob 3", "to bob 4"});

  json out = s.get("/api/v1/mailboxes/bob/messages?box=out");
  REQUIRE(out["messages"].size() == 1);
  CHECK(out["messages"][0]["subject"] == "from bob");

  json all = s.get("/api/v1/mailboxes/bob/messages?box=all&limit=3");
  REQUIRE(all["messages"].size() == 3);
  CHECK(all["messages"][0]["subject"] == "from bob"); // newest first
  CHECK(all["messages"][1]["subject"] == "to bob 4");
  CHECK(all["total"] == 6);

  // In is `inbox`: a message bob read leaves it (and its total); All still lists it.
  const std::string read_id = all["messages"][1]["id"];
  CHECK(s.call("POST", "/api/v1/messages/" + read_id + "/read", json{{"for", "bob"}}.dump()).status == 200);
  json in = s.get("/api/v1/mailboxes/bob/messages?box=in");
  CHECK(in["total"] == 4);
  CHECK(in["unread"] == 4);
  REQUIRE(in["messages"].size() == 4);
  for (const json& m : in["messages"]) {
    CHECK(m["id"] != read_id);
    CHECK(m["read"] == false);
  }
  json after = s.get("/api/v1/mailboxes/bob/messages?box=all");
  CHECK(after["total"] == 6);
  CHECK(after["unread"] == 4);

  json carol = s.get("/api/v1/mailboxes/rig%2Fcarol/messages");
  REQUIRE(carol["messages"].size() == 1);
  CHECK(carol["mailbox"] == "rig/carol");

  const Response cross = s.call("GET", "/api/v1/mailboxes/bob/messages?box=out&cursor=" +
                                           first["next_cursor"].get<std::string>());
  CHECK(cross.status == 400);
  CHECK(s.call("GET", "/api/v1/mailboxes/bob/messages?box=sideways").status == 400);
  CHECK(s.call("GET", "/api/v1/mailboxes/bob/messages?limit=0").status == 400);
}

TEST_CASE("api: GET session names the operator and the types it may send")
{
  Served s;
  json doc = s.get("/api/v1/session");
  CHECK(doc["identity"] == "human");
  bool request_type = false;
  for (const json& t : doc["types"]) {
    if (t["name"] == "task_request") {
      request_type = t["expects_reply"] == true;
    }
  }
  CHECK(request_type);
  CHECK(doc["types"][0] == json{{"name", "message"}, {"expects_reply", false}});
}

TEST_CASE("api: views change nothing; a change with \"for\" acts on that recipient's delivery")
{
  Served s;
  s.send("alice", "bob", "hello");
  json inbox = s.get("/api/v1/mailboxes/bob/messages");
  const std::string id = inbox["messages"][0]["id"];
  CHECK(inbox["messages"][0]["read"] == false);

  json message = s.get("/api/v1/messages/" + id + "?mailbox=bob");
  CHECK(message["message"]["id"] == id);
  CHECK(s.get("/api/v1/mailboxes/bob/messages")["messages"][0]["read"] == false);
  CHECK(s.call("HEAD", "/api/v1/messages/" + id).status == 200);
  CHECK(s.get("/api/v1/threads/" + id + "?mailbox=bob")["messages"].size() == 1);
  CHECK(s.get("/api/v1/status/" + id)["recipients"].size() == 1);
  CHECK(s.call("GET", "/api/v1/messages/mr-nothing").status == 404);

  const Response changed = s.call("POST", "/api/v1/messages/" + id + "/read", R"({"for":"bob"})");
  CHECK(changed.status == 200);
  CHECK(s.get("/api/v1/mailboxes/bob/messages")["messages"].empty()); // In is unread mail only
  CHECK(s.get("/api/v1/mailboxes/bob/messages?box=all")["messages"][0]["read"] == true);
  CHECK(s.call("POST", "/api/v1/messages/" + id + "/archive", R"({"for":"bob"})").status == 200);
  CHECK(s.get("/api/v1/mailboxes/bob/messages?box=all")["messages"].empty());
}

TEST_CASE("api: POST messages sends as the operator with the MCP tool's argument names")
{
  Served s;
  const Response sent =
      s.call("POST", "/api/v1/messages", R"({"to":["alice"],"subject":"hi","body":"from the page"})");
  CAPTURE(sent.body);
  REQUIRE(sent.status == 200);
  const json receipt = json::parse(sent.body);
  CHECK(receipt["recipients"] == json::array({"alice"}));
  json inbox = s.get("/api/v1/mailboxes/alice/messages");
  REQUIRE(inbox["messages"].size() == 1);
  CHECK(inbox["messages"][0]["from"] == "human");
  CHECK(inbox["messages"][0]["body"] == "from the page");

  s.send("alice", "human", "a question");
  const json mine = s.get("/api/v1/mailboxes/human/messages");
  REQUIRE(mine["messages"].size() == 1);
  const std::string question = mine["messages"][0]["id"];
  const Response replied =
      s.call("POST", "/api/v1/messages/" + question + "/reply", R"({"body":"an answer"})");
  CAPTURE(replied.body);
  REQUIRE(replied.status == 200);
  CHECK(json::parse(replied.body)["reply_to"] == question);
  json answers = s.get("/api/v1/mailboxes/alice/messages");
  REQUIRE(answers["messages"].size() == 2);
  CHECK(answers["messages"][1]["body"] == "an answer");
  CHECK(answers["messages"][1]["from"] == "human");
  const Response bad = s.call("POST", "/api/v1/messages", R"({"to":"nobody-here","body":"x"})");
  CHECK(bad.status == 400);
  CHECK(code_of(bad) == "unknown_recipient");
  CHECK(s.call("POST", "/api/v1/messages", R"({"to":7,"body":"x"})").status == 400);
  CHECK(s.call("POST", "/api/v1/messages", R"(["to"])").status == 400);
  CHECK(s.call("POST", "/api/v1/messages", R"({"body":"x"})").status == 400);
}

TEST_CASE("api: search of every mailbox, and a search past its deadline is a 504 that leaves nothing running")
{
  Served s;
  s.send("alice", "bob", "deploy plan");
  s.send("bob", "rig/carol", "deploy done");
  s.send("alice", "bob", "lunch");
  const json every = s.get("/api/v1/search?q=deploy&mailbox=*");
  CHECK(every["mailbox"] == "*");
  CHECK(every["messages"].size() == 2);
  const json bobs = s.get("/api/v1/search?q=deploy&mailbox=rig%2Fcarol");
  CHECK(bobs["messages"].size() == 1);

  // The search's connection is slow to come: the pool is empty and its maker waits at the gate.
  auto held = s.connections.take();
  REQUIRE(held.ok());
  s.api.search_deadline_ms = 50;
  s.gated = true;
  const Response late = s.call("GET", "/api/v1/search?q=deploy&mailbox=*");
  CHECK(late.status == 504);
  CHECK(code_of(late) == "timeout");
  s.open_gate.set_value();
  CHECK(s.api.background.wait_idle(10000)); // the late search ends (here without a store)
  s.connections.give_back(std::move(held).value());
  CHECK(s.get("/api/v1/search?q=deploy&mailbox=*")["messages"].size() == 2);
}

} // namespace mailroom::http
