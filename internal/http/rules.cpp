#include "rules.hpp"

#include <array>
#include <charconv>
#include <cstddef>

#include <fmt/format.h>

#include "base/exit_code.hpp"

namespace mailroom::http {

int status_of(ErrorCode code)
{
  if (to_exit_code(code) == ExitCode::usage) {
    return 400; // the caller's mistake: the errors a command exits 2 with
  }
  switch (code) {
  case ErrorCode::not_recipient:
  case ErrorCode::not_sender:
    return 403;
  case ErrorCode::not_found:
    return 404;
  case ErrorCode::conflict:
    return 409;
  case ErrorCode::unsupported:
    return 501;
  case ErrorCode::store_error:
  case ErrorCode::provider_error:
    return 503;
  case ErrorCode::timeout:
    return 504;
  default:
    break;
  }
  return 503;
}

std::string_view code_of(Refusal refusal)
{
  switch (refusal) {
  case Refusal::unauthorized:
    return "unauthorized";
  case Refusal::forbidden_host:
    return "forbidden_host";
  case Refusal::forbidden_origin:
    return "forbidden_origin";
  case Refusal::payload_too_large:
    return "payload_too_large";
  case Refusal::too_many_streams:
    return "too_many_streams";
  }
  return "unauthorized";
}

int status_of(Refusal refusal)
{
  switch (refusal) {
  case Refusal::unauthorized:
    return 401;
  case Refusal::forbidden_host:
  case Refusal::forbidden_origin:
    return 403;
  case Refusal::payload_too_large:
    return 413;
  case Refusal::too_many_streams:
    return 503;
  }
  return 401;
}

ErrorCode base_code_of(Refusal refusal)
{
  return refusal == Refusal::too_many_streams ? ErrorCode::store_error : ErrorCode::usage;
}

std::span<const HeaderField> security_headers()
{
  static constexpr std::array<HeaderField, 6> k_headers = {{
      {"Content-Security-Policy",
       "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"},
      {"X-Content-Type-Options", "nosniff"},
      {"Referrer-Policy", "no-referrer"},
      {"Cache-Control", "no-store"},
      {"Cross-Origin-Opener-Policy", "same-origin"},
      {"Cross-Origin-Resource-Policy", "same-origin"},
  }};
  return k_headers;
}

HostRule host_rule(const std::vector<std::string>& allow_hosts, std::uint16_t port)
{
  HostRule rule;
  rule.names = {"127.0.0.1", "localhost", "[::1]"};
  rule.names.insert(rule.names.end(), allow_hosts.begin(), allow_hosts.end());
  rule.port = port;
  return rule;
}

namespace {

char lower(char c)
{
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool equal_ignoring_ascii_case(std::string_view a, std::string_view b)
{
  if (a.size() != b.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) {
      return false;
    }
  }
  return true;
}

} // namespace

bool host_allowed(const HostRule& rule, std::string_view host)
{
  const std::string port = ":" + std::to_string(rule.port);
  if (host.size() <= port.size() || host.substr(host.size() - port.size()) != port) {
    return false;
  }
  const std::string_view name = host.substr(0, host.size() - port.size());
  for (const std::string& allowed : rule.names) {
    if (equal_ignoring_ascii_case(name, allowed)) {
      return true;
    }
  }
  return false;
}

bool origin_allowed(std::string_view host, std::string_view origin)
{
  constexpr std::string_view scheme = "http://";
  return origin.size() == scheme.size() + host.size() && origin.substr(0, scheme.size()) == scheme &&
         equal_ignoring_ascii_case(origin.substr(scheme.size()), host);
}

std::string ListenAddress::host(std::uint16_t actual_port) const
{
  return address.find(':') != std::string::npos ? fmt::format("[{}]:{}", address, actual_port)
                                                : fmt::format("{}:{}", address, actual_port);
}

Result<ListenAddress> parse_listen(std::string_view text)
{
  const auto bad = [text]() {
    return make_error(ErrorCode::usage, fmt::format("--listen \"{}\" is not ADDR:PORT", text),
                      "e.g. 127.0.0.1:8025, 127.0.0.1:0 (a free port) or [::1]:8025");
  };
  ListenAddress listen;
  std::string_view port;
  if (!text.empty() && text.front() == '[') {
    const std::size_t close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      return bad();
    }
    listen.address = std::string(text.substr(1, close - 1));
    port = text.substr(close + 2);
    if (listen.address.find(':') == std::string::npos) {
      return bad();
    }
  } else {
    const std::size_t colon = text.rfind(':');
    if (colon == std::string_view::npos || text.substr(0, colon).find(':') != std::string_view::npos) {
      return bad();
    }
    listen.address = std::string(text.substr(0, colon));
    port = text.substr(colon + 1);
  }
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (listen.address.empty() || port.empty() || ec != std::errc() || end != port.data() + port.size() ||
      value > 65535) {
    return bad();
  }
  listen.port = static_cast<std::uint16_t>(value);
  listen.loopback = listen.address.starts_with("127.") || listen.address == "::1";
  return listen;
}

std::string_view bearer_of(std::string_view authorization)
{
  constexpr std::string_view scheme = "bearer ";
  if (authorization.size() <= scheme.size() ||
      !equal_ignoring_ascii_case(authorization.substr(0, scheme.size()), scheme)) {
    return {};
  }
  std::string_view credential = authorization.substr(scheme.size());
  while (!credential.empty() && credential.front() == ' ') {
    credential.remove_prefix(1);
  }
  while (!credential.empty() && credential.back() == ' ') {
    credential.remove_suffix(1);
  }
  return credential;
}

bool constant_time_equal(std::string_view a, std::string_view b)
{
  // Every byte of the longer input is read whatever the contents; only the lengths leak.
  const std::size_t n = a.size() > b.size() ? a.size() : b.size();
  unsigned diff = a.size() == b.size() ? 0U : 1U;
  for (std::size_t i = 0; i < n; ++i) {
    const auto x = static_cast<unsigned char>(i < a.size() ? a[i] : 0);
    const auto y = static_cast<unsigned char>(i < b.size() ? b[i] : 0);
    diff |= static_cast<unsigned>(x ^ y);
  }
  return diff == 0;
}

} // namespace mailroom::http
