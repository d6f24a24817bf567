// Opening the PostgreSQL store: the connection, then the schema (created only by init).

#include <fmt/format.h>

#include "pg/url_options.hpp"
#include "postgres/engine.hpp"
#include "postgres/postgres_store.hpp"
#include "postgres/schema.hpp"
#include "postgres/sql.hpp"
#include "text/conninfo.hpp"
#include "text/strings.hpp"
#include "util/environment.hpp"
#include "util/xdg.hpp"

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

// $XDG_CACHE_HOME/mailroom/pg-hosts, else $HOME/.cache/mailroom/pg-hosts; empty when neither.
std::string host_memory_dir(const util::Environment& env)
{
  const std::optional<std::string> cache = util::xdg_home(env, util::XdgDir::cache);
  return cache ? *cache + "/mailroom/pg-hosts" : std::string();
}

} // namespace

Result<std::unique_ptr<sqlstore::SqlStore>> open_postgres_store(const mail::StoreSettings& settings,
                                                                const mail::MailPolicy& policy,
                                                                const mail::Clock& clock)
{
  const pg::UrlOptions url = pg::take_url_options(settings.path);
  pg::OpenOptions options;
  options.io_timeout = settings.timeout;
  options.transaction_pooler = settings.transaction_pooler || url.transaction_pooler;
  options.host_memory_dir = host_memory_dir(util::ProcessEnvironment());
  TRY_ASSIGN(pg::Connection connection, pg::Connection::open(url.url, options));
  const std::string where = connection.describe();
  TRY_ASSIGN(const bool present, migrate(connection, settings.access == mail::Access::create, where));
  if (!present) {
    return no_store(settings.path);
  }
  auto engine = std::make_unique<PgEngine>(std::move(connection), url.url, options, clock);
  return std::make_unique<sqlstore::SqlStore>(std::move(engine), postgres_queries(), policy,
                                              sqlstore::current_origin());
}

} // namespace mailroom::providers::postgres
