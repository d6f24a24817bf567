#include "sqlite/database.hpp"
#include "sqlite/failure.hpp"
#include "sqlite/test_support.hpp"
#include "testing/temp_dir.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using mailroom::ErrorCode;

using mailroom::db::Transaction;
using mailroom::sqlite::Database;
using mailroom::sqlite::OpenOptions;

using mailroom::sqlite::test::open_memory;
using mailroom::sqlite::test::scalar_text;

} // namespace

TEST_SUITE("mailroom::sqlite::Database")
{
  TEST_CASE("a file database is WAL with private permissions")
  {
    const auto dir = mailroom::testing::make_temp_dir("sqlite");
    const std::string path = (dir / "mail.db").string();
    auto db = Database::open(path);
    REQUIRE(db.ok());
    CHECK(scalar_text(*db, "PRAGMA journal_mode") == "wal");
    CHECK(scalar_text(*db, "PRAGMA foreign_keys") == "1");
    CHECK(scalar_text(*db, "PRAGMA synchronous") == "2");
    CHECK(scalar_text(*db, "PRAGMA journal_size_limit") == "4194304");
    REQUIRE(db->execute_script("CREATE TABLE t (x)").ok());
    for (const char* suffix : {"", "-wal", "-shm"}) {
      struct stat info {};
      REQUIRE(::stat((path + suffix).c_str(), &info) == 0);
      CHECK((info.st_mode & 0777U) == 0600U);
    }
  }

  TEST_CASE("synchronous NORMAL when asked")
  {
    OpenOptions options;
    options.synchronous_full = false;
    auto db = Database::open(":memory:", options);
    REQUIRE(db.ok());
    CHECK(scalar_text(*db, "PRAGMA synchronous") == "1");
  }

  TEST_CASE("a file that is not a database is a store error naming the path")
  {
    const auto dir = mailroom::testing::make_temp_dir("sqlite");
    const std::string path = (dir / "junk.db").string();
    std::ofstream(path) << std::string(4096, 'j');
    auto db = Database::open(path);
    REQUIRE_FALSE(db.ok());
    CHECK(db.error().code == ErrorCode::store_error);
    CHECK(db.error().message == "\"" + path + "\" is not a mailroom store (not a SQLite database)");
    CHECK(db.error().reason == "not_a_database");
  }

  TEST_CASE("a missing file without create, and a symlink, are refused")
  {
    const auto dir = mailroom::testing::make_temp_dir("sqlite");
    const std::string path = (dir / "none.db").string();
    OpenOptions no_create;
    no_create.create = false;
    auto missing = Database::open(path, no_create);
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == ErrorCode::store_error);
    CHECK(missing.error().message.find(path) != std::string::npos);

    REQUIRE(Database::open(path).ok());
    const std::string link = (dir / "link.db").string();
    std::filesystem::create_symlink(path, link);
    auto through_link = Database::open(link);
    REQUIRE_FALSE(through_link.ok());
    CHECK(through_link.error().code == ErrorCode::store_error);
  }

  TEST_CASE(
      "the WAL and its index persist after the last connection closes, and a write leaves the WAL empty")
  {
    const auto dir = mailroom::testing::make_temp_dir("sqlite");
    const std::string path = (dir / "mail.db").string();
    {
      auto db = Database::open(path);
      REQUIRE(db.ok());
      auto txn = Transaction::begin(*db, mailroom::db::TransactionKind::write);
      REQUIRE(txn.ok());
      REQUIRE(db->execute_script("CREATE TABLE t (x); INSERT INTO t VALUES (1)").ok());
      REQUIRE(txn->commit().ok());
      CHECK(std::filesystem::file_size(path + "-wal") == 0); // checkpointed and truncated at commit
    }
    CHECK(std::filesystem::exists(path + "-wal"));
    CHECK(std::filesystem::exists(path + "-shm"));
    CHECK(std::filesystem::file_size(path + "-wal") == 0);
  }

  TEST_CASE("a read-only connection writes nothing and creates nothing")
  {
    const auto dir = mailroom::testing::make_temp_dir("sqlite");
    const std::string path = (dir / "mail.db").string();
    {
      auto db = Database::open(path);
      REQUIRE(db.ok());
      REQUIRE(db->execute_script("CREATE TABLE t (x); INSERT INTO t VALUES (42)").ok());
      REQUIRE(db->checkpoint().ok());
    }
    const auto snapshot = [&] {
      std::string text;
      for (const char* suffix : {"", "-wal", "-shm"}) {
        struct stat info {};
        REQUIRE(::stat((path + suffix).c_str(), &info) == 0);
        text += std::to_string(info.st_ino) + " " + std::to_string(info.st_size) + " " +
                std::to_string(info.st_mtim.tv_sec) + "." + std::to_string(info.st_mtim.tv_nsec) + "\n";
      }
      return text;
    };
    const std::string before = snapshot();
    OpenOptions read_only;
    read_only.read_only = true;
    for (int i = 0; i < 3; ++i) {
      auto db = Database::open(path, read_only);
      REQUIRE(db.ok());
      CHECK(scalar_text(*db, "SELECT x FROM t") == "42");
      CHECK_FALSE(db->execute_script("INSERT INTO t VALUES (1)").ok());
    }
    CHECK(snapshot() == before);
  }

  TEST_CASE("a reader sees a writer's committed rows while another writer holds the lock, without waiting")
  {
    const auto dir = mailroom::testing::make_temp_dir("sqlite");
    const std::string path = (dir / "mail.db").string();
    auto writer = Database::open(path);
    REQUIRE(writer.ok());
    REQUIRE(writer->execute_script("CREATE TABLE t (x); INSERT INTO t VALUES (1)").ok());
    auto held = Transaction::begin(*writer, mailroom::db::TransactionKind::write);
    REQUIRE(held.ok());
    REQUIRE(writer->execute_script("INSERT INTO t VALUES (2)").ok());
    OpenOptions read_only;
    read_only.read_only = true;
    read_only.busy_timeout = std::chrono::milliseconds(0); // any wait would fail the read
    auto reader = Database::open(path, read_only);
    REQUIRE(reader.ok());
    CHECK(scalar_text(*reader, "SELECT count(*) FROM t") == "1");
    REQUIRE(held->commit().ok());
    CHECK(scalar_text(*reader, "SELECT count(*) FROM t") == "2");
  }

  TEST_CASE("a commit never waits for a reader: the checkpoint leaves the WAL to a later writer")
  {
    const auto dir = mailroom::testing::make_temp_dir("sqlite");
    const std::string path = (dir / "mail.db").string();
    OpenOptions impatient;
    impatient.busy_timeout = std::chrono::milliseconds(0);
    auto writer = Database::open(path, impatient);
    REQUIRE(writer.ok());
    REQUIRE(writer->execute_script("CREATE TABLE t (x)").ok());
    REQUIRE(writer->checkpoint().ok());
    OpenOptions read_only;
    read_only.read_only = true;
    auto reader = Database::open(path, read_only);
    REQUIRE(reader.ok());
    {
      auto first = Transaction::begin(*writer, mailroom::db::TransactionKind::write);
      REQUIRE(first.ok());
      REQUIRE(writer->execute_script("INSERT INTO t VALUES (1)").ok());
      REQUIRE(first->commit().ok());
    }
    // A read transaction on that snapshot pins the WAL: the next commit cannot truncate it, and
    // does not wait to.
    auto snapshot = Transaction::begin(*reader, mailroom::db::TransactionKind::read);
    REQUIRE(snapshot.ok());
    CHECK(scalar_text(*reader, "SELECT count(*) FROM t") == "1");
    {
      auto second = Transaction::begin(*writer, mailroom::db::TransactionKind::write);
      REQUIRE(second.ok());
      REQUIRE(writer->execute_script("INSERT INTO t VALUES (2)").ok());
      CHECK(second->commit().ok());
    }
    CHECK(std::filesystem::file_size(path + "-wal") > 0);
    CHECK(scalar_text(*reader, "SELECT count(*) FROM t") == "1");
    REQUIRE(snapshot->commit().ok());
    REQUIRE(writer->checkpoint().ok());
    CHECK(std::filesystem::file_size(path + "-wal") == 0);
    CHECK(scalar_text(*reader, "SELECT count(*) FROM t") == "2");
  }

  TEST_CASE("a file this user may only read: reads work, a write names the owner and the mode")
  {
    if (::geteuid() == 0) {
      return; // root ignores permission bits; integration/store_permission.sh covers it as root
    }
    const auto dir = mailroom::testing::make_temp_dir("sqlite");
    const std::string path = (dir / "mail.db").string();
    {
      auto db = Database::open(path);
      REQUIRE(db.ok());
      REQUIRE(db->execute_script("CREATE TABLE t (x)").ok());
    }
    REQUIRE(::chmod(path.c_str(), 0400) == 0);
    OpenOptions read_only;
    read_only.read_only = true;
    auto reader = Database::open(path, read_only);
    REQUIRE(reader.ok());
    CHECK(scalar_text(*reader, "SELECT count(*) FROM t") == "0");
    auto writer = Database::open(path);
    REQUIRE(writer.ok());
    auto written = writer->execute_script("INSERT INTO t VALUES (1)");
    REQUIRE_FALSE(written.ok());
    CHECK(written.error().reason == "permission");
    CHECK(written.error().message.find("is read-only for you") != std::string::npos);
    CHECK(written.error().message.find("mode 0400") != std::string::npos);
  }

  TEST_CASE("user names come from /etc/passwd")
  {
    CHECK(mailroom::sqlite::user_name(0) == "root");
    CHECK(mailroom::sqlite::user_name(4000000000U) == "uid 4000000000");
  }

  TEST_CASE("defensive mode refuses writes to the schema table")
  {
    Database db = open_memory();
    REQUIRE(db.execute_script("CREATE TABLE t (x)").ok());
    CHECK_FALSE(db.execute_script("PRAGMA writable_schema=ON; "
                                  "UPDATE sqlite_schema SET sql = 'x' WHERE name = 't'")
                    .ok());
  }
}
