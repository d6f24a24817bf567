#pragma once

// The request rules of `mailroom serve` that need no network (contract "HTTP API and the
// dashboard"): the status of each error code, the headers on every response, the Host and
// Origin rules, and the bearer comparison. Beast is never included here.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"

namespace mailroom::http {

// The contract's error-to-status table for the errors operations report (400, 403, 404, 409,
// 501, 503, 504).
int status_of(ErrorCode code);

// The server's own refusals, which no operation reports: their codes in the error object are the
// contract's HTTP codes, their exit_code that of usage (too_many_streams: of store_error).
enum class Refusal { unauthorized, forbidden_host, forbidden_origin, payload_too_large, too_many_streams };
std::string_view code_of(Refusal refusal);
// 401, 403, 403, 413, 503.
int status_of(Refusal refusal);
// The error the object is written from (then its code is replaced by code_of).
ErrorCode base_code_of(Refusal refusal);

struct HeaderField {
  std::string_view name;
  std::string_view value;
};
// Content-Security-Policy, X-Content-Type-Options, Referrer-Policy, Cache-Control,
// Cross-Origin-Opener-Policy and Cross-Origin-Resource-Policy: on every response, errors too.
std::span<const HeaderField> security_headers();

// Who the server answers to: the loopback names and the --allow-host names, with its port.
struct HostRule {
  std::vector<std::string> names; // 127.0.0.1, localhost, [::1], then each --allow-host
  std::uint16_t port = 0;
};
HostRule host_rule(const std::vector<std::string>& allow_hosts, std::uint16_t port);

// True when `host` (the Host header) is exactly one of the names with ":PORT". ASCII case is
// ignored in the name (DNS names are case-insensitive); nothing else is.
bool host_allowed(const HostRule& rule, std::string_view host);
// True when `origin` (a present Origin header) is the server's own origin: "http://" + the
// request's (already allowed) Host.
bool origin_allowed(std::string_view host, std::string_view origin);

// --listen ADDR:PORT: an IPv4 address, or an IPv6 one in brackets ([::1]:8025).
struct ListenAddress {
  std::string address; // without brackets
  std::uint16_t port = 0;
  bool loopback = false; // 127.0.0.0/8 or ::1
  // How a URL names it: 127.0.0.1:8025, [::1]:8025.
  std::string host(std::uint16_t actual_port) const;
};
// Errors: usage.
Result<ListenAddress> parse_listen(std::string_view text);

// The credential of an `Authorization: Bearer T` header, or "" for any other form.
std::string_view bearer_of(std::string_view authorization);
// Compares in time that depends only on the lengths, never on where the inputs differ.
bool constant_time_equal(std::string_view a, std::string_view b);

} // namespace mailroom::http
