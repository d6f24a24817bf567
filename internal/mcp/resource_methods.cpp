#include "mcp/resource_methods.hpp"

#include <algorithm>
#include <array>

#include "mcp/resources.hpp"
#include "text/reminder.hpp"
#include "text/sanitize.hpp"

namespace mailroom::mcp {

namespace {

constexpr std::array<std::string_view, 3> k_both_eras{"resources/list", "resources/templates/list",
                                                      "resources/read"};
constexpr std::array<std::string_view, 2> k_legacy_only{"resources/subscribe", "resources/unsubscribe"};
constexpr std::string_view k_listen = "subscriptions/listen";

bool one_of(std::string_view method, const auto& names)
{
  return std::find(names.begin(), names.end(), method) != names.end();
}

// The params' "uri", or nullopt when it is missing or not a string.
std::optional<std::string> uri_param(const Incoming& request)
{
  if (!request.params.is_object() || !request.params.contains("uri") || !request.params["uri"].is_string()) {
    return std::nullopt;
  }
  return request.params["uri"].get<std::string>();
}

Reply not_found(const std::string& uri, bool is_modern)
{
  return Reply::error(is_modern ? rpc::invalid_params : k_resource_not_found_legacy, "Resource not found",
                      json{{"uri", uri}});
}

// A read that found nothing, or was refused, as the era's JSON-RPC error.
Reply read_failure(const std::string& uri, const ResourceRead& read, bool is_modern)
{
  if (read.outcome == ResourceRead::Outcome::not_found) {
    return not_found(uri, is_modern);
  }
  const json error = read.structured.is_object() && read.structured.contains("error")
                         ? read.structured["error"]
                         : json::object();
  const std::string code = error.value("code", "");
  const std::string line = error.value("message", std::string("internal error"));
  const int rpc_code = code == "usage" || code == "ambiguous_id" ? rpc::invalid_params : rpc::internal_error;
  // The message may repeat the client's id: one line, reminder tags removed, as every echo.
  return Reply::error(rpc_code, text::neutralise_reminder_tags(text::truncate_line(line, 256)).str(),
                      json{{"uri", uri}, {"error", error}});
}

} // namespace

ResourceMethods::ResourceMethods(const ToolEnv& env) : m_env(env), m_subscriptions(env) {}

bool ResourceMethods::handles(std::string_view method)
{
  return one_of(method, k_both_eras) || one_of(method, k_legacy_only) || method == k_listen;
}

bool ResourceMethods::runs_on_pool(std::string_view method)
{
  return method == "resources/read" || method == "resources/subscribe";
}

bool ResourceMethods::cacheable(std::string_view method)
{
  return one_of(method, k_both_eras);
}

Reply ResourceMethods::request(const Incoming& request, bool is_modern)
{
  const std::string& method = request.method;
  if ((is_modern && one_of(method, k_legacy_only)) || (!is_modern && method == k_listen)) {
    return Reply::error(
        rpc::method_not_found,
        is_modern ? "method not found: " + method + " (2026-07-28 subscribes with subscriptions/listen)"
                  : "method not found: " + method + " (before 2026-07-28, use resources/subscribe)");
  }
  if (method == "resources/list") {
    return Reply::ok(json{{"resources", resource_list()}});
  }
  if (method == "resources/templates/list") {
    return Reply::ok(json{{"resourceTemplates", resource_templates(m_env.open_views)}});
  }
  if (method == "resources/read") {
    return read(request, is_modern);
  }
  if (method == k_listen) {
    return listen(request);
  }
  if (method == "resources/unsubscribe") {
    const auto uri = uri_param(request);
    if (!uri) {
      return Reply::error(rpc::invalid_params, "resources/unsubscribe needs params.uri");
    }
    m_subscriptions.unsubscribe(*uri);
    return Reply::ok(json::object());
  }
  return subscribe(request, is_modern);
}

Reply ResourceMethods::read(const Incoming& request, bool is_modern)
{
  const auto uri = uri_param(request);
  if (!uri) {
    return Reply::error(rpc::invalid_params, "resources/read needs params.uri");
  }
  const auto ref = parse_resource_uri(*uri);
  if (!ref) {
    return not_found(*uri, is_modern);
  }
  const ResourceRead read = read_resource(m_env, *ref);
  if (read.outcome != ResourceRead::Outcome::found) {
    return read_failure(*uri, read, is_modern);
  }
  return Reply::ok(read_contents(*uri, read.structured));
}

Reply ResourceMethods::subscribe(const Incoming& request, bool is_modern)
{
  const auto uri = uri_param(request);
  if (!uri) {
    return Reply::error(rpc::invalid_params, "resources/subscribe needs params.uri");
  }
  const auto ref = parse_resource_uri(*uri);
  if (!ref) {
    return not_found(*uri, is_modern);
  }
  // Read first: a subscription to what does not exist, or may not be read, is refused as the
  // read would be.
  const ResourceRead read = read_resource(m_env, *ref);
  if (read.outcome != ResourceRead::Outcome::found) {
    return read_failure(*uri, read, is_modern);
  }
  if (auto added = m_subscriptions.subscribe(*uri, *ref, read); !added.ok()) {
    return Reply::error(rpc::server_busy, added.error().message, json{{"uri", *uri}});
  }
  return Reply::ok(json::object());
}

Reply ResourceMethods::listen(const Incoming& request)
{
  const json& params = request.params;
  if (!params.is_object() || !params.contains("notifications") || !params["notifications"].is_object()) {
    return Reply::error(rpc::invalid_params, "subscriptions/listen needs params.notifications (an object)");
  }
  const json& filter = params["notifications"];
  std::vector<std::string> uris;
  if (filter.contains("resourceSubscriptions")) {
    const json& listed = filter["resourceSubscriptions"];
    if (!listed.is_array()) {
      return Reply::error(rpc::invalid_params,
                          "notifications.resourceSubscriptions must be an array of URIs");
    }
    for (const json& uri : listed) {
      if (!uri.is_string()) {
        return Reply::error(rpc::invalid_params,
                            "notifications.resourceSubscriptions must be an array of URIs");
      }
      uris.push_back(uri.get<std::string>());
    }
  }
  if (m_env.no_identity) {
    // Refused as every read would be (the no_identity error, its hint included).
    const ResourceRead read = read_resource(m_env, ResourceRef{});
    return read_failure("mailroom://inbox", read, true);
  }
  if (auto opened = m_subscriptions.listen(request.id, std::move(uris)); !opened.ok()) {
    return Reply::error(rpc::server_busy, opened.error().message);
  }
  return Reply::already_answered(); // the watcher acknowledges it; no answer until it ends
}

} // namespace mailroom::mcp
