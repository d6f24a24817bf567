// pg::Statement against a real throwaway server (tests/testing/pg_server.hpp).

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "pg/connection.hpp"
#include "testing/pg_server.hpp"

namespace mailroom::pg {

namespace {

db::Statement& cached(Connection& connection, std::string_view sql)
{
  auto statement = connection.cached(sql);
  REQUIRE_MESSAGE(statement.ok(), statement.error().message);
  return **statement;
}

// Steps once, requiring a row.
void require_row(db::Statement& statement)
{
  auto row = statement.step();
  REQUIRE_MESSAGE(row.ok(), row.error().message);
  REQUIRE(*row);
}

} // namespace

TEST_SUITE("mailroom::pg::Statement")
{
  TEST_CASE("every bind type round-trips through a table")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection connection = testing::pg_connect(db->url);
    testing::pg_exec(connection,
                     "CREATE TABLE t (i BIGINT, d DOUBLE PRECISION, s TEXT, b BYTEA, f BOOLEAN, n TEXT)");
    constexpr std::string_view k_insert = "INSERT INTO t VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
    constexpr std::string_view k_select = "SELECT i, d, s, b, f, n FROM t ORDER BY i";
    const std::string text = "grüße, ✉ and \"quotes\" 'too'";
    const std::string bytes("\x00\xff\xfe\x80 mail\x00\xc3(", 11);
    db::Statement& insert = cached(connection, k_insert);
    REQUIRE(
        insert.bind(std::numeric_limits<std::int64_t>::max(), 3.25, text, db::Blob{bytes}, true, std::nullopt)
            .ok());
    CHECK(insert.exec().value() == 1);
    REQUIRE(insert
                .bind(std::numeric_limits<std::int64_t>::min(), -1e300, std::string_view(""),
                      db::Blob{std::string_view()}, false, std::optional<std::string>("x"))
                .ok());
    CHECK(insert.exec().value() == 1);

    db::Statement& select = cached(connection, k_select);
    require_row(select);
    CHECK(select.column_count() == 6);
    CHECK(select.column_name(3) == "b");
    CHECK(select.get<std::int64_t>("i") == std::numeric_limits<std::int64_t>::min());
    CHECK(select.get<double>("d") == -1e300);
    CHECK(select.get<std::string>("s").empty());
    CHECK_FALSE(select.is_null(2));
    CHECK(select.get<std::optional<std::string>>("b") == std::string());
    CHECK(select.get<bool>("f") == false);
    CHECK(select.column_int(4) == 0);
    CHECK(select.get<std::optional<std::string>>("n") == "x");
    require_row(select);
    CHECK(select.get<std::int64_t>(0) == std::numeric_limits<std::int64_t>::max());
    CHECK(select.get<double>(1) == 3.25);
    CHECK(select.get<std::string>(2) == text);
    CHECK(select.get<std::string>(3) == bytes);
    CHECK(select.get<bool>(4));
    CHECK(select.column_int(4) == 1);
    CHECK(select.is_null(5));
    CHECK(select.get<std::optional<std::int64_t>>(5) == std::nullopt);
    CHECK_FALSE(select.step().value());
  }

  TEST_CASE("a blob of every byte value round-trips exactly, also where the server infers text")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection connection = testing::pg_connect(db->url);
    std::string bytes;
    for (int round = 0; round < 4096; ++round) {
      for (int value = 0; value < 256; ++value) {
        bytes += static_cast<char>((value * 7 + round) & 0xFF);
      }
    }
    // SELECT ?1 alone would be text; a blob makes it bytea.
    db::Statement& echo = cached(connection, "SELECT ?1 AS body, length(?1) AS size");
    REQUIRE(echo.bind(db::Blob{bytes}).ok());
    require_row(echo);
    CHECK(echo.get<std::int64_t>("size") == static_cast<std::int64_t>(bytes.size()));
    CHECK(echo.get<std::string>("body") == bytes);
    echo.reset();
    // The same statement with text bound again is text.
    REQUIRE(echo.bind(std::string_view("plain")).ok());
    require_row(echo);
    CHECK(echo.get<std::string>("body") == "plain");
    echo.reset();
  }

  TEST_CASE("text with a NUL byte is refused at bind time")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection connection = testing::pg_connect(db->url);
    db::Statement& statement = cached(connection, "SELECT ?1::text");
    const auto bound = statement.bind_text(1, std::string_view("a\0b", 3));
    REQUIRE_FALSE(bound.ok());
    CHECK(bound.error().message == "parameter ?1 holds a NUL byte, which postgresql text cannot store");
    const auto out_of_range = statement.bind_int(2, 1);
    REQUIRE_FALSE(out_of_range.ok());
    CHECK(out_of_range.error().message == "parameter ?2 out of range: the statement has 1");
  }

  TEST_CASE("?N translation on the server: ?10, and ?N inside quotes stays text")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection connection = testing::pg_connect(db->url);
    db::Statement& statement =
        cached(connection, "SELECT ?1::int + ?2::int + ?3::int + ?4::int + ?5::int + ?6::int + ?7::int "
                           "+ ?8::int + ?9::int AS nine, ?10::int AS ten, '?1 ?10' AS literal, "
                           "1 AS \"odd?2\" -- ?3\n");
    REQUIRE(statement.bind(1, 1, 1, 1, 1, 1, 1, 1, 1, 10).ok());
    require_row(statement);
    CHECK(statement.get<int>("nine") == 9);
    CHECK(statement.get<int>("ten") == 10);
    CHECK(statement.get<std::string>("literal") == "?1 ?10");
    CHECK(statement.get<int>("odd?2") == 1);
    statement.reset();
  }

  TEST_CASE("a cached statement is prepared once and handed out reset with no bindings")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection connection = testing::pg_connect(db->url);
    constexpr std::string_view k_sql = "SELECT ?1::bigint AS v";
    db::Statement& first = cached(connection, k_sql);
    REQUIRE(first.bind(42).ok());
    require_row(first); // left mid-result on purpose
    db::Statement& second = cached(connection, k_sql);
    CHECK(&first == &second);
    require_row(second);
    CHECK(second.is_null(0)); // bindings were cleared
    second.reset();
    REQUIRE(second.bind(7).ok());
    require_row(second);
    CHECK(second.get<int>("v") == 7);
    second.reset();

    db::Statement& count = cached(connection, "SELECT count(*) FROM pg_prepared_statements");
    require_row(count);
    CHECK(count.get<int>(0) == 2); // k_sql and this one
    count.reset();
  }

  TEST_CASE("changes() counts inserted, updated and deleted rows; a select changes none")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection connection = testing::pg_connect(db->url);
    testing::pg_exec(connection, "CREATE TABLE t (id INT PRIMARY KEY, v INT)");
    db::Statement& insert = cached(connection, "INSERT INTO t SELECT g, 0 FROM generate_series(1, ?1) g");
    REQUIRE(insert.bind(5).ok());
    CHECK(insert.exec().value() == 5);
    CHECK(insert.changes() == 5);
    db::Statement& update = cached(connection, "UPDATE t SET v = 1 WHERE id > ?1");
    REQUIRE(update.bind(2).ok());
    CHECK(update.exec().value() == 3);
    db::Statement& remove = cached(connection, "DELETE FROM t WHERE id = ?1 RETURNING id");
    REQUIRE(remove.bind(1).ok());
    require_row(remove);
    CHECK(remove.get<int>("id") == 1);
    CHECK_FALSE(remove.step().value());
    CHECK(remove.changes() == 1);
    db::Statement& select = cached(connection, "SELECT id FROM t");
    CHECK(select.exec().value() == 0);
  }

  TEST_CASE("doubles, including infinities, and NULL through std::optional")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection connection = testing::pg_connect(db->url);
    db::Statement& statement = cached(connection, "SELECT ?1::float8 AS a, ?2::float8 AS b, ?3::int AS c");
    REQUIRE(statement.bind(std::numeric_limits<double>::infinity(), 0.1, std::optional<int>()).ok());
    require_row(statement);
    CHECK(statement.get<double>("a") == std::numeric_limits<double>::infinity());
    CHECK(statement.get<double>("b") == 0.1);
    CHECK(statement.get<std::optional<int>>("c") == std::nullopt);
    statement.reset();
  }

  TEST_CASE("text order is linguistic by default and bytewise with COLLATE \"C\"")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection connection = testing::pg_connect(db->url);
    db::Statement& statement = cached(connection, "SELECT string_agg(x, ',' ORDER BY x) AS linguistic, "
                                                  "string_agg(x, ',' ORDER BY x COLLATE \"C\") AS bytewise "
                                                  "FROM (VALUES ('a'), ('B'), ('_'), ('é')) AS v(x)");
    require_row(statement);
    CHECK(statement.get<std::string>("bytewise") == "B,_,a,é");
    CHECK(statement.get<std::string>("linguistic") != "B,_,a,é");
    statement.reset();
  }
}

} // namespace mailroom::pg
