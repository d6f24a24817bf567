#include "route.hpp"

#include <span>

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

// The {name} parameters of `pattern` matched against `segments`; false when they do not match.
bool match(std::string_view pattern, std::span<const std::string> segments,
           std::vector<std::pair<std::string_view, std::string>>& params)
{
  const std::vector<std::string_view> parts = split(pattern, '/');
  if (parts.size() != segments.size()) {
    return false;
  }
  params.clear();
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string_view part = parts[i];
    if (part.size() > 2 && part.front() == '{' && part.back() == '}') {
      if (segments[i].empty()) {
        return false;
      }
      params.emplace_back(part.substr(1, part.size() - 2), segments[i]);
    } else if (part != segments[i]) {
      return false;
    }
  }
  return true;
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

const std::string& Route::param(std::string_view name) const
{
  static const std::string k_none;
  for (const auto& [key, value] : params) {
    if (key == name) {
      return value;
    }
  }
  return k_none;
}

std::variant<Route, NoRoute> route(std::string_view method, const Target& target,
                                   std::span<const RouteSpec> table)
{
  const std::vector<std::string>& s = target.segments;
  const bool get = method == "GET" || method == "HEAD";
  if (s.empty() || s[0] != "api") {
    if (get) {
      return Route{};
    }
    return NoRoute{405, "GET, HEAD"};
  }
  if (s.size() < 3 || s[1] != "v1") {
    return NoRoute{404, {}};
  }
  const std::span<const std::string> rest(s.begin() + 2, s.end());
  Route found;
  std::string allow;
  for (const RouteSpec& spec : table) {
    if (!match(spec.path, rest, found.params)) {
      continue;
    }
    if (spec.method == method || (get && spec.method == "GET")) {
      found.spec = &spec;
      return found;
    }
    const std::string_view methods = spec.method == "GET" ? "GET, HEAD" : spec.method;
    if (allow.find(methods) == std::string::npos) {
      allow += (allow.empty() ? "" : ", ") + std::string(methods);
    }
  }
  if (!allow.empty()) {
    return NoRoute{405, allow};
  }
  return NoRoute{404, {}};
}

} // namespace mailroom::http
