// Opening the PostgreSQL store: the connection, then the schema (created only by init).

#include <fmt/format.h>

#include "postgres/engine.hpp"
#include "postgres/postgres_store.hpp"
#include "postgres/schema.hpp"
#include "postgres/sql.hpp"
#include "text/conninfo.hpp"
#include "text/strings.hpp"

namespace mailroom::providers::postgres {

namespace {

// A missing store is never created behind the user's back: only `init` creates one.
Error no_store(const std::string& url)
{
  const std::string shown = text::redact_conninfo(url);
  const std::string word = shown.find(' ') == std::string::npos ? shown : fmt::format("\"{}\"", shown);
  Error error = make_error(ErrorCode::store_error,
                           fmt::format("no store at {} (run 'mailroom init --db {}')", shown, word));
  error.reason = "no_store";
  return error;
}

} // namespace

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
