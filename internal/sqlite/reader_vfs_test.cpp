// The reader VFS (reader_vfs.hpp): a read-only connection reads past the -wal a writer killed
// between its WAL header and its first frame leaves, at once and without touching a file.

#include "sqlite/database.hpp"
#include "sqlite/test_support.hpp"
#include "testing/temp_dir.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <doctest/doctest.h>
#include <sys/stat.h>

namespace {

using mailroom::db::Transaction;
using mailroom::db::TransactionKind;
using mailroom::sqlite::Database;
using mailroom::sqlite::OpenOptions;
using mailroom::sqlite::test::scalar_text;

void put_u32(std::string& bytes, std::size_t at, std::uint32_t value)
{
  for (int i = 0; i < 4; ++i) {
    bytes[at + static_cast<std::size_t>(i)] = static_cast<char>((value >> (24 - 8 * i)) & 0xFFU);
  }
}

std::uint32_t get_u32(const std::string& bytes, std::size_t at)
{
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    value = (value << 8U) | static_cast<unsigned char>(bytes[at + i]);
  }
  return value;
}

// A valid WAL header (big-endian checksums) with salts no index has seen, and no frame: what a
// writer killed after writing it leaves.
std::string header_only_wal(std::uint32_t page_size)
{
  std::string header(32, '\0');
  put_u32(header, 0, 0x377f0683U);
  put_u32(header, 4, 3007000U);
  put_u32(header, 8, page_size);
  put_u32(header, 12, 0);
  put_u32(header, 16, 0x5a17c0deU);
  put_u32(header, 20, 0x0badf00dU);
  std::uint32_t s1 = 0;
  std::uint32_t s2 = 0;
  for (std::size_t i = 0; i < 24; i += 8) {
    s1 += get_u32(header, i) + s2;
    s2 += get_u32(header, i + 4) + s1;
  }
  put_u32(header, 24, s1);
  put_u32(header, 28, s2);
  return header;
}

std::string contents(const std::string& path)
{
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Every byte, the inode, size and modification time of the database, its -wal and its -shm (not
// the change time: SQLite run as root fchowns a -wal and -shm it opens to the database's owner).
std::string snapshot(const std::string& path)
{
  std::string text;
  for (const char* suffix : {"", "-wal", "-shm"}) {
    struct stat info {};
    REQUIRE(::stat((path + suffix).c_str(), &info) == 0);
    text += std::to_string(info.st_ino) + " " + std::to_string(info.st_size) + " " +
            std::to_string(info.st_mtim.tv_sec) + "." + std::to_string(info.st_mtim.tv_nsec) + "\n" +
            contents(path + suffix) + "\n";
  }
  return text;
}

// A store whose table t holds 42, closed with an empty WAL and an initialised index.
std::string make_store(const std::filesystem::path& dir)
{
  const std::string path = (dir / "mail.db").string();
  auto db = Database::open(path);
  REQUIRE(db.ok());
  REQUIRE(db->execute_script("CREATE TABLE t (x); INSERT INTO t VALUES (42)").ok());
  REQUIRE(db->checkpoint().ok());
  return path;
}

OpenOptions read_only()
{
  OpenOptions options;
  options.read_only = true;
  return options;
}

} // namespace

TEST_SUITE("mailroom::sqlite::Database")
{
  TEST_CASE("a reader reads past a WAL header with no frame, and leaves every file as it was")
  {
    const auto dir = mailroom::testing::make_temp_dir("sqlite");
    const std::string path = make_store(dir);
    const std::string page_size = [&] {
      auto db = Database::open(path, read_only());
      REQUIRE(db.ok());
      return scalar_text(*db, "PRAGMA page_size");
    }();
    for (const std::size_t shm_bytes : {std::size_t(0), std::size_t(3)}) {
      CAPTURE(shm_bytes); // 0: the index as the last writer left it; 3: one never initialised
      std::ofstream(path + "-wal", std::ios::binary | std::ios::trunc)
          << header_only_wal(static_cast<std::uint32_t>(std::stoul(page_size)));
      if (shm_bytes != 0) {
        std::filesystem::resize_file(path + "-shm", shm_bytes);
      }
      const std::string before = snapshot(path);
      for (int i = 0; i < 2; ++i) {
        auto db = Database::open(path, read_only());
        REQUIRE(db.ok());
        CHECK(scalar_text(*db, "SELECT x FROM t") == "42"); // SQLite alone: 10 s, then SQLITE_PROTOCOL
      }
      CHECK(snapshot(path) == before);
    }
    // A writer recovers the index and writes on; readers see its row.
    {
      auto writer = Database::open(path);
      REQUIRE(writer.ok());
      auto txn = Transaction::begin(*writer, TransactionKind::write);
      REQUIRE(txn.ok());
      REQUIRE(writer->execute_script("INSERT INTO t VALUES (43)").ok());
      REQUIRE(txn->commit().ok());
    }
    CHECK(std::filesystem::file_size(path + "-wal") == 0); // committed, checkpointed, truncated
    auto db = Database::open(path, read_only());
    REQUIRE(db.ok());
    CHECK(scalar_text(*db, "SELECT group_concat(x) FROM t") == "42,43");
  }

  TEST_CASE("a reader alone reads committed frames from the WAL through the reader VFS")
  {
    const auto dir = mailroom::testing::make_temp_dir("sqlite");
    const std::string path = make_store(dir);
    {
      auto writer = Database::open(path);
      REQUIRE(writer.ok());
      auto pin = Database::open(path, read_only());
      REQUIRE(pin.ok());
      auto snapshot = Transaction::begin(*pin, TransactionKind::read);
      REQUIRE(snapshot.ok());
      CHECK(scalar_text(*pin, "SELECT count(*) FROM t") == "1");
      // The pinned snapshot keeps the commit's frames in the WAL after its checkpoint.
      REQUIRE(writer->execute_script("INSERT INTO t VALUES (43)").ok());
      REQUIRE(snapshot->commit().ok());
    }
    REQUIRE(std::filesystem::file_size(path + "-wal") > 32);
    auto db = Database::open(path, read_only());
    REQUIRE(db.ok());
    CHECK(scalar_text(*db, "SELECT group_concat(x) FROM t") == "42,43");
  }
}
