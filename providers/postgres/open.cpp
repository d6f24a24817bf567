// Opening the PostgreSQL store: the connection, then the schema (created only by init).

#include <fmt/format.h>

#include "postgres/engine.hpp"
#include "postgres/postgres_store.hpp"
#include "postgres/schema.hpp"
#include "postgres/sql.hpp"
#include "text/strings.hpp"

namespace mailroom::providers::postgres {

namespace {

// A missing store is never created behind the user's back: only `init` creates one.
Error no_store(const std::string& url)
{
  const std::string shown = url_without_password(url);
  Error error = make_error(ErrorCode::store_error,
                           fmt::format("no store at {} (run 'mailroom init --db {}')", shown, shown));
  error.reason = "no_store";
  return error;
}

} // namespace

std::string url_without_password(std::string_view url)
{
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) {
    return std::string(url);
  }
  const std::size_t authority_begin = scheme_end + 3;
  const std::size_t authority_end = std::min(url.find_first_of("/?", authority_begin), url.size());
  std::string_view authority = url.substr(authority_begin, authority_end - authority_begin);
  std::string out(url.substr(0, authority_begin));
  const auto at = authority.rfind('@');
  if (at != std::string_view::npos) {
    const std::string_view userinfo = authority.substr(0, at);
    out += userinfo.substr(0, userinfo.find(':'));
    authority.remove_prefix(at);
  }
  out += authority;
  std::string_view rest = url.substr(authority_end);
  const auto question = rest.find('?');
  out += rest.substr(0, question);
  if (question == std::string_view::npos) {
    return out;
  }
  std::string_view query = rest.substr(question + 1);
  char separator = '?';
  while (true) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    if (!pair.empty() && pair.substr(0, pair.find('=')) != "password") {
      out += separator;
      out += pair;
      separator = '&';
    }
    if (amp == std::string_view::npos) {
      break;
    }
    query.remove_prefix(amp + 1);
  }
  return out;
}

Result<std::unique_ptr<sqlstore::SqlStore>> open_postgres_store(const mail::StoreSettings& settings,
                                                                const mail::MailPolicy& policy,
                                                                const mail::Clock& clock)
{
  const pg::OpenOptions options;
  TRY_ASSIGN(pg::Connection connection, pg::Connection::open(settings.path, options));
  const std::string where = connection.describe();
  TRY_ASSIGN(const bool present, migrate(connection, settings.access == mail::Access::create, where));
  if (!present) {
    return no_store(settings.path);
  }
  auto engine = std::make_unique<PgEngine>(std::move(connection), settings.path, options, clock);
  return std::make_unique<sqlstore::SqlStore>(std::move(engine), postgres_queries(), policy,
                                              sqlstore::current_origin());
}

} // namespace mailroom::providers::postgres
