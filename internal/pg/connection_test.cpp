// pg::Connection against a real throwaway server: transactions and statement errors.

#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include <fmt/format.h>

#include "pg/connection.hpp"
#include "testing/pg_server.hpp"

namespace mailroom::pg {

namespace {

std::int64_t count_rows(Connection& connection, std::string_view sql)
{
  auto statement = connection.cached(sql);
  REQUIRE_MESSAGE(statement.ok(), statement.error().message);
  auto row = (*statement)->step();
  REQUIRE_MESSAGE(row.ok(), row.error().message);
  REQUIRE(*row);
  const std::int64_t value = (*statement)->get<std::int64_t>(0);
  (*statement)->reset();
  return value;
}

} // namespace

TEST_SUITE("mailroom::pg::Connection")
{
  TEST_CASE("open names the server as host:port/dbname and reports the engine")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection connection = testing::pg_connect(db->url);
    const auto* server = testing::PgServer::get();
    CHECK(connection.describe() == fmt::format("{}:5432/{}", server->dir().string(), db->name));
    CHECK(connection.engine() == "postgresql");
    CHECK(connection.backend_pid() > 0);
    // A libpq keyword string names the same server; a path is no connection string.
    auto keywords = Connection::open(
        fmt::format("host={} dbname={} user=postgres password=Secret1", server->dir().string(), db->name),
        OpenOptions{});
    REQUIRE(keywords.ok());
    CHECK(keywords->describe() == connection.describe());
    CHECK_FALSE(Connection::open("/var/lib/mail.db", OpenOptions{}).ok());
    // A malformed one is refused without echoing its password.
    const auto bad = Connection::open("host=/x password='Sup3rSecret", OpenOptions{});
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message.find("Sup3rSecret") == std::string::npos);
  }

  TEST_CASE("a committed transaction is seen by another connection; a dropped one rolls back")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection writer = testing::pg_connect(db->url);
    Connection reader = testing::pg_connect(db->url);
    testing::pg_exec(writer, "CREATE TABLE t (id INT)");
    {
      auto transaction = db::Transaction::begin(writer, db::TransactionKind::write);
      REQUIRE(transaction.ok());
      testing::pg_exec(writer, "INSERT INTO t VALUES (1)");
      CHECK(count_rows(reader, "SELECT count(*) FROM t") == 0);
    } // rolled back here
    CHECK(count_rows(writer, "SELECT count(*) FROM t") == 0);
    {
      auto transaction = db::Transaction::begin(writer, db::TransactionKind::write);
      REQUIRE(transaction.ok());
      testing::pg_exec(writer, "INSERT INTO t VALUES (2)");
      REQUIRE(transaction->commit().ok());
    }
    CHECK(count_rows(reader, "SELECT count(*) FROM t") == 1);
  }

  TEST_CASE("a read transaction keeps one snapshot and refuses writes")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection writer = testing::pg_connect(db->url);
    Connection reader = testing::pg_connect(db->url);
    testing::pg_exec(writer, "CREATE TABLE t (id INT)");
    auto transaction = db::Transaction::begin(reader, db::TransactionKind::read);
    REQUIRE(transaction.ok());
    CHECK(count_rows(reader, "SELECT count(*) FROM t") == 0);
    testing::pg_exec(writer, "INSERT INTO t VALUES (1)");
    CHECK(count_rows(reader, "SELECT count(*) FROM t") == 0);
    const auto write = reader.execute_script("INSERT INTO t VALUES (2)");
    REQUIRE_FALSE(write.ok());
    CHECK(write.error().message ==
          fmt::format("postgresql at \"{}\": cannot execute INSERT in a read-only transaction",
                      reader.describe()));
  }

  TEST_CASE("committing a failed transaction is an error; a second begin is refused")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection connection = testing::pg_connect(db->url);
    REQUIRE(connection.begin(db::TransactionKind::write).ok());
    const auto again = connection.begin(db::TransactionKind::write);
    REQUIRE_FALSE(again.ok());
    CHECK(again.error().message ==
          fmt::format("postgresql at \"{}\": a transaction is already open", connection.describe()));
    CHECK_FALSE(connection.execute_script("SELECT no_such_column").ok());
    const auto committed = connection.commit();
    REQUIRE_FALSE(committed.ok());
    CHECK(committed.error().message ==
          fmt::format("postgresql at \"{}\": the transaction had failed and was rolled back instead "
                      "of committed",
                      connection.describe()));
    CHECK(connection.begin(db::TransactionKind::read).ok()); // the failed one is over
    connection.rollback();
  }

  TEST_CASE("bad SQL is a store_error with PostgreSQL's reason")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection connection = testing::pg_connect(db->url);
    const auto statement = connection.cached("SELEC 1");
    REQUIRE_FALSE(statement.ok());
    CHECK(statement.error().code == ErrorCode::store_error);
    CHECK(statement.error().message ==
          fmt::format("postgresql at \"{}\": syntax error at or near \"SELEC\"", connection.describe()));
    CHECK_FALSE(statement.error().transient);
    CHECK(connection.last_sqlstate() == "42601");
    const auto missing = connection.cached("SELECT * FROM no_such_table");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message ==
          fmt::format("postgresql at \"{}\": relation \"no_such_table\" does not exist",
                      connection.describe()));
    testing::pg_exec(connection, "SELECT 1");
    CHECK(connection.last_sqlstate().empty());
  }

  TEST_CASE("a unique violation is recognisable by its SQLSTATE and not transient")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection connection = testing::pg_connect(db->url);
    testing::pg_exec(connection, "CREATE TABLE t (name TEXT PRIMARY KEY)");
    auto insert = connection.cached("INSERT INTO t VALUES (?1)");
    REQUIRE(insert.ok());
    REQUIRE((*insert)->bind(std::string_view("bob")).ok());
    REQUIRE((*insert)->exec().ok());
    const auto duplicate = (*insert)->exec();
    REQUIRE_FALSE(duplicate.ok());
    CHECK(connection.last_sqlstate() == k_unique_violation);
    CHECK(duplicate.error().code == ErrorCode::store_error);
    CHECK_FALSE(duplicate.error().transient);
    CHECK(duplicate.error().message ==
          fmt::format("postgresql at \"{}\": duplicate key value violates unique constraint \"t_pkey\"",
                      connection.describe()));
  }

  TEST_CASE("a serialization failure between two writers is transient")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection first = testing::pg_connect(db->url);
    Connection second = testing::pg_connect(db->url);
    testing::pg_exec(first, "CREATE TABLE t (id INT PRIMARY KEY, v INT); INSERT INTO t VALUES (1, 0)");
    REQUIRE(first.begin(db::TransactionKind::write).ok());
    CHECK(count_rows(first, "SELECT v FROM t WHERE id = 1") == 0); // takes the snapshot
    REQUIRE(second.begin(db::TransactionKind::write).ok());
    testing::pg_exec(second, "UPDATE t SET v = v + 1 WHERE id = 1");
    REQUIRE(second.commit().ok());
    const auto conflict = first.execute_script("UPDATE t SET v = v + 1 WHERE id = 1");
    REQUIRE_FALSE(conflict.ok());
    CHECK(conflict.error().transient);
    CHECK(conflict.error().code == ErrorCode::store_error);
    CHECK(first.last_sqlstate() == k_serialization_failure);
    CHECK(conflict.error().message ==
          fmt::format("postgresql at \"{}\": could not serialize access due to concurrent update",
                      first.describe()));
    CHECK(conflict.error().hint == "a concurrent transaction conflicted with this one; try again");
    first.rollback();
    // Run again, it succeeds.
    REQUIRE(first.begin(db::TransactionKind::write).ok());
    testing::pg_exec(first, "UPDATE t SET v = v + 1 WHERE id = 1");
    REQUIRE(first.commit().ok());
    CHECK(count_rows(second, "SELECT v FROM t WHERE id = 1") == 2);
  }

  TEST_CASE("a statement past the statement timeout is a timeout error")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    OpenOptions options;
    options.statement_timeout = std::chrono::milliseconds(100);
    Connection connection = testing::pg_connect(db->url, options);
    const auto slow = connection.execute_script("SELECT pg_sleep(5)");
    REQUIRE_FALSE(slow.ok());
    CHECK(slow.error().code == ErrorCode::timeout);
    CHECK(connection.last_sqlstate() == k_query_canceled);
    CHECK(slow.error().message ==
          fmt::format("postgresql at \"{}\": canceling statement due to statement timeout",
                      connection.describe()));
  }
}

} // namespace mailroom::pg
