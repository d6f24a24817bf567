#include "route.hpp"

#include <array>

#include <fmt/format.h>

#include "text/strings.hpp"

namespace mailroom::http {

namespace {

std::vector<std::string_view> split(std::string_view text, char separator)
{
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) {
      return parts;
    }
    start = end + 1;
  }
}

constexpr std::array<std::string_view, 6> k_changes = {"read",      "unread", "archive",
                                                       "unarchive", "delete", "ack"};

bool is_change(std::string_view action)
{
  for (std::string_view c : k_changes) {
    if (c == action) {
      return true;
    }
  }
  return false;
}

// The life of a request (ops/requests.hpp).
constexpr std::array<std::string_view, 4> k_request_actions = {"cancel", "decline", "ask", "fail"};

bool is_request_action(std::string_view action)
{
  for (std::string_view a : k_request_actions) {
    if (a == action) {
      return true;
    }
  }
  return false;
}

// A schedule's changes (ops/schedules.hpp).
constexpr std::array<std::string_view, 4> k_schedule_actions = {"pause", "resume", "cancel", "run-now"};

bool is_schedule_action(std::string_view action)
{
  for (std::string_view a : k_schedule_actions) {
    if (a == action) {
      return true;
    }
  }
  return false;
}

} // namespace

Result<std::string> percent_decode(std::string_view text, bool plus_is_space)
{
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%') {
      const int hi = i + 2 < text.size() ? mailroom::text::hex_value(text[i + 1]) : -1;
      const int lo = hi >= 0 ? mailroom::text::hex_value(text[i + 2]) : -1;
      if (hi < 0 || lo < 0) {
        return make_error(ErrorCode::usage, "bad percent escape in the request target");
      }
      const char decoded = static_cast<char>(hi * 16 + lo);
      if (decoded == '\0') {
        return make_error(ErrorCode::usage, "a NUL byte in the request target");
      }
      out.push_back(decoded);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

Result<Target> parse_target(std::string_view target)
{
  if (target.empty() || target.front() != '/') {
    return make_error(ErrorCode::usage, "the request target is not an absolute path");
  }
  Target parsed;
  const std::size_t question = target.find('?');
  parsed.path = std::string(target.substr(0, question));
  for (std::string_view raw : split(std::string_view(parsed.path).substr(1), '/')) {
    TRY_ASSIGN(std::string segment, percent_decode(raw, false));
    parsed.segments.push_back(std::move(segment));
  }
  if (question != std::string_view::npos) {
    for (std::string_view pair : split(target.substr(question + 1), '&')) {
      if (pair.empty()) {
        continue;
      }
      const std::size_t equals = pair.find('=');
      TRY_ASSIGN(std::string name, percent_decode(pair.substr(0, equals), true));
      std::string value;
      if (equals != std::string_view::npos) {
        TRY_ASSIGN(value, percent_decode(pair.substr(equals + 1), true));
      }
      parsed.query[std::move(name)] = std::move(value);
    }
  }
  return parsed;
}

std::variant<Route, NoRoute> route(std::string_view method, const Target& target)
{
  const std::vector<std::string>& s = target.segments;
  const bool get = method == "GET" || method == "HEAD";
  const bool post = method == "POST";
  if (s.empty() || s[0] != "api") {
    return get ? std::variant<Route, NoRoute>(Route{Endpoint::asset, {}, {}}) : NoRoute{405};
  }
  if (s.size() < 3 || s[1] != "v1") {
    return NoRoute{404};
  }
  const std::size_t n = s.size() - 2; // segments after /api/v1
  const std::string& first = s[2];
  const auto only = [&](bool method_ok, Route r) -> std::variant<Route, NoRoute> {
    if (!method_ok) {
      return NoRoute{405};
    }
    return r;
  };
  if (n == 1) {
    if (first == "session") {
      return only(post, Route{Endpoint::session, {}, {}});
    }
    if (first == "team") {
      return only(get, Route{Endpoint::team, {}, {}});
    }
    if (first == "peers") {
      return only(get, Route{Endpoint::peers, {}, {}});
    }
    if (first == "mailboxes") {
      return only(get, Route{Endpoint::mailboxes, {}, {}});
    }
    if (first == "traces") {
      return only(get, Route{Endpoint::traces, {}, {}});
    }
    if (first == "search") {
      return only(get, Route{Endpoint::search, {}, {}});
    }
    if (first == "events") {
      return only(get, Route{Endpoint::events, {}, {}});
    }
    if (first == "messages") {
      return only(post, Route{Endpoint::send, {}, {}});
    }
    if (first == "schedules") {
      return only(get || post, Route{Endpoint::schedules, {}, {}});
    }
    return NoRoute{404};
  }
  const std::string& id = s[3];
  if (id.empty()) {
    return NoRoute{404};
  }
  if (n == 2) {
    if (first == "messages") {
      return only(get, Route{Endpoint::message, id, {}});
    }
    if (first == "threads") {
      return only(get, Route{Endpoint::thread, id, {}});
    }
    if (first == "status") {
      return only(get, Route{Endpoint::status, id, {}});
    }
    if (first == "traces") {
      return only(get, Route{Endpoint::trace, id, {}});
    }
    return NoRoute{404};
  }
  if (n == 3) {
    const std::string& last = s[4];
    if (first == "mailboxes" && last == "messages") {
      return only(get, Route{Endpoint::mailbox_messages, id, {}});
    }
    if (first == "messages" && last == "reply") {
      return only(post, Route{Endpoint::reply, id, {}});
    }
    if (first == "messages" && is_change(last)) {
      return only(post, Route{Endpoint::change, id, last});
    }
    if (first == "messages" && is_request_action(last)) {
      return only(post, Route{Endpoint::request, id, last});
    }
    if (first == "schedules" && !last.empty()) {
      return only(get, Route{Endpoint::schedule, id, {}, last});
    }
  }
  if (n == 4 && first == "schedules" && !s[4].empty() && is_schedule_action(s[5])) {
    return only(post, Route{Endpoint::schedule_action, id, s[5], s[4]});
  }
  return NoRoute{404};
}

} // namespace mailroom::http
