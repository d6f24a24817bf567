// What `mailroom serve` decides on a request's head before it reads its body (http::admit), and
// the route table's argument checks through http::handle, on a real bead store in memory.

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

const std::string k_token(64, 'a');

struct World {
  testing::FixedClock clock;
  config::Config config;
  mail::MailPolicy policy;
  util::MapEnvironment env{{}, "/"};
  config::Identity me{"human", config::default_origin()};
  std::unique_ptr<mail::Provider> store;
  ops::ConnectionPool connections;
  Credentials credentials{k_token};
  LoginCodes codes;
  ApiEnv api;

  World()
      : connections([this]() -> Result<std::unique_ptr<mail::Provider>> {
          if (!store) {
            return make_error(ErrorCode::store_error, "the test store is in use");
          }
          return std::move(store);
        }),
        api{config, policy, clock, me, env, connections, credentials, codes, host_rule({}, 8025), {}}
  {
    mail::StoreSettings settings;
    settings.path = ":memory:";
    auto made = providers::beads::open_bead_store(settings, policy, clock);
    REQUIRE(made.ok());
    store = std::move(made).value();
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob"}).ok());
    api.link_host = "127.0.0.1:8025";
  }

  static Request head(const std::string& method, const std::string& target,
                      const std::string& bearer = k_token)
  {
    Request request;
    request.method = method;
    request.target = target;
    request.host = "127.0.0.1:8025";
    if (!bearer.empty()) {
      request.authorization = "Bearer " + bearer;
    }
    return request;
  }

  Response post(const std::string& target, const json& body, const std::string& bearer = k_token)
  {
    Request request = head("POST", target, bearer);
    request.body = body.dump();
    return handle(api, request);
  }
};

json error_of(const Response& response)
{
  return json::parse(response.body)["error"];
}

} // namespace

TEST_CASE("admit: a repeated Host, Origin, Authorization or Last-Event-ID is 400 before anything else")
{
  World w;
  for (const char* name : {"Host", "Origin", "Authorization", "Last-Event-ID"}) {
    CAPTURE(name);
    Request request = World::head("POST", "/api/v1/messages");
    request.repeated = {name};
    const Admission admission = admit(w.api, request);
    REQUIRE(admission.refusal);
    CHECK(admission.refusal->status == 400);
    CHECK(error_of(*admission.refusal)["message"] ==
          std::string("the request has more than one ") + name + " header");
    CHECK(handle(w.api, request).status == 400); // the same answer when asked with a body
  }
}

TEST_CASE("admit: the head decides the bearer, the route and how large a body may be")
{
  World w;
  const Admission team = admit(w.api, World::head("POST", "/api/v1/messages"));
  CHECK_FALSE(team.refusal);
  CHECK(team.authenticated);
  CHECK(team.body_limit == k_max_body_bytes);

  const Admission anonymous = admit(w.api, World::head("POST", "/api/v1/messages", ""));
  REQUIRE(anonymous.refusal);
  CHECK(anonymous.refusal->status == 401);
  CHECK_FALSE(anonymous.authenticated);

  const Admission login = admit(w.api, World::head("POST", "/api/v1/session", ""));
  CHECK_FALSE(login.refusal);
  CHECK_FALSE(login.authenticated);
  CHECK(login.body_limit == k_unauthenticated_body_bytes);

  const Admission page = admit(w.api, World::head("GET", "/", ""));
  CHECK_FALSE(page.refusal);
  CHECK_FALSE(page.authenticated);

  CHECK(admit(w.api, World::head("POST", "/api/v1/nothing")).refusal->status == 404);
  CHECK(admit(w.api, World::head("DELETE", "/api/v1/team")).refusal->status == 405);
  Request foreign = World::head("POST", "/api/v1/messages");
  foreign.origin = "http://evil.example";
  CHECK(admit(w.api, foreign).refusal->status == 403);
}

TEST_CASE("api: unknown body keys and query parameters are usage errors naming them; nothing is sent")
{
  World w;
  const Response typo = w.post("/api/v1/messages", json{{"to", "bob"}, {"body", "x"}, {"priorty", "urgent"}});
  CHECK(typo.status == 400);
  CHECK(error_of(typo)["code"] == "usage");
  CHECK(error_of(typo)["message"] == "unknown argument \"priorty\"");
  CHECK(error_of(typo)["hint"] == "did you mean \"priority\"?");
  CHECK(w.post("/api/v1/messages", json{{"to", "bob"}, {"body", "x"}, {"priority", "hi"}}).status == 400);
  CHECK(w.post("/api/v1/messages", json{{"to", 3}, {"body", "x"}}).status == 400);
  const Response view = handle(w.api, World::head("GET", "/api/v1/team?verbose=1"));
  CHECK(view.status == 400);
  CHECK(error_of(view)["message"] == "unknown argument \"verbose\"");
  // The store saw none of them: bob has no mail.
  const Response inbox = handle(w.api, World::head("GET", "/api/v1/mailboxes/bob/messages?box=in"));
  REQUIRE(inbox.status == 200);
  CHECK(json::parse(inbox.body)["total"] == 0);
  // The keys the page sends pass; null is a key not given.
  const Response sent = w.post(
      "/api/v1/messages", json{{"to", json::array({"bob"})}, {"cc", nullptr}, {"body", "x"}, {"ack", true}});
  CHECK(sent.status == 200);
}

TEST_CASE("api: a login link comes only for the token itself, never for a session token")
{
  World w;
  const Response link = w.post("/api/v1/login-codes", json::object());
  REQUIRE(link.status == 200);
  const std::string url = json::parse(link.body)["url"];
  REQUIRE(url.starts_with("http://127.0.0.1:8025/login#c="));
  const std::string code = url.substr(url.find("#c=") + 3);
  CHECK(w.post("/api/v1/login-codes", json::object(), w.credentials.session_token()).status == 401);
  CHECK(w.post("/api/v1/login-codes", json::object(), "").status == 401);
  // The code is a login code like serve's own: once.
  CHECK(w.post("/api/v1/session", json{{"code", code}}, "").status == 200);
  CHECK(w.post("/api/v1/session", json{{"code", code}}, "").status == 401);
}

} // namespace mailroom::http
