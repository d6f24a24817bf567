#include "sqlite/database.hpp"
#include "sqlite/failure.hpp"
#include "sqlite/test_support.hpp"
#include "testing/temp_dir.hpp"

#include <optional>
#include <string>

#include <doctest/doctest.h>

namespace {

using mailroom::ErrorCode;

using mailroom::db::Statement;
using mailroom::db::Transaction;
using mailroom::sqlite::Blob;
using mailroom::sqlite::Database;
using mailroom::sqlite::OpenOptions;

using mailroom::sqlite::test::open_memory;
using mailroom::sqlite::test::scalar_text;

} // namespace

TEST_SUITE("mailroom::db::Statement")
{
  TEST_CASE("binds and reads back every supported type")
  {
    Database db = open_memory();
    REQUIRE(db.execute_script("CREATE TABLE t (s TEXT, i INTEGER, d REAL, b BLOB, n TEXT)").ok());
    auto insert = db.cached("INSERT INTO t VALUES (?1, ?2, ?3, ?4, ?5)");
    REQUIRE(insert.ok());
    const std::string text = "hello";
    const std::string bytes("\xff\xfe\x00z", 4);
    const std::optional<std::string> none;
    REQUIRE((*insert)->bind(text, std::int64_t{1} << 40, 2.5, Blob{bytes}, none).ok());
    auto changed = (*insert)->exec();
    REQUIRE(changed.ok());
    CHECK(*changed == 1);

    auto select = db.cached("SELECT s, i, d, b, n, i > 0 FROM t");
    REQUIRE(select.ok());
    Statement& st = **select;
    auto row = st.step();
    REQUIRE(row.ok());
    REQUIRE(*row);
    CHECK(st.get<std::string>(0) == "hello");
    CHECK(st.get<std::int64_t>(1) == (std::int64_t{1} << 40));
    CHECK(st.get<double>(2) == doctest::Approx(2.5));
    CHECK(st.get<std::string>(3) == bytes);
    CHECK_FALSE(st.get<std::optional<std::string>>(4).has_value());
    CHECK(st.get<std::optional<std::int64_t>>(1) == (std::int64_t{1} << 40));
    CHECK(st.get<bool>(5));
    auto end = st.step();
    REQUIRE(end.ok());
    CHECK_FALSE(*end);
  }

  TEST_CASE("the cache returns the same statement, reset and unbound")
  {
    Database db = open_memory();
    constexpr std::string_view k_sql = "SELECT ?1";
    auto first = db.cached(k_sql);
    REQUIRE(first.ok());
    REQUIRE((*first)->bind(7).ok());
    REQUIRE((*first)->step().ok());
    auto second = db.cached(k_sql);
    REQUIRE(second.ok());
    CHECK(*first == *second);
    auto row = (*second)->step();
    REQUIRE(row.ok());
    REQUIRE(*row);
    CHECK((*second)->is_null(0));
    (*second)->reset();
  }

  TEST_CASE("bad SQL and constraint violations are store errors")
  {
    Database db = open_memory();
    auto bad = db.prepare("SELEC 1");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().code == ErrorCode::store_error);
    CHECK(bad.error().message.find("syntax error") != std::string::npos);

    REQUIRE(db.execute_script("CREATE TABLE u (k TEXT UNIQUE)").ok());
    auto insert = db.cached("INSERT INTO u VALUES (?1)");
    REQUIRE(insert.ok());
    REQUIRE((*insert)->bind("a").ok());
    REQUIRE((*insert)->exec().ok());
    REQUIRE((*insert)->bind("a").ok());
    auto again = (*insert)->exec();
    REQUIRE_FALSE(again.ok());
    CHECK(again.error().code == ErrorCode::store_error);
    CHECK(again.error().message.find("UNIQUE constraint failed") != std::string::npos);
  }

  TEST_CASE("values past SQLITE_LIMIT_LENGTH are refused")
  {
    OpenOptions options;
    options.max_length = 1000;
    auto db = Database::open(":memory:", options);
    REQUIRE(db.ok());
    REQUIRE(db->execute_script("CREATE TABLE t (b BLOB)").ok());
    auto insert = db->cached("INSERT INTO t VALUES (?1)");
    REQUIRE(insert.ok());
    const std::string big(2000, 'x');
    auto bound = (*insert)->bind(Blob{big});
    REQUIRE_FALSE(bound.ok());
    CHECK(bound.error().code == ErrorCode::store_error);
  }

  TEST_CASE("a connection's page cache is SQLite's default unless bounded")
  {
    auto plain = Database::open(":memory:");
    REQUIRE(plain.ok());
    CHECK(scalar_text(*plain, "PRAGMA cache_size") == "-2000");
    OpenOptions options;
    options.cache_kib = 512;
    auto bounded = Database::open(":memory:", options);
    REQUIRE(bounded.ok());
    CHECK(scalar_text(*bounded, "PRAGMA cache_size") == "-512");
  }
}

TEST_SUITE("mailroom::sqlite::Transaction")
{
  TEST_CASE("rolls back unless committed")
  {
    Database db = open_memory();
    REQUIRE(db.execute_script("CREATE TABLE t (x INTEGER)").ok());
    {
      auto txn = Transaction::begin(db, mailroom::db::TransactionKind::write);
      REQUIRE(txn.ok());
      REQUIRE(db.execute_script("INSERT INTO t VALUES (1)").ok());
    }
    CHECK(scalar_text(db, "SELECT count(*) FROM t") == "0");
    {
      auto txn = Transaction::begin(db, mailroom::db::TransactionKind::write);
      REQUIRE(txn.ok());
      REQUIRE(db.execute_script("INSERT INTO t VALUES (1)").ok());
      REQUIRE(txn->commit().ok());
    }
    CHECK(scalar_text(db, "SELECT count(*) FROM t") == "1");
  }

  TEST_CASE("a lock held past the busy timeout is a timeout error")
  {
    const auto dir = mailroom::testing::make_temp_dir("sqlite");
    const std::string path = (dir / "lock.db").string();
    auto holder = Database::open(path);
    REQUIRE(holder.ok());
    OpenOptions impatient;
    impatient.busy_timeout = std::chrono::milliseconds(50);
    auto waiter = Database::open(path, impatient);
    REQUIRE(waiter.ok());
    auto held = Transaction::begin(*holder, mailroom::db::TransactionKind::write);
    REQUIRE(held.ok());
    auto blocked = Transaction::begin(*waiter, mailroom::db::TransactionKind::write);
    REQUIRE_FALSE(blocked.ok());
    CHECK(blocked.error().code == ErrorCode::timeout);
    CHECK(blocked.error().message == "database is locked (waited 50 ms)");
    REQUIRE(held->commit().ok());
    auto now_free = Transaction::begin(*waiter, mailroom::db::TransactionKind::write);
    CHECK(now_free.ok());
  }
}
