// The PostgreSQL test fixture itself: fresh databases, and the crash-and-restart helper.

#include <doctest/doctest.h>

#include "testing/pg_server.hpp"

namespace mailroom::testing {

TEST_SUITE("mailroom::testing::PgServer (pg)")
{
  TEST_CASE("each test database is new and empty")
  {
    const auto first = pg_test_database();
    if (!first) {
      return;
    }
    const auto second = pg_test_database();
    REQUIRE(second);
    CHECK(first->name != second->name);
    pg::Connection connection = pg_connect(first->url);
    REQUIRE(connection.execute_script("CREATE TABLE only_here (id INT)").ok());
    pg::Connection other = pg_connect(second->url);
    CHECK_FALSE(other.execute_script("SELECT * FROM only_here").ok());
  }

  TEST_CASE("restart crashes the server and starts it again; committed rows survive")
  {
    const auto db = pg_test_database();
    if (!db) {
      return;
    }
    pg::Connection before = pg_connect(db->url);
    REQUIRE(before.execute_script("CREATE TABLE t (id INT); INSERT INTO t VALUES (1), (2)").ok());
    auto restarted = PgServer::get()->restart();
    REQUIRE_MESSAGE(restarted.ok(), restarted.error().message);
    CHECK_FALSE(before.execute_script("SELECT 1").ok()); // its backend is gone
    pg::Connection after = pg_connect(db->url);
    auto count = after.cached("SELECT count(*) FROM t");
    REQUIRE(count.ok());
    REQUIRE((*count)->step().value());
    CHECK((*count)->get<int>(0) == 2);
    (*count)->reset();
  }
}

} // namespace mailroom::testing
