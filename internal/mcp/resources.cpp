#include "mcp/resources.hpp"

#include <functional>

#include "render/json.hpp"

namespace mailroom::mcp {

namespace {

constexpr std::string_view k_scheme = "mailroom://";
constexpr std::string_view k_json_type = "application/json";

int hex_value(char c)
{
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

// `text` percent-decoded; nullopt for a malformed escape, a decoded control character, or a
// query or fragment (none of these resources takes one).
std::optional<std::string> decoded(std::string_view text)
{
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '?' || c == '#') {
      return std::nullopt;
    }
    if (c == '%') {
      if (i + 2 >= text.size()) {
        return std::nullopt;
      }
      const int high = hex_value(text[i + 1]);
      const int low = hex_value(text[i + 2]);
      if (high < 0 || low < 0) {
        return std::nullopt;
      }
      c = static_cast<char>(high * 16 + low);
      i += 2;
    }
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return std::nullopt;
    }
    out.push_back(c);
  }
  return out;
}

// The tool a resource is read with, and its arguments.
struct ReadCall {
  std::string_view tool;
  json args;
};

ReadCall read_call(const ResourceRef& ref)
{
  switch (ref.kind) {
  case ResourceKind::inbox:
    return ReadCall{"inbox", ref.arg.empty() ? json::object() : json{{"mailbox", ref.arg}}};
  case ResourceKind::message:
    return ReadCall{"peek", json{{"id", ref.arg}}};
  case ResourceKind::thread:
    return ReadCall{"thread", json{{"id", ref.arg}}};
  }
  return ReadCall{"inbox", json::object()};
}

json entry(std::string_view key, std::string_view value, std::string_view name, std::string_view title,
           std::string_view description)
{
  return json{{std::string(key), value},
              {"name", name},
              {"title", title},
              {"description", description},
              {"mimeType", k_json_type}};
}

} // namespace

std::optional<ResourceRef> parse_resource_uri(std::string_view uri)
{
  if (uri.substr(0, k_scheme.size()) != k_scheme) {
    return std::nullopt;
  }
  const std::string_view path = uri.substr(k_scheme.size());
  if (path == "inbox") {
    return ResourceRef{ResourceKind::inbox, {}};
  }
  const std::size_t slash = path.find('/');
  if (slash == std::string_view::npos) {
    return std::nullopt;
  }
  const std::string_view head = path.substr(0, slash);
  const auto arg = decoded(path.substr(slash + 1));
  if (!arg || arg->empty()) {
    return std::nullopt;
  }
  if (head == "inbox") {
    return ResourceRef{ResourceKind::inbox, *arg}; // a mailbox may be `rig/name`
  }
  if (arg->find('/') != std::string::npos) {
    return std::nullopt;
  }
  if (head == "message") {
    return ResourceRef{ResourceKind::message, *arg};
  }
  if (head == "thread") {
    return ResourceRef{ResourceKind::thread, *arg};
  }
  return std::nullopt;
}

json resource_list()
{
  return json::array({entry("uri", "mailroom://inbox", "inbox", "Unread mail",
                            "This mailbox's unread messages, urgent first, then oldest first: the inbox "
                            "tool's result. Subscribe to hear of new mail.")});
}

json resource_templates(bool open_views)
{
  json templates = json::array(
      {entry("uriTemplate", "mailroom://message/{id}", "message", "A message",
             "One message as the peek tool shows it (reading the resource marks nothing read); the id "
             "or a unique prefix of it."),
       entry("uriTemplate", "mailroom://thread/{id}", "thread", "A conversation",
             "A whole conversation, oldest first, as the thread tool shows it: a thread id or the id of "
             "any message in it.")});
  if (open_views) {
    templates.push_back(entry("uriTemplate", "mailroom://inbox/{mailbox}", "mailbox-inbox",
                              "Another mailbox's unread mail",
                              "Another mailbox's unread messages, as the inbox tool with its mailbox "
                              "argument shows them (this server runs with --open-views)."));
  }
  return templates;
}

ResourceRead read_resource(const ToolEnv& env, const ResourceRef& ref)
{
  const ReadCall call = read_call(ref);
  const ToolDef* found = find_tool(call.tool);
  if (found == nullptr) {
    return ResourceRead{ResourceRead::Outcome::failed, nullptr};
  }
  json result;
  try {
    // A resource read is a view, as peek is: its row in ops/presence.cpp records nothing.
    result = call_tool(*found, env, call.args, std::stop_token(), {}, "resources/read");
  } catch (const std::exception&) {
    return ResourceRead{ResourceRead::Outcome::failed, nullptr};
  }
  json structured = result.value("structuredContent", json());
  if (!result.value("isError", false)) {
    return ResourceRead{ResourceRead::Outcome::found, std::move(structured)};
  }
  const bool missing = structured.is_object() && structured.contains("error") &&
                       structured["error"].value("code", "") == "not_found";
  return ResourceRead{missing ? ResourceRead::Outcome::not_found : ResourceRead::Outcome::failed,
                      std::move(structured)};
}

bool store_away(const ResourceRead& read)
{
  if (read.outcome != ResourceRead::Outcome::failed) {
    return false;
  }
  if (!read.structured.is_object() || !read.structured.contains("error")) {
    return true;
  }
  const std::string code = read.structured["error"].value("code", "");
  return code == "store_error" || code == "provider_error" || code == "timeout";
}

json read_contents(std::string_view uri, const json& structured)
{
  std::string text = render::dump_json(structured);
  while (!text.empty() && text.back() == '\n') {
    text.pop_back();
  }
  return json{
      {"contents", json::array({json{{"uri", uri}, {"mimeType", k_json_type}, {"text", std::move(text)}}})}};
}

WatchedView watched_view(const ResourceRef& ref, const std::string& me, const json& structured)
{
  WatchedView view;
  view.kind = ref.kind;
  view.mailbox = ref.kind == ResourceKind::inbox && !ref.arg.empty() ? ref.arg : me;
  if (!structured.is_object()) {
    return view;
  }
  if (ref.kind == ResourceKind::message && structured.contains("message") &&
      structured["message"].is_object()) {
    view.messages.insert(structured["message"].value("id", ""));
  }
  if (ref.kind == ResourceKind::thread && structured.contains("messages") &&
      structured["messages"].is_array()) {
    for (const json& message : structured["messages"]) {
      if (message.is_object()) {
        view.messages.insert(message.value("id", ""));
      }
    }
  }
  view.messages.erase("");
  return view;
}

bool may_change(const WatchedView& view, const mail::Event& event)
{
  if (event.type == mail::EventType::schedule_fired || event.type == mail::EventType::schedule_changed) {
    return false;
  }
  switch (view.kind) {
  case ResourceKind::inbox:
    return event.mailbox == view.mailbox;
  case ResourceKind::message:
    return view.messages.contains(event.message_id);
  case ResourceKind::thread:
    return event.type == mail::EventType::sent || view.messages.contains(event.message_id);
  }
  return true;
}

bool surely_changes(const WatchedView& view, const mail::Event& event)
{
  return view.kind == ResourceKind::inbox && event.type == mail::EventType::sent &&
         event.mailbox == view.mailbox;
}

std::uint64_t read_digest(const ResourceRead& read)
{
  std::string text = std::to_string(static_cast<int>(read.outcome));
  if (read.outcome == ResourceRead::Outcome::found) {
    text += render::dump_json(read.structured);
  }
  return std::hash<std::string>{}(text);
}

} // namespace mailroom::mcp
