#include "sqlite/wal_owner.hpp"
#include "testing/temp_dir.hpp"

#include <filesystem>
#include <string>

#include <doctest/doctest.h>
#include <sqlite3.h>

namespace {

namespace fs = std::filesystem;
using mailroom::sqlite::check_wal_owner;
using mailroom::sqlite::judge_wal;
using mailroom::sqlite::WalOwner;

// A raw SQLite connection that keeps its WAL: no checkpoints, left open while the test copies files.
class Holder {
public:
  Holder(const std::string& path, int page_size)
  {
    REQUIRE(sqlite3_open(path.c_str(), &m_db) == SQLITE_OK);
    run("PRAGMA page_size=" + std::to_string(page_size));
    run("PRAGMA journal_mode=WAL");
    run("PRAGMA wal_autocheckpoint=0");
    run("CREATE TABLE t(x)");
    run("INSERT INTO t VALUES (randomblob(3000))");
  }
  Holder(const Holder&) = delete;
  Holder& operator=(const Holder&) = delete;
  ~Holder() { sqlite3_close(m_db); }
  void run(const std::string& sql)
  {
    REQUIRE(sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
  }

private:
  sqlite3* m_db = nullptr;
};

void copy_over(const fs::path& from, const fs::path& to)
{
  fs::copy_file(from, to, fs::copy_options::overwrite_existing);
}

} // namespace

TEST_SUITE("mailroom::sqlite::wal_owner")
{
  TEST_CASE("a WAL belongs to its own database and not to another")
  {
    const fs::path dir = mailroom::testing::make_temp_dir("wal-owner");
    const std::string a = (dir / "a.db").string();
    const std::string b = (dir / "b.db").string();
    Holder holder_a(a, 4096);
    Holder holder_b(b, 4096);
    CHECK(check_wal_owner(a).owner == WalOwner::belongs);
    CHECK(check_wal_owner(b).owner == WalOwner::belongs);

    // A's WAL, as a writer killed before its checkpoint left it, and B's beside A.
    copy_over(a + "-wal", dir / "a-own.wal");
    copy_over(b + "-wal", a + "-wal");
    const auto verdict = check_wal_owner(a);
    CHECK(verdict.owner == WalOwner::foreign);
    CHECK(verdict.why.find("salts") != std::string::npos);

    // Without a -shm nothing can be told from the salts.
    copy_over(a + "-shm", dir / "a.shm");
    fs::remove(a + "-shm");
    CHECK(check_wal_owner(a).owner == WalOwner::cannot_decide);
    copy_over(dir / "a.shm", a + "-shm");

    // Back to its own WAL: it belongs again.
    copy_over(dir / "a-own.wal", a + "-wal");
    CHECK(check_wal_owner(a).owner == WalOwner::belongs);
  }

  TEST_CASE("a WAL restarted by a checkpoint still belongs until its header is rewritten")
  {
    const fs::path dir = mailroom::testing::make_temp_dir("wal-owner-restart");
    const std::string a = (dir / "a.db").string();
    Holder holder(a, 4096);
    copy_over(a + "-wal", dir / "before.wal");
    // TRUNCATE restarts the index (salt-1 + 1, a new salt-2) and cuts the WAL to 0 bytes; a crash
    // before the cut leaves the old WAL beside the restarted index.
    holder.run("PRAGMA wal_checkpoint(TRUNCATE)");
    CHECK(fs::file_size(a + "-wal") == 0);
    CHECK(check_wal_owner(a).owner == WalOwner::nothing_to_replay);
    copy_over(dir / "before.wal", a + "-wal");
    CHECK(check_wal_owner(a).owner == WalOwner::belongs);
    // The next write rewrites the header with the index's salts.
    holder.run("INSERT INTO t VALUES (1)");
    CHECK(check_wal_owner(a).owner == WalOwner::belongs);
  }

  TEST_CASE("a first transaction's frames, not yet in the index, are not taken for a foreign WAL")
  {
    const fs::path dir = mailroom::testing::make_temp_dir("wal-owner-first");
    const std::string a = (dir / "a.db").string();
    {
      Holder created(a, 4096); // closing the last connection checkpoints and removes the WAL
    }
    REQUIRE_FALSE(fs::exists(a + "-wal"));
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(a.c_str(), &db) == SQLITE_OK);
    const auto run = [&](const char* sql) {
      REQUIRE(sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK);
    };
    run("PRAGMA cache_size=2");
    run("SELECT count(*) FROM t"); // the index, recovered from no WAL at all
    run("BEGIN");
    // More pages than the cache holds: they spill into the WAL before the commit records them.
    run("INSERT INTO t SELECT randomblob(3000) FROM (WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL "
        "SELECT i + 1 FROM c WHERE i < 200) SELECT i FROM c)");
    CHECK(fs::file_size(a + "-wal") > 32 + 24 + 4096);
    CHECK(check_wal_owner(a).owner == WalOwner::cannot_decide);
    run("COMMIT");
    CHECK(check_wal_owner(a).owner == WalOwner::belongs);
    sqlite3_close(db);
  }

  TEST_CASE("a WAL of another page size is foreign, with or without a -shm")
  {
    const fs::path dir = mailroom::testing::make_temp_dir("wal-owner-page");
    const std::string a = (dir / "a.db").string();
    const std::string b = (dir / "b.db").string();
    Holder holder_a(a, 4096);
    Holder holder_b(b, 8192);
    copy_over(b + "-wal", a + "-wal");
    auto verdict = check_wal_owner(a);
    CHECK(verdict.owner == WalOwner::foreign);
    CHECK(verdict.why.find("page size is 8192 bytes") != std::string::npos);
    fs::remove(a + "-shm");
    CHECK(check_wal_owner(a).owner == WalOwner::foreign);
  }

  TEST_CASE("what SQLite would never replay is left alone")
  {
    const std::string index(96, '\0');
    CHECK(judge_wal("", 0, index, "").owner == WalOwner::nothing_to_replay);
    CHECK(judge_wal(std::string(32, 'x'), 5000, index, "").owner == WalOwner::nothing_to_replay);
    const fs::path dir = mailroom::testing::make_temp_dir("wal-owner-short");
    const std::string a = (dir / "a.db").string();
    const std::string b = (dir / "b.db").string();
    Holder holder_a(a, 4096);
    Holder holder_b(b, 4096);
    // A header with no whole frame after it: nothing to replay, whoever wrote it.
    fs::resize_file(b + "-wal", 32 + 24 + 100);
    copy_over(b + "-wal", a + "-wal");
    CHECK(check_wal_owner(a).owner == WalOwner::nothing_to_replay);
    CHECK(check_wal_owner((dir / "none.db").string()).owner == WalOwner::nothing_to_replay);
  }
}

TEST_SUITE("mailroom::sqlite::wal_owner locks")
{
  // Reading the -shm with a descriptor of our own and closing it would release SQLite's DMS lock
  // of this process: another process would then take the -shm for unused and rebuild it under
  // this process's mapping. The opener skips the check when the store is open here already.
  TEST_CASE("a store open in this process is known, by its database or its -shm")
  {
    const fs::path dir = mailroom::testing::make_temp_dir("wal-owner-open");
    const std::string path = (dir / "a.db").string();
    CHECK_FALSE(mailroom::sqlite::open_in_this_process(path)); // no file yet
    {
      Holder holder(path, 4096);
      CHECK(mailroom::sqlite::open_in_this_process(path));
      CHECK(mailroom::sqlite::open_in_this_process(path + "-shm"));
    }
    CHECK_FALSE(mailroom::sqlite::open_in_this_process(path));
    CHECK_FALSE(mailroom::sqlite::open_in_this_process(path + "-shm"));
  }
}
