// The field table (mail/message_fields.hpp) against the PostgreSQL store: every field's column
// exists in a new store's schema.

#include <string>

#include <doctest/doctest.h>

#include "mail/message_fields.hpp"
#include "postgres/postgres_store.hpp"
#include "sqlstore/message_sql.hpp"
#include "testing/pg_server.hpp"

namespace {

using namespace mailroom;

std::int64_t column_count(pg::Connection& connection, std::string_view column)
{
  auto statement = connection.cached(
      "SELECT count(*) FROM information_schema.columns WHERE table_name = 'beads' AND column_name = ?1");
  REQUIRE(statement.ok());
  const std::string name(column);
  REQUIRE(statement.value()->bind(name).ok());
  auto row = statement.value()->step();
  REQUIRE(row.ok());
  REQUIRE(row.value());
  const auto count = statement.value()->get<std::int64_t>(0);
  statement.value()->reset();
  return count;
}

} // namespace

TEST_SUITE("mailroom::providers::postgres message fields")
{
  TEST_CASE("every field of the table is a column of a new store's beads")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    mail::SystemClock clock;
    mail::StoreSettings settings;
    settings.path = db->url;
    settings.access = mail::Access::create;
    REQUIRE(providers::postgres::open_postgres_store(settings, {}, clock).ok());
    pg::Connection connection = testing::pg_connect(db->url);
    for (const mail::MessageField& field : mail::k_message_fields) {
      CHECK_MESSAGE(column_count(connection, field.column) == 1, field.column);
    }
    for (const std::string_view extra : providers::sqlstore::message_sql::k_body_extra_columns) {
      CHECK_MESSAGE(column_count(connection, extra) == 1, extra);
    }
  }
}
