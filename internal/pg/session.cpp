#include "pg/session.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>
#include <libpq-fe.h>

#include "db/connection.hpp"
#include "pg/sqlstate.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"

namespace mailroom::pg::detail {

namespace {

bool is_word_char(char c)
{
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Replaces `secret` in `text` by "***". A long secret goes wherever it appears; a short one
// (under 6 bytes) only where it stands apart from letters and digits, so that a password "p"
// does not turn "accepting" into "acce***ting". libpq echoes a password, if at all, as a whole
// token of a URL ("bob:p@host", "\"p%zz\"").
std::string scrub(std::string text, std::string_view secret)
{
  constexpr std::size_t k_long = 6;
  if (secret.empty()) {
    return text;
  }
  std::size_t at = 0;
  while ((at = text.find(secret, at)) != std::string::npos) {
    const std::size_t end = at + secret.size();
    const bool apart =
        (at == 0 || !is_word_char(text[at - 1])) && (end == text.size() || !is_word_char(text[end]));
    if (secret.size() >= k_long || apart) {
      text.replace(at, secret.size(), "***");
      at += 3;
    } else {
      ++at;
    }
  }
  return text;
}

void add_secret(std::vector<std::string>& secrets, std::string_view raw)
{
  for (std::string text : {std::string(raw), text::percent_decode(raw)}) {
    if (!text.empty() && std::find(secrets.begin(), secrets.end(), text) == secrets.end()) {
      secrets.push_back(std::move(text));
    }
  }
}

// One line of `text` with its leading and trailing blanks removed.
std::string one_line(std::string_view text)
{
  return text::trim(text::sanitize_line(text));
}

std::string lower_first(std::string text)
{
  if (text.size() >= 2 && text[0] >= 'A' && text[0] <= 'Z' && text[1] >= 'a' && text[1] <= 'z') {
    text[0] = static_cast<char>(text[0] - 'A' + 'a');
  }
  return text;
}

std::string_view strip_prefixes(std::string_view line)
{
  constexpr std::string_view k_connection = "connection to server ";
  constexpr std::string_view k_failed = " failed: ";
  if (text::starts_with(line, k_connection)) {
    const std::size_t at = line.find(k_failed);
    if (at != std::string_view::npos) {
      line.remove_prefix(at + k_failed.size());
    }
  }
  for (std::string_view severity : {"ERROR:", "FATAL:", "PANIC:"}) {
    if (text::starts_with(line, severity)) {
      line.remove_prefix(severity.size());
      break;
    }
  }
  return text::trim_view(line);
}

const char* field(const pg_result* result, int code)
{
  return result != nullptr ? PQresultErrorField(result, code) : nullptr;
}

} // namespace

void ResultDeleter::operator()(pg_result* result) const noexcept
{
  PQclear(result);
}

Session::~Session()
{
  if (conn != nullptr) {
    PQfinish(conn);
  }
}

bool Session::connected() const
{
  return conn != nullptr && PQstatus(conn) == CONNECTION_OK;
}

Message clean_message(const std::vector<std::string>& secrets, std::string_view text)
{
  std::string scrubbed(text);
  // Longest first, so that a decoded password inside its encoded form is not half replaced.
  std::vector<std::string> ordered = secrets;
  std::sort(ordered.begin(), ordered.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  for (const std::string& secret : ordered) {
    scrubbed = scrub(std::move(scrubbed), secret);
  }
  std::vector<std::string_view> lines;
  std::string_view rest = scrubbed;
  while (!rest.empty()) {
    const std::size_t end = std::min(rest.find('\n'), rest.size());
    if (!text::trim_view(rest.substr(0, end)).empty()) {
      lines.push_back(rest.substr(0, end));
    }
    rest.remove_prefix(std::min(end + 1, rest.size()));
  }
  Message message;
  if (lines.empty()) {
    message.reason = "unknown error";
    return message;
  }
  message.reason = lower_first(one_line(strip_prefixes(text::trim_view(lines[0]))));
  // Indented lines continue the first one (libpq's hints); an unindented one is another
  // attempt (a second host or address) and is left out.
  std::string hint;
  for (std::size_t i = 1; i < lines.size() && (lines[i][0] == '\t' || lines[i][0] == ' '); ++i) {
    hint += hint.empty() ? "" : " ";
    hint += text::trim_view(lines[i]);
  }
  message.hint = lower_first(one_line(hint));
  return message;
}

bool server_unreachable(std::string_view reason)
{
  // libpq's and the server's own words (lower-cased first letter, as clean_message leaves them).
  constexpr std::array<std::string_view, 14> k_unreachable = {
      "connection refused",
      "no such file or directory", // a Unix socket that is not there: no server on it
      "the database system is starting up",
      "the database system is shutting down",
      "the database system is in recovery mode",
      "the database system is not yet accepting connections",
      "the database system is not accepting connections",
      "server closed the connection unexpectedly",
      "connection reset by peer",
      "connection timed out",
      "no route to host",
      "network is unreachable",
      "timeout expired",
      "could not receive data from server",
  };
  return std::any_of(k_unreachable.begin(), k_unreachable.end(),
                     [&](std::string_view words) { return text::starts_with(reason, words); });
}

std::vector<std::string> url_secrets(std::string_view url)
{
  std::vector<std::string> secrets;
  const std::size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) {
    return secrets;
  }
  // As libpq reads it: user information runs up to an '@' met before the first '/'.
  const std::string_view after = url.substr(scheme_end + 3);
  const std::size_t stop = std::min(after.find_first_of("@/"), after.size());
  if (stop < after.size() && after[stop] == '@') {
    const std::string_view user_info = after.substr(0, stop);
    const std::size_t colon = user_info.find(':');
    if (colon != std::string_view::npos) {
      add_secret(secrets, user_info.substr(colon + 1));
    }
  }
  const std::size_t query = url.find('?');
  if (query != std::string_view::npos) {
    std::string_view params = url.substr(query + 1);
    while (!params.empty()) {
      const std::size_t end = std::min(params.find('&'), params.size());
      const std::string_view param = params.substr(0, end);
      const std::size_t equals = param.find('=');
      if (equals != std::string_view::npos && text::percent_decode(param.substr(0, equals)) == "password") {
        add_secret(secrets, param.substr(equals + 1));
      }
      params.remove_prefix(std::min(end + 1, params.size()));
    }
  }
  return secrets;
}

Result<ResultPtr> check_result(Session& session, pg_result* result)
{
  ResultPtr owned(result);
  if (result != nullptr) {
    switch (PQresultStatus(result)) {
    case PGRES_COMMAND_OK:
    case PGRES_TUPLES_OK:
    case PGRES_EMPTY_QUERY:
      session.last_sqlstate.clear();
      return owned;
    case PGRES_COPY_IN:
    case PGRES_COPY_OUT:
    case PGRES_COPY_BOTH:
      session.last_sqlstate.clear();
      return make_error(ErrorCode::store_error,
                        fmt::format("postgresql at \"{}\": COPY is not supported", session.where));
    default:
      break;
    }
  }
  return command_error(session, result);
}

Error command_error(Session& session, const pg_result* result, std::string_view during)
{
  const char* sqlstate = field(result, PG_DIAG_SQLSTATE);
  session.last_sqlstate = sqlstate != nullptr ? sqlstate : "";
  const bool lost = !session.connected();
  if (lost && session.last_sqlstate.empty()) {
    session.last_sqlstate = k_connection_failure;
  }
  // The server's primary message when it sent one, else libpq's account of the failure.
  const char* text = field(result, PG_DIAG_MESSAGE_PRIMARY);
  std::string expired_text;
  if (text == nullptr && session.expired) {
    expired_text = fmt::format("no answer within {} ms", session.io_timeout.count());
    text = expired_text.c_str();
  }
  if (text == nullptr && session.conn != nullptr) {
    text = PQerrorMessage(session.conn);
  }
  if (text == nullptr) {
    text = "out of memory";
  }
  Message message = clean_message(session.secrets, text);
  const char* server_hint = field(result, PG_DIAG_MESSAGE_HINT);
  if (server_hint != nullptr) {
    message.hint = clean_message(session.secrets, server_hint).reason;
  }

  Error error;
  error.code = ErrorCode::store_error;
  const std::string_view state = session.last_sqlstate;
  if (lost) {
    error.message = during.empty() ? fmt::format("lost the connection to postgresql at \"{}\": {}",
                                                 session.where, message.reason)
                                   : fmt::format("lost the connection to postgresql at \"{}\" during {} (its "
                                                 "outcome is unknown): {}",
                                                 session.where, during, message.reason);
    if (!during.empty()) {
      error.reason = std::string(db::k_reason_outcome_unknown);
    }
  } else {
    error.message = fmt::format("postgresql at \"{}\": {}", session.where, message.reason);
  }
  if (state == k_query_canceled || state == k_lock_not_available) {
    error.code = ErrorCode::timeout;
  }
  if (state == k_serialization_failure || state == k_deadlock_detected) {
    error.transient = true;
    if (message.hint.empty()) {
      message.hint = "a concurrent transaction conflicted with this one; try again";
    }
  }
  error.hint = std::move(message.hint);
  return error;
}

} // namespace mailroom::pg::detail
