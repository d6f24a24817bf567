// The client's own bound on a wait for the server (io.hpp), against a real throwaway server: a
// statement that outlasts io_timeout ends with "no answer within" and a closed connection; a
// COMMIT that does is reported as an unknown outcome; the next connection works.

#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include "db/connection.hpp"
#include "pg/connection.hpp"
#include "testing/pg_server.hpp"

namespace mailroom::pg {

TEST_SUITE("mailroom::pg::io")
{
  TEST_CASE("a statement that gets no answer within io_timeout closes the connection")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    OpenOptions options;
    options.io_timeout = std::chrono::milliseconds(300);
    auto connection = Connection::open(db->url, options);
    REQUIRE_MESSAGE(connection.ok(), connection.error().message);
    auto slow = connection->execute_script("SELECT pg_sleep(3)");
    REQUIRE_FALSE(slow.ok());
    CHECK(slow.error().message.find("no answer within 300 ms") != std::string::npos);
    CHECK(slow.error().message.find("lost the connection") != std::string::npos);
    CHECK(connection->last_sqlstate() == k_connection_failure);
    // Closed: nothing more is sent on it.
    CHECK_FALSE(connection->execute_script("SELECT 1").ok());
    // A fast statement on a new connection is not affected.
    auto fresh = Connection::open(db->url, options);
    REQUIRE(fresh.ok());
    CHECK(fresh->execute_script("SELECT 1").ok());
  }

  TEST_CASE("a COMMIT without an answer is an unknown outcome")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    // A deferred constraint trigger that sleeps runs inside COMMIT.
    Connection setup = testing::pg_connect(db->url);
    REQUIRE(
        setup
            .execute_script("CREATE TABLE t (x int);"
                            "CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS "
                            "$$ BEGIN PERFORM pg_sleep(2); RETURN NULL; END $$;"
                            "CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON t DEFERRABLE INITIALLY DEFERRED "
                            "FOR EACH ROW EXECUTE FUNCTION slow();")
            .ok());
    OpenOptions options;
    options.io_timeout = std::chrono::milliseconds(300);
    auto connection = Connection::open(db->url, options);
    REQUIRE(connection.ok());
    REQUIRE(connection->begin(db::TransactionKind::write).ok());
    REQUIRE(connection->execute_script("INSERT INTO t VALUES (1)").ok());
    auto committed = connection->commit();
    REQUIRE_FALSE(committed.ok());
    CHECK(committed.error().reason == db::k_reason_outcome_unknown);
    CHECK(committed.error().message.find("outcome is unknown") != std::string::npos);
  }

  TEST_CASE("io_timeout zero waits as long as it takes")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    OpenOptions options;
    options.io_timeout = std::chrono::milliseconds(0);
    auto connection = Connection::open(db->url, options);
    REQUIRE(connection.ok());
    CHECK(connection->execute_script("SELECT pg_sleep(0.5)").ok());
  }
}

} // namespace mailroom::pg
