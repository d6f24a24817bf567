// Readable SQL: every statement of the PostgreSQL store (its Queries and its schema scripts), fully
// expanded, in testdata/sql/postgres.sql, so that a reviewer reads SQL as SQL and sees each change
// to it in the diff. Parameters are written ?N as in queries.hpp (the engine's wrapper numbers them
// $N). UPDATE_GOLDEN=1 rewrites the file (`make golden-sql`); otherwise a difference fails and
// says how to update. No server is needed.

#include <doctest/doctest.h>

#include "postgres/schema_sql.hpp"
#include "postgres/sql.hpp"
#include "sqlstore/golden_sql_test_support.hpp"

namespace {

namespace golden = mailroom::providers::sqlstore::golden;
namespace postgres = mailroom::providers::postgres;

const std::filesystem::path k_source = std::filesystem::path(MAILROOM_TESTDATA_DIR) / "..";

} // namespace

TEST_SUITE("mailroom::sql golden (postgres)")
{
  TEST_CASE("every statement of the PostgreSQL store is the one in testdata/sql/postgres.sql")
  {
    std::string error;
    std::vector<golden::Statement> all = golden::statements_of(
        postgres::postgres_queries(), golden::read_text(k_source / "providers/sqlstore/queries.hpp"), error);
    REQUIRE_MESSAGE(error.empty(), error);
    for (std::size_t i = 0; i < postgres::schema_sql::k_migrations.size(); ++i) {
      all.emplace_back("schema.v" + std::to_string(i + 1),
                       std::string(postgres::schema_sql::k_migrations[i]));
    }
    const std::string text = golden::render("The PostgreSQL store's SQL, every statement as it runs.", all);
    const auto difference = golden::compare_golden(k_source / "testdata/sql/postgres.sql", text);
    CHECK_MESSAGE(!difference, difference.value_or(""));
  }
}
