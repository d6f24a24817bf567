#include "api.hpp"

#include <charconv>
#include <exception>

#include <fmt/format.h>

#include "endpoints.hpp"
#include "mail/address.hpp"
#include "ops/arguments.hpp"
#include "ops/pooled_session.hpp"
#include "ops/presence.hpp"
#include "render/json.hpp"
#include "sse.hpp"
#include "text/strings.hpp"

namespace mailroom::http {

namespace {

Response json_response(const nlohmann::json& doc, int status = 200)
{
  Response response;
  response.status = status;
  response.body = render::dump_json(doc); // one line, ending in a newline
  return response;
}

Response no_route(const NoRoute& none)
{
  Response response =
      error_response(none.status == 405 ? make_error(ErrorCode::usage, "method not allowed on this path")
                                        : make_error(ErrorCode::not_found, "no such path",
                                                     "the API is under /api/v1 (docs/http-api.md)"),
                     none.status);
  response.allow = none.allow;
  return response;
}

Response asset(const ApiEnv& env, const Target& target)
{
  const std::optional<Asset> found = env.assets ? env.assets(target.path) : std::nullopt;
  if (!found) {
    return error_response(make_error(ErrorCode::not_found, "no such page"));
  }
  Response response;
  response.content_type = std::string(found->content_type);
  response.body = std::string(found->body);
  return response;
}

// The call's arguments: the query parameters of a GET (each a string), the JSON body of a POST.
Result<nlohmann::json> arguments_of(const Request& request, const Target& target)
{
  if (request.method != "POST") {
    nlohmann::json args = nlohmann::json::object();
    for (const auto& [name, value] : target.query) {
      args[name] = value;
    }
    return args;
  }
  if (request.body.empty()) {
    return nlohmann::json::object();
  }
  nlohmann::json body = nlohmann::json::parse(request.body, nullptr, false);
  if (body.is_discarded() || !body.is_object()) {
    return make_error(ErrorCode::usage, "the request body is not a JSON object");
  }
  return body;
}

bool authorized(const ApiEnv& env, Auth auth, const Request& request)
{
  switch (auth) {
  case Auth::none:
    return true;
  case Auth::token:
    return env.credentials.accepts_token(request.authorization);
  case Auth::bearer:
    break;
  }
  return env.credentials.accepts(request.authorization);
}

// A request whose head passed the rules: its target and route.
struct Checked {
  Target target;
  Route route;
};

// The rules a request's head decides, whatever its body: each of Host, Origin, Authorization and
// Last-Event-ID at most once, the Host and Origin rules, a route, and the route's bearer.
std::variant<Response, Checked> check_head(const ApiEnv& env, const Request& request)
{
  if (!request.repeated.empty()) {
    return error_response(make_error(
        ErrorCode::usage, fmt::format("the request has more than one {} header", request.repeated[0]),
        "send each of Host, Origin, Authorization and Last-Event-ID once"));
  }
  if (!request.host || !host_allowed(env.hosts, *request.host)) {
    return refusal_response(Refusal::forbidden_host, "this Host is not the server's",
                            fmt::format("use http://127.0.0.1:{}/", env.hosts.port));
  }
  if (request.origin && !origin_allowed(*request.host, *request.origin)) {
    return refusal_response(Refusal::forbidden_origin, "a request from another origin");
  }
  auto target = parse_target(request.target);
  if (!target.ok()) {
    return error_response(target.error());
  }
  auto routed = route(request.method, *target);
  if (const NoRoute* none = std::get_if<NoRoute>(&routed)) {
    return no_route(*none);
  }
  Route& r = std::get<Route>(routed);
  if (r.spec != nullptr && !authorized(env, r.spec->auth, request)) {
    // The same answer every time: made once (a flood of requests without a token costs less).
    static const Response k_unauthorized =
        refusal_response(Refusal::unauthorized, "missing or wrong bearer token",
                         "sign in with the login URL mailroom serve printed");
    return k_unauthorized;
  }
  return Checked{std::move(target).value(), std::move(r)};
}

Response dispatch(ApiEnv& env, const Request& request)
{
  auto checked = check_head(env, request);
  if (Response* refused = std::get_if<Response>(&checked)) {
    return std::move(*refused);
  }
  const Checked& head = std::get<Checked>(checked);
  const Route& r = head.route;
  if (r.spec == nullptr) {
    return asset(env, head.target);
  }
  auto args = arguments_of(request, head.target);
  if (!args.ok()) {
    return error_response(args.error());
  }
  if (auto valid = ops::args::validate(r.spec->args(), *args); !valid.ok()) {
    return error_response(valid.error());
  }
  Call call{env, request, r, *args};
  Result<nlohmann::json> doc = r.spec->run(call);
  if (call.answer) {
    return std::move(*call.answer);
  }
  if (!doc.ok()) {
    return error_response(doc.error());
  }
  return json_response(*doc);
}

} // namespace

Background::~Background()
{
  std::unique_lock lock(m_mutex);
  m_idle.wait(lock, [this]() { return m_running == 0; });
}

void Background::started()
{
  std::lock_guard lock(m_mutex);
  ++m_running;
}

void Background::finished()
{
  std::lock_guard lock(m_mutex);
  --m_running;
  m_idle.notify_all();
}

bool Background::wait_idle(mail::Millis timeout_ms)
{
  std::unique_lock lock(m_mutex);
  return m_idle.wait_for(lock, std::chrono::milliseconds(timeout_ms), [this]() { return m_running == 0; });
}

Response error_response(const Error& error, int status)
{
  return json_response(render::error_to_json(error), status != 0 ? status : status_of(error.code));
}

Response refusal_response(Refusal refusal, std::string message, std::string hint, int status)
{
  nlohmann::json doc =
      render::error_to_json(make_error(base_code_of(refusal), std::move(message), std::move(hint)));
  doc["error"]["code"] = std::string(code_of(refusal));
  return json_response(doc, status != 0 ? status : status_of(refusal));
}

Admission admit(const ApiEnv& env, const Request& head)
{
  try {
    auto checked = check_head(env, head);
    if (Response* refused = std::get_if<Response>(&checked)) {
      return Admission{std::move(*refused), false, 0};
    }
    const RouteSpec* spec = std::get<Checked>(checked).route.spec;
    const bool bearer = spec != nullptr && spec->auth != Auth::none;
    return Admission{std::nullopt, bearer, bearer ? k_max_body_bytes : k_unauthenticated_body_bytes};
  } catch (const std::exception& e) {
    return Admission{
        error_response(make_error(ErrorCode::store_error, fmt::format("internal error: {}", e.what()))),
        false, 0};
  }
}

Response handle(ApiEnv& env, const Request& request)
{
  try {
    Response response = dispatch(env, request);
    if (request.method == "HEAD") {
      response.stream.reset();
    }
    return response;
  } catch (const std::exception& e) {
    return error_response(make_error(ErrorCode::store_error, fmt::format("internal error: {}", e.what())));
  }
}

Result<nlohmann::json> with_session(ApiEnv& env, const config::Identity& me, std::string_view method,
                                    const std::function<Result<nlohmann::json>(ops::Session&)>& fn)
{
  ops::PooledSession pooled(env.connections, ops::SessionParts{env.config, env.policy, env.clock, env.env},
                            me);
  TRY(pooled.open());
  ops::Session& session = pooled.session();
  // Presence (ops/presence.hpp, the one table): a request that is not a GET is a write, `http`.
  const ops::Presence presence = ops::Presence::of_request(session, method);
  Result<nlohmann::json> result = fn(session);
  if (result.ok()) {
    presence.after(session);
  }
  pooled.finish(result.ok() || ops::ConnectionPool::reusable_after(result.error()));
  return result;
}

std::optional<std::string> query(const Call& call, const char* name)
{
  return ops::args::arg_string(call.args, name);
}

nlohmann::json no_args()
{
  return ops::args::input(nlohmann::json::object());
}

nlohmann::json view_args()
{
  return ops::args::input(
      nlohmann::json{{"mailbox", ops::args::string("as this mailbox sees it (default: the operator)")}});
}

Result<std::optional<std::size_t>> query_count(const Call& call, const char* name)
{
  const std::optional<std::string> text = query(call, name);
  if (!text) {
    return std::optional<std::size_t>();
  }
  std::size_t n = 0;
  const char* last = text->data() + text->size();
  const auto [end, ec] = std::from_chars(text->data(), last, n);
  if (ec != std::errc() || end != last || n == 0) {
    return make_error(ErrorCode::usage, fmt::format("{} must be a positive number, not \"{}\"", name,
                                                    text::cap_for_echo(*text, 64)));
  }
  return std::optional<std::size_t>(n);
}

Result<config::Identity> viewer(const Call& call)
{
  const std::optional<std::string> mailbox = query(call, "mailbox");
  if (!mailbox || *mailbox == call.env.me.name) {
    return call.env.me;
  }
  if (!mail::is_valid_mailbox(*mailbox)) {
    return make_error(ErrorCode::usage,
                      fmt::format("\"{}\" is not a mailbox", text::cap_for_echo(*mailbox, 64)),
                      "name one mailbox, e.g. mayor or rig%2Fmayor");
  }
  config::Identity identity;
  identity.name = *mailbox;
  return identity;
}

} // namespace mailroom::http
