#pragma once

// The requests of `mailroom serve` as plain data, and the one function that answers them
// (docs/http-api.md): the Host and Origin rules, authentication, routing, and each endpoint on
// internal/ops with an ops::Session of its own per request, on a store connection of its own.
// The network side (server.hpp) parses HTTP and calls `handle` on its operation pool.

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "auth.hpp"
#include "base/result.hpp"
#include "config/config.hpp"
#include "config/discovery.hpp"
#include "mail/clock.hpp"
#include "mail/duration.hpp"
#include "mail/policy.hpp"
#include "ops/connection_pool.hpp"
#include "rules.hpp"
#include "util/environment.hpp"

namespace mailroom::http {

struct Request {
  std::string method; // GET, HEAD, POST, ...
  std::string target; // the request target as sent
  std::optional<std::string> host;
  std::optional<std::string> origin;
  std::string authorization;
  std::optional<std::string> last_event_id;
  // The names of the headers above that the request gave more than once (400: RFC 9112 §3.2 for
  // Host; for the others, which value counts would be a guess).
  std::vector<std::string> repeated;
  std::string body;
};

// Where an accepted event stream starts (GET /api/v1/events): the server takes the connection.
struct StreamStart {
  std::optional<std::int64_t> after; // Last-Event-ID or ?after=; nullopt: from now on
};

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::string allow;                 // a 405's Allow header
  std::optional<StreamStart> stream; // set only for an accepted event stream (status 200)
};

// A static asset of the page: its type and bytes (they hold no data: served without auth).
struct Asset {
  std::string_view content_type;
  std::string_view body;
};
using AssetLookup = std::function<std::optional<Asset>(std::string_view path)>;

// Work a request left running on a thread of its own (a search, above all one past its
// deadline): nothing outlives what it uses, as the destructor waits until every piece of work
// called finished().
class Background {
public:
  Background() = default;
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;
  ~Background();
  void started();
  void finished();
  // Waits until nothing runs, or `timeout_ms` passed. True when nothing runs.
  bool wait_idle(mail::Millis timeout_ms);

private:
  std::mutex m_mutex;
  std::condition_variable m_idle;
  int m_running = 0;
};

// What every request runs with, fixed when the server starts.
struct ApiEnv {
  const config::Config& config;
  const mail::MailPolicy& policy;
  const mail::Clock& clock;
  const config::Identity& me;   // the operator
  const util::Environment& env; // ops::ServerEnvironment: masked as every server's
  ops::ConnectionPool& connections;
  const Credentials& credentials;
  LoginCodes& codes;
  HostRule hosts;
  AssetLookup assets;
  mail::Millis search_deadline_ms = 5000;
  Background background = {};
  std::string link_host = {}; // what a login link names: 127.0.0.1:PORT, or an --allow-host name
};

// What the server decides on a request's head, before it reads a byte of its body.
struct Admission {
  // Answered at once, and the connection closed: a request the rules refuse whatever its body
  // (a repeated header, a foreign Host or Origin, no route, a missing or wrong bearer).
  std::optional<Response> refusal;
  bool authenticated = false; // it carries a valid bearer
  std::size_t body_limit = 0; // the most body bytes it may send
};
// The contract's body limit; a request that needs no bearer (the login, the page's assets) may
// send at most k_unauthenticated_body_bytes.
inline constexpr std::size_t k_max_body_bytes = 16 * 1024 * 1024;
inline constexpr std::size_t k_unauthenticated_body_bytes = 4 * 1024;
// `head` is a Request without its body.
Admission admit(const ApiEnv& env, const Request& head);

// The answer to `request`. Never throws: an unexpected exception is a 503 store_error.
Response handle(ApiEnv& env, const Request& request);

// An error response: the CLI's JSON error object with the contract's status (or `status`).
Response error_response(const Error& error, int status = 0);
// A refusal of the server's own (rules.hpp), in the same object (or with `status`).
Response refusal_response(Refusal refusal, std::string message, std::string hint = {}, int status = 0);

} // namespace mailroom::http
