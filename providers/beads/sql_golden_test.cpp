// Readable SQL: every statement of the bead store (its Queries, its visibility statements and its
// schema scripts), fully expanded as SQLite runs it, in testdata/sql/beads.sql, so that a reviewer
// reads SQL as SQL and sees each change to it in the diff. UPDATE_GOLDEN=1 rewrites the file
// (`make golden-sql`); otherwise a difference fails and says how to update.

#include <doctest/doctest.h>

#include "beads/schema_sql.hpp"
#include "beads/sql.hpp"
#include "sqlstore/golden_sql_test_support.hpp"

namespace {

namespace golden = mailroom::providers::sqlstore::golden;
namespace beads = mailroom::providers::beads;

const std::filesystem::path k_source = std::filesystem::path(MAILROOM_TESTDATA_DIR) / "..";

} // namespace

TEST_SUITE("mailroom::providers::beads sql golden")
{
  TEST_CASE("every statement of the bead store is the one in testdata/sql/beads.sql")
  {
    std::string error;
    std::vector<golden::Statement> all = golden::statements_of(
        beads::sqlite_queries(), golden::read_text(k_source / "providers/sqlstore/queries.hpp"), error);
    REQUIRE_MESSAGE(error.empty(), error);
    const auto& visibility = beads::sqlite_visibility_queries();
    const auto more = golden::views_of(&visibility, sizeof(visibility),
                                       golden::read_text(k_source / "providers/beads/sql.hpp"),
                                       "VisibilityQueries", "visibility", error);
    REQUIRE_MESSAGE(error.empty(), error);
    all.insert(all.end(), more.begin(), more.end());
    for (std::size_t i = 0; i < beads::schema_sql::k_migrations.size(); ++i) {
      all.emplace_back("schema.v" + std::to_string(i + 1),
                       std::string(beads::schema_sql::k_migrations[i].script));
    }
    all.emplace_back("schema.visibility_from_rows", std::string(beads::schema_sql::k_visibility_from_rows));
    const std::string text =
        golden::render("The bead store's SQL (SQLite), every statement as it runs.", all);
    const auto difference = golden::compare_golden(k_source / "testdata/sql/beads.sql", text);
    CHECK_MESSAGE(!difference, difference.value_or(""));
  }
}
