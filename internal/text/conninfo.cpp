#include "text/conninfo.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>

#include "text/strings.hpp"

namespace mailroom::text {

namespace {

// libpq's connection keywords (PostgreSQL 15/16 "Parameter Key Words").
constexpr std::string_view k_libpq_keywords[] = {"host",
                                                 "hostaddr",
                                                 "port",
                                                 "dbname",
                                                 "user",
                                                 "password",
                                                 "passfile",
                                                 "channel_binding",
                                                 "connect_timeout",
                                                 "client_encoding",
                                                 "options",
                                                 "application_name",
                                                 "fallback_application_name",
                                                 "keepalives",
                                                 "keepalives_idle",
                                                 "keepalives_interval",
                                                 "keepalives_count",
                                                 "tcp_user_timeout",
                                                 "replication",
                                                 "gssencmode",
                                                 "sslmode",
                                                 "requiressl",
                                                 "sslcompression",
                                                 "sslcert",
                                                 "sslkey",
                                                 "sslpassword",
                                                 "sslcertmode",
                                                 "sslrootcert",
                                                 "sslcrl",
                                                 "sslcrldir",
                                                 "sslsni",
                                                 "requirepeer",
                                                 "ssl_min_protocol_version",
                                                 "ssl_max_protocol_version",
                                                 "krbsrvname",
                                                 "gsslib",
                                                 "gssdelegation",
                                                 "service",
                                                 "target_session_attrs",
                                                 "load_balance_hosts",
                                                 "require_auth"};

bool is_secret_keyword(std::string_view keyword)
{
  return keyword == "password" || keyword == "sslpassword";
}

bool is_space(char c)
{
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// One `keyword = value` of a keyword string, as libpq's conninfo parser reads it.
struct Pair {
  std::size_t begin = 0; // the keyword's first byte
  std::size_t end = 0;   // one past the value (the closing quote included)
  std::string keyword;
  std::string value;    // unquoted, backslash escapes applied
  std::string_view raw; // the value as written (without its quotes)
};

// The pairs of `text`; `bad_at` is where a malformed pair begins (text.size() when none is).
// An unterminated quoted value runs to the end of the text (and counts as a pair).
std::vector<Pair> parse_pairs(std::string_view text, std::size_t& bad_at)
{
  std::vector<Pair> pairs;
  std::size_t i = 0;
  bad_at = text.size();
  while (true) {
    while (i < text.size() && is_space(text[i])) {
      ++i;
    }
    if (i == text.size()) {
      return pairs;
    }
    Pair pair;
    pair.begin = i;
    while (i < text.size() && !is_space(text[i]) && text[i] != '=') {
      ++i;
    }
    pair.keyword = std::string(text.substr(pair.begin, i - pair.begin));
    while (i < text.size() && is_space(text[i])) {
      ++i;
    }
    if (pair.keyword.empty() || i == text.size() || text[i] != '=') {
      bad_at = pair.begin;
      return pairs;
    }
    ++i;
    while (i < text.size() && is_space(text[i])) {
      ++i;
    }
    const bool quoted = i < text.size() && text[i] == '\'';
    if (quoted) {
      ++i;
    }
    const std::size_t value_begin = i;
    bool closed = !quoted;
    while (i < text.size()) {
      const char c = text[i];
      if (quoted ? c == '\'' : is_space(c)) {
        closed = true;
        break;
      }
      if (c == '\\' && i + 1 < text.size()) {
        ++i;
      }
      pair.value += text[i];
      ++i;
    }
    pair.raw = text.substr(value_begin, i - value_begin);
    if (quoted && closed) {
      ++i; // the closing quote
    }
    pair.end = i;
    pairs.push_back(std::move(pair));
  }
}

std::string redact_url(std::string_view url)
{
  const std::size_t authority_begin = url.find("://") + 3;
  const std::size_t query = std::min(url.find('?', authority_begin), url.size());
  std::string out(url.substr(0, authority_begin));
  // The user information ends at the last '@' before the query: a password holding an
  // unencoded '@' or '/' is still removed whole.
  const std::string_view head = url.substr(authority_begin, query - authority_begin);
  const std::size_t at = head.rfind('@');
  if (at != std::string_view::npos) {
    const std::string_view user_info = head.substr(0, at);
    out += user_info.substr(0, user_info.find(':'));
    out += head.substr(at);
  } else {
    out += head;
  }
  if (query == url.size()) {
    return out;
  }
  std::string_view params = url.substr(query + 1);
  char separator = '?';
  while (true) {
    const std::size_t amp = params.find('&');
    const std::string_view param = params.substr(0, amp);
    if (!param.empty() && !is_secret_keyword(percent_decode(param.substr(0, param.find('='))))) {
      out += separator;
      out += param;
      separator = '&';
    }
    if (amp == std::string_view::npos) {
      return out;
    }
    params.remove_prefix(amp + 1);
  }
}

std::string redact_keywords(std::string_view text)
{
  std::size_t bad_at = 0;
  const std::vector<Pair> pairs = parse_pairs(text, bad_at);
  std::string out;
  for (const Pair& pair : pairs) {
    if (is_secret_keyword(pair.keyword)) {
      continue;
    }
    if (!out.empty()) {
      out += ' ';
    }
    out += text.substr(pair.begin, pair.end - pair.begin);
  }
  // A malformed rest is not shown: it may be part of a password libpq would read differently.
  if (bad_at < text.size()) {
    out += out.empty() ? "…" : " …";
  }
  return out;
}

} // namespace

bool is_postgres_url(std::string_view text)
{
  return starts_with(text, "postgresql://") || starts_with(text, "postgres://");
}

bool is_postgres_keywords(std::string_view text)
{
  std::size_t i = 0;
  while (i < text.size() && is_space(text[i])) {
    ++i;
  }
  const std::size_t begin = i;
  while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) != 0 || text[i] == '_')) {
    ++i;
  }
  const std::string_view keyword = text.substr(begin, i - begin);
  while (i < text.size() && is_space(text[i])) {
    ++i;
  }
  if (i == text.size() || text[i] != '=') {
    return false;
  }
  return std::find(std::begin(k_libpq_keywords), std::end(k_libpq_keywords), keyword) !=
         std::end(k_libpq_keywords);
}

bool is_postgres_location(std::string_view text)
{
  return is_postgres_url(text) || is_postgres_keywords(text);
}

std::vector<std::string> conninfo_passwords(std::string_view text)
{
  std::vector<std::string> out;
  if (!is_postgres_keywords(text)) {
    return out;
  }
  std::size_t bad_at = 0;
  for (const Pair& pair : parse_pairs(text, bad_at)) {
    if (is_secret_keyword(pair.keyword) && !pair.value.empty()) {
      out.push_back(pair.value);
      if (pair.raw != pair.value) {
        out.emplace_back(pair.raw);
      }
    }
  }
  return out;
}

std::string redact_conninfo(std::string_view text)
{
  if (is_postgres_url(text)) {
    return redact_url(text);
  }
  if (is_postgres_keywords(text)) {
    return redact_keywords(text);
  }
  return std::string(text);
}

} // namespace mailroom::text
