#include "api.hpp"

#include <charconv>
#include <exception>

#include <fmt/format.h>

#include "endpoints.hpp"
#include "mail/address.hpp"
#include "render/json.hpp"
#include "sse.hpp"

namespace mailroom::http {

namespace {

Response json_response(const nlohmann::json& doc, int status = 200)
{
  Response response;
  response.status = status;
  response.body = render::dump_json(doc); // one line, ending in a newline
  return response;
}

Response no_route(int status)
{
  Response response =
      error_response(status == 405 ? make_error(ErrorCode::usage, "method not allowed on this path")
                                   : make_error(ErrorCode::not_found, "no such path",
                                                "the API is under /api/v1 (docs/http-api.md)"),
                     status);
  if (status == 405) {
    response.allow = "GET, HEAD, POST";
  }
  return response;
}

Response asset(ApiEnv& env, const Target& target)
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

// POST /api/v1/session {"code":"..."} -> {"token": the session token}.
Response login(ApiEnv& env, const nlohmann::json& body)
{
  const auto code = body.find("code");
  if (code == body.end() || !code->is_string()) {
    return error_response(make_error(ErrorCode::usage, "the body needs \"code\": the login code"));
  }
  if (!env.codes.redeem(code->get<std::string>(), env.clock.now())) {
    return refusal_response(Refusal::unauthorized, "this login code is used, expired or unknown",
                            "run mailroom serve again for a new login URL");
  }
  nlohmann::json doc = render::json_document();
  doc["token"] = env.credentials.session_token();
  return json_response(doc);
}

Result<nlohmann::json> parse_body(const Request& request)
{
  if (request.method != "POST") {
    return nlohmann::json();
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

Response dispatch(ApiEnv& env, const Request& request)
{
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
  const auto routed = route(request.method, *target);
  if (const NoRoute* none = std::get_if<NoRoute>(&routed)) {
    return no_route(none->status);
  }
  const Route& r = std::get<Route>(routed);
  if (r.endpoint == Endpoint::asset) {
    return asset(env, *target);
  }
  auto body = parse_body(request);
  if (!body.ok()) {
    return error_response(body.error());
  }
  if (r.endpoint == Endpoint::session) {
    return login(env, *body);
  }
  if (!env.credentials.accepts(request.authorization)) {
    return refusal_response(Refusal::unauthorized, "missing or wrong bearer token",
                            "sign in with the login URL mailroom serve printed");
  }
  if (r.endpoint == Endpoint::events) {
    const auto after = target->query.find("after");
    auto start =
        stream_after(request.last_event_id,
                     after == target->query.end() ? std::nullopt : std::optional<std::string>(after->second));
    if (!start.ok()) {
      return error_response(start.error());
    }
    Response response;
    response.stream = StreamStart{*start};
    return response; // the server hands the connection to the event stream (event_hub.hpp)
  }
  Call call{env, r, *target, *body};
  Result<nlohmann::json> doc = make_error(ErrorCode::store_error, "internal error");
  switch (r.endpoint) {
  case Endpoint::mailbox_messages:
    doc = get_mailbox_list(call);
    break;
  case Endpoint::send:
  case Endpoint::reply:
  case Endpoint::change:
  case Endpoint::request:
    doc = post_change(call);
    break;
  case Endpoint::schedules:
  case Endpoint::schedule:
  case Endpoint::schedule_action:
    doc = schedules(call);
    break;
  default:
    doc = get_view(call);
    break;
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

std::optional<std::string> RequestEnvironment::get(std::string_view name) const
{
  if (name == "MAILROOM_IDEMPOTENCY_KEY" || name == "TRACEPARENT") {
    return std::nullopt;
  }
  return m_inner.get(name);
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

Result<nlohmann::json> with_session(ApiEnv& env, const config::Identity& me,
                                    const std::function<Result<nlohmann::json>(ops::Session&)>& fn)
{
  TRY_ASSIGN(std::unique_ptr<mail::Provider> provider, env.connections.take());
  ops::ProviderSlot slot(*provider);
  ops::Session session{env.config, env.policy, env.clock, me, env.env, slot};
  Result<nlohmann::json> result = fn(session);
  if (result.ok() || ops::ConnectionPool::reusable_after(result.error())) {
    env.connections.give_back(std::move(provider));
  }
  return result;
}

std::optional<std::string> query(const Call& call, const char* name)
{
  const auto it = call.target.query.find(name);
  if (it == call.target.query.end()) {
    return std::nullopt;
  }
  return it->second;
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
    return make_error(ErrorCode::usage, fmt::format("{} must be a positive number, not \"{}\"", name, *text));
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
    return make_error(ErrorCode::usage, fmt::format("\"{}\" is not a mailbox", *mailbox),
                      "name one mailbox, e.g. mayor or rig%2Fmayor");
  }
  config::Identity identity;
  identity.name = *mailbox;
  return identity;
}

} // namespace mailroom::http
