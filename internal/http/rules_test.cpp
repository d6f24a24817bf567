// The pure rules of `mailroom serve`: statuses, Host and Origin, bearers, --listen, routes,
// percent-decoding, cursors, HMAC, login codes and the token file.

#include <sys/stat.h>

#include <set>

#include <doctest/doctest.h>

#include "http/auth.hpp"
#include "http/cursor.hpp"
#include "http/route.hpp"
#include "http/rules.hpp"
#include "testing/temp_dir.hpp"
#include "util/environment.hpp"
#include "util/file_read.hpp"

namespace mailroom::http {

TEST_CASE("http: every error code has the contract's status")
{
  CHECK(status_of(ErrorCode::usage) == 400);
  CHECK(status_of(ErrorCode::invalid_recipient) == 400);
  CHECK(status_of(ErrorCode::unknown_recipient) == 400);
  CHECK(status_of(ErrorCode::ambiguous_id) == 400);
  CHECK(status_of(Refusal::unauthorized) == 401);
  CHECK(status_of(ErrorCode::not_recipient) == 403);
  CHECK(status_of(Refusal::forbidden_host) == 403);
  CHECK(status_of(Refusal::forbidden_origin) == 403);
  CHECK(status_of(ErrorCode::not_found) == 404);
  CHECK(status_of(ErrorCode::conflict) == 409);
  CHECK(status_of(Refusal::payload_too_large) == 413);
  CHECK(status_of(ErrorCode::unsupported) == 501);
  CHECK(status_of(ErrorCode::store_error) == 503);
  CHECK(status_of(ErrorCode::provider_error) == 503);
  CHECK(status_of(Refusal::too_many_streams) == 503);
  CHECK(status_of(ErrorCode::timeout) == 504);
  CHECK(code_of(Refusal::too_many_streams) == "too_many_streams");
  CHECK(base_code_of(Refusal::too_many_streams) == ErrorCode::store_error);
  CHECK(base_code_of(Refusal::forbidden_origin) == ErrorCode::usage);
}

TEST_CASE("http: the Host must be one of the server's names with its port")
{
  const HostRule rule = host_rule({"mybox.lan"}, 8025);
  CHECK(host_allowed(rule, "127.0.0.1:8025"));
  CHECK(host_allowed(rule, "localhost:8025"));
  CHECK(host_allowed(rule, "LOCALHOST:8025"));
  CHECK(host_allowed(rule, "[::1]:8025"));
  CHECK(host_allowed(rule, "mybox.lan:8025"));
  CHECK_FALSE(host_allowed(rule, "127.0.0.1:9999"));
  CHECK_FALSE(host_allowed(rule, "127.0.0.1"));
  CHECK_FALSE(host_allowed(rule, "evil.example:8025"));
  CHECK_FALSE(host_allowed(rule, "127.0.0.1.evil.example:8025"));
  CHECK_FALSE(host_allowed(rule, "localhost:80250"));
  CHECK_FALSE(host_allowed(rule, ":8025"));
  CHECK_FALSE(host_allowed(rule, ""));
  CHECK_FALSE(host_allowed(host_rule({}, 8025), "mybox.lan:8025"));
}

TEST_CASE("http: a present Origin must be the server's own, port included")
{
  CHECK(origin_allowed("127.0.0.1:8025", "http://127.0.0.1:8025"));
  CHECK_FALSE(origin_allowed("127.0.0.1:8025", "http://127.0.0.1:8026"));
  CHECK_FALSE(origin_allowed("127.0.0.1:8025", "https://127.0.0.1:8025"));
  CHECK_FALSE(origin_allowed("127.0.0.1:8025", "http://localhost:8025"));
  CHECK_FALSE(origin_allowed("127.0.0.1:8025", "null"));
  CHECK_FALSE(origin_allowed("127.0.0.1:8025", ""));
}

TEST_CASE("http: bearers are read from the header and compared whole")
{
  CHECK(bearer_of("Bearer abc") == "abc");
  CHECK(bearer_of("bearer  abc ") == "abc");
  CHECK(bearer_of("Basic abc").empty());
  CHECK(bearer_of("Bearer").empty());
  CHECK(constant_time_equal("abc", "abc"));
  CHECK_FALSE(constant_time_equal("abc", "abd"));
  CHECK_FALSE(constant_time_equal("abc", "abcd"));
  CHECK_FALSE(constant_time_equal("", "a"));
  CHECK(constant_time_equal("", ""));
}

TEST_CASE("http: --listen is ADDR:PORT, IPv6 in brackets")
{
  auto v4 = parse_listen("127.0.0.1:0");
  REQUIRE(v4.ok());
  CHECK(v4->address == "127.0.0.1");
  CHECK(v4->port == 0);
  CHECK(v4->loopback);
  CHECK(v4->host(8025) == "127.0.0.1:8025");
  auto v6 = parse_listen("[::1]:8025");
  REQUIRE(v6.ok());
  CHECK(v6->address == "::1");
  CHECK(v6->loopback);
  CHECK(v6->host(8025) == "[::1]:8025");
  auto open = parse_listen("0.0.0.0:8025");
  REQUIRE(open.ok());
  CHECK_FALSE(open->loopback);
  for (const char* bad : {"127.0.0.1", "127.0.0.1:", ":8025", "127.0.0.1:65536", "127.0.0.1:x", "::1:8025",
                          "[::1]8025", "[1.2.3.4]:80"}) {
    CAPTURE(bad);
    auto parsed = parse_listen(bad);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.error().code == ErrorCode::usage);
  }
}

TEST_CASE("http: path segments are decoded one by one, so rig%2Fname is one mailbox")
{
  auto target = parse_target("/api/v1/mailboxes/rig%2Fname/messages?box=all&limit=5&q=a+b%26c");
  REQUIRE(target.ok());
  REQUIRE(target->segments.size() == 5);
  CHECK(target->segments[3] == "rig/name");
  CHECK(target->query.at("box") == "all");
  CHECK(target->query.at("q") == "a b&c");
  auto routed = route("GET", *target);
  REQUIRE(std::holds_alternative<Route>(routed));
  CHECK(std::get<Route>(routed).spec->path == "mailboxes/{name}/messages");
  CHECK(std::get<Route>(routed).param("name") == "rig/name");
  CHECK_FALSE(parse_target("/api/v1/messages/%zz").ok());
  CHECK_FALSE(parse_target("/api/v1/messages/%00").ok());
  CHECK_FALSE(parse_target("/api/v1/messages/%4").ok());
  CHECK_FALSE(parse_target("api/v1/team").ok());
}

TEST_CASE("http: routes by method and path from the table; unknown paths 404, other methods 405")
{
  const auto routed = [](std::string_view method, std::string_view path) {
    auto target = parse_target(path);
    REQUIRE(target.ok());
    return route(method, *target);
  };
  const auto row = [&](std::string_view method, std::string_view path) -> std::string {
    auto r = routed(method, path);
    REQUIRE(std::holds_alternative<Route>(r));
    const Route& found = std::get<Route>(r);
    return found.spec == nullptr ? "asset"
                                 : std::string(found.spec->method) + " " + std::string(found.spec->path);
  };
  const auto refused = [&](std::string_view method, std::string_view path) {
    auto r = routed(method, path);
    REQUIRE(std::holds_alternative<NoRoute>(r));
    const NoRoute& none = std::get<NoRoute>(r);
    return std::to_string(none.status) + (none.allow.empty() ? "" : " " + none.allow);
  };
  CHECK(row("GET", "/") == "asset");
  CHECK(row("HEAD", "/assets/app.js") == "asset");
  CHECK(row("GET", "/api/v1/team") == "GET team");
  CHECK(row("HEAD", "/api/v1/team") == "GET team");
  CHECK(row("POST", "/api/v1/session") == "POST session");
  CHECK(row("POST", "/api/v1/messages") == "POST messages");
  CHECK(row("GET", "/api/v1/messages/mr-1") == "GET messages/{id}");
  CHECK(row("POST", "/api/v1/messages/mr-1/reply") == "POST messages/{id}/reply");
  CHECK(row("POST", "/api/v1/messages/mr-1/archive") == "POST messages/{id}/archive");
  CHECK(row("POST", "/api/v1/messages/mr-1/cancel") == "POST messages/{id}/cancel");
  CHECK(row("POST", "/api/v1/messages/mr-1/ask") == "POST messages/{id}/ask");
  CHECK(row("GET", "/api/v1/traces") == "GET traces");
  CHECK(row("GET", "/api/v1/traces/t1") == "GET traces/{id}");
  CHECK(row("GET", "/api/v1/events") == "GET events");
  CHECK(row("GET", "/api/v1/session") == "GET session");
  CHECK(refused("OPTIONS", "/api/v1/team") == "405 GET, HEAD");
  CHECK(refused("OPTIONS", "/") == "405 GET, HEAD");
  CHECK(refused("POST", "/") == "405 GET, HEAD");
  CHECK(refused("DELETE", "/api/v1/messages/mr-1") == "405 GET, HEAD");
  CHECK(refused("DELETE", "/api/v1/session") == "405 POST, GET, HEAD");
  CHECK(refused("GET", "/api/v1/messages") == "405 POST");
  CHECK(refused("GET", "/api/v1/messages/mr-1/archive") == "405 POST");
  CHECK(refused("GET", "/api/v1/messages/mr-1/cancel") == "405 POST");
  CHECK(refused("POST", "/api/v1/messages/mr-1/explode") == "404");
  CHECK(refused("GET", "/api/v1/messages//reply") == "404"); // an empty {id}
  CHECK(refused("GET", "/api/v2/team") == "404");
  CHECK(refused("GET", "/api/v1/nothing") == "404");
  CHECK(refused("GET", "/api") == "404");
}

TEST_CASE("http: every row of the route table is reachable, once, with an argument schema")
{
  std::set<std::string> seen;
  for (const RouteSpec& spec : api_routes()) {
    CAPTURE(spec.path);
    CHECK((spec.method == "GET" || spec.method == "POST"));
    CHECK(seen.insert(std::string(spec.method) + " " + std::string(spec.path)).second);
    const nlohmann::json args = spec.args();
    CHECK(args.at("additionalProperties") == false);
    // The path with each {name} filled in routes to this very row.
    std::string path = "/api/v1/" + std::string(spec.path);
    for (std::size_t open = path.find('{'); open != std::string::npos; open = path.find('{')) {
      path.replace(open, path.find('}', open) - open + 1, "x");
    }
    auto target = parse_target(path);
    REQUIRE(target.ok());
    auto found = route(spec.method, *target);
    REQUIRE(std::holds_alternative<Route>(found));
    CHECK(std::get<Route>(found).spec == &spec);
  }
}

TEST_CASE("http: a cursor round-trips for its box only")
{
  const std::string cursor = encode_cursor("in", 150);
  CHECK(cursor.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") ==
        std::string::npos);
  auto offset = decode_cursor(cursor, "in");
  REQUIRE(offset.ok());
  CHECK(*offset == 150);
  CHECK_FALSE(decode_cursor(cursor, "out").ok());
  CHECK_FALSE(decode_cursor("not a cursor", "in").ok());
  CHECK_FALSE(decode_cursor(encode_cursor("in", 1).substr(1), "in").ok());
}

TEST_CASE("http: a login code works once, and only for five minutes")
{
  LoginCodes codes;
  const mail::UnixMillis t0 = 1'000'000;
  const std::string code = codes.issue(t0);
  CHECK(code.size() == 32);
  CHECK_FALSE(codes.redeem("", t0));
  CHECK_FALSE(codes.redeem(code + "0", t0));
  CHECK(codes.redeem(code, t0 + 1000));
  CHECK_FALSE(codes.redeem(code, t0 + 2000)); // used
  const std::string late = codes.issue(t0);
  CHECK_FALSE(codes.redeem(late, t0 + LoginCodes::k_lifetime_ms)); // expired
  const std::string last = codes.issue(t0);
  CHECK(codes.redeem(last, t0 + LoginCodes::k_lifetime_ms - 1));
}

TEST_CASE("http: the token file is private, kept, and replaced on request")
{
  const auto dir = testing::make_temp_dir("serve-token");
  const util::MapEnvironment env({{"XDG_STATE_HOME", dir.string()}}, "/");
  auto path = token_path(env, "beads:/a/store.db");
  REQUIRE(path.ok());
  CHECK(path->starts_with(dir.string() + "/mailroom/serve/"));
  CHECK(path->ends_with(".token"));
  auto other = token_path(env, "beads:/another/store.db");
  REQUIRE(other.ok());
  CHECK(*other != *path);

  auto first = load_or_create_token(*path, false);
  REQUIRE(first.ok());
  CHECK(first->size() == 64);
  struct stat file {};
  REQUIRE(::stat(path->c_str(), &file) == 0);
  CHECK((file.st_mode & 0777) == 0600);
  struct stat parent {};
  REQUIRE(::stat((dir / "mailroom" / "serve").c_str(), &parent) == 0);
  CHECK((parent.st_mode & 0777) == 0700);

  auto again = load_or_create_token(*path, false);
  REQUIRE(again.ok());
  CHECK(*again == *first);
  auto replaced = load_or_create_token(*path, true);
  REQUIRE(replaced.ok());
  CHECK(*replaced != *first);

  const Credentials credentials(*replaced);
  CHECK(credentials.accepts("Bearer " + *replaced));
  CHECK(credentials.accepts("Bearer " + credentials.session_token()));
  CHECK_FALSE(credentials.accepts("Bearer " + *first));
  CHECK_FALSE(credentials.accepts("Bearer "));
  CHECK_FALSE(credentials.accepts(*replaced));
  CHECK(Credentials(*replaced).session_token() == credentials.session_token());
  CHECK(Credentials(*first).session_token() != credentials.session_token());

  const util::MapEnvironment nowhere({}, "/");
  CHECK_FALSE(token_path(nowhere, "x").ok());
}

} // namespace mailroom::http
