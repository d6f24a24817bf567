// The bead store's files: what opening creates, refuses and leaves behind (docs/store.md).

#include <chrono>
#include <fstream>
#include <iterator>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "beads/bead_store.hpp"
#include "beads/schema.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/reach.hpp"
#include "testing/temp_dir.hpp"

namespace {

using mailroom::ErrorCode;
using mailroom::mail::Access;
using mailroom::mail::StoreSettings;
using mailroom::providers::beads::open_bead_store;
using mailroom::providers::beads::SqliteEngine;
using mailroom::providers::sqlstore::SqlStore;

const mailroom::testing::FixedClock k_clock{1750000000000};

StoreSettings settings_for(const std::filesystem::path& path, Access access)
{
  StoreSettings settings;
  settings.path = path.string();
  settings.access = access;
  return settings;
}

std::unique_ptr<SqlStore> open_store(const std::filesystem::path& path, Access access = Access::write)
{
  auto store = open_bead_store(settings_for(path, access), mailroom::mail::MailPolicy{}, k_clock);
  REQUIRE_MESSAGE(store.ok(), (store.ok() ? "" : store.error().message));
  return std::move(store).value();
}

// A new store at `path` with mailboxes alice and bob.
void create_store(const std::filesystem::path& path)
{
  auto store = open_store(path, Access::create);
  REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob"}).ok());
}

mailroom::mail::SendRequest message(const std::string& from, const std::string& to, const std::string& body)
{
  mailroom::mail::SendRequest request;
  request.from = from;
  request.to = {to};
  request.subject = body;
  request.body = body;
  return request;
}

mailroom::Error open_error(const std::filesystem::path& path, Access access)
{
  auto store = open_bead_store(settings_for(path, access), mailroom::mail::MailPolicy{}, k_clock);
  REQUIRE_FALSE(store.ok());
  CHECK(store.error().code == ErrorCode::store_error);
  return store.error();
}

unsigned mode_of(const std::filesystem::path& path)
{
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  return info.st_mode & 0777U;
}

// Inode, size and modification time of the store's three files.
std::string file_states(const std::filesystem::path& path)
{
  std::string text;
  for (const char* suffix : {"", "-wal", "-shm"}) {
    struct stat info {};
    REQUIRE(::stat((path.string() + suffix).c_str(), &info) == 0);
    text += fmt::format("{}{} {} {} {}.{}\n", path.filename().string(), suffix, info.st_ino, info.st_size,
                        info.st_mtim.tv_sec, info.st_mtim.tv_nsec);
  }
  return text;
}

} // namespace

TEST_SUITE("mailroom::providers::beads::open")
{
  TEST_CASE("creates a private directory and private files that persist, with an empty WAL")
  {
    const auto dir = mailroom::testing::make_temp_dir("beads-files");
    const auto store_dir = dir / "a" / "b";
    const auto path = store_dir / "mail.db";
    {
      create_store(path);
      auto store = open_store(path);
      REQUIRE(store->send(message("alice", "bob", "persisted")).ok());
    }
    CHECK(mode_of(dir / "a") == 0700U);
    CHECK(mode_of(store_dir) == 0700U);
    for (const char* suffix : {"", "-wal", "-shm"}) {
      CHECK(mode_of(path.string() + suffix) == 0600U);
    }
    CHECK(std::filesystem::file_size(path.string() + "-wal") == 0);
    CHECK(open_store(path, Access::read)->count("bob")->total == 1);
  }

  TEST_CASE("a command that only reads writes, creates and removes nothing")
  {
    const auto dir = mailroom::testing::make_temp_dir("beads-files");
    const auto path = dir / "mail.db";
    create_store(path);
    REQUIRE(open_store(path)->send(message("alice", "bob", "hello")).ok());
    const std::string before = file_states(path);
    for (int i = 0; i < 3; ++i) {
      auto store = open_store(path, Access::read);
      CHECK(store->count("bob")->unread == 1);
      CHECK(store->check("bob", 5, std::nullopt)->messages.size() == 1);
    }
    CHECK(file_states(path) == before);
  }

  TEST_CASE("a read-only open of a store without -wal and -shm creates them once")
  {
    const auto dir = mailroom::testing::make_temp_dir("beads-files");
    const auto path = dir / "mail.db";
    create_store(path);
    std::filesystem::remove(path.string() + "-wal");
    std::filesystem::remove(path.string() + "-shm");
    CHECK(open_store(path, Access::read)->count("bob")->total == 0);
    const std::string after_first = file_states(path);
    CHECK(open_store(path, Access::read)->count("bob")->total == 0);
    CHECK(file_states(path) == after_first);
  }

  TEST_CASE("a reader that must write (presence) switches to the writer and can write")
  {
    const auto dir = mailroom::testing::make_temp_dir("beads-files");
    const auto path = dir / "mail.db";
    create_store(path);
    auto store = open_store(path, Access::read);
    CHECK(store->count("bob")->total == 0);
    REQUIRE(mailroom::testing::reach(*store).touch("bob", 0, mailroom::mail::SeenVia::command).ok());
    CHECK(mailroom::testing::reach(*store).mailbox_info("bob")->last_seen == k_clock.now());
  }

  TEST_CASE("what is at the store path is checked before anything is opened")
  {
    const auto dir = mailroom::testing::make_temp_dir("beads-files");
    const auto path = dir / "mail.db";

    SUBCASE("nothing: no store, and nothing is created")
    {
      for (Access access : {Access::read, Access::write}) {
        const auto error = open_error(path, access);
        CHECK(error.reason == "no_store");
        CHECK(error.message == fmt::format("no store at {} (run 'mailroom init')", path.string()));
      }
      CHECK_FALSE(std::filesystem::exists(path));
    }
    SUBCASE("a symbolic link")
    {
      create_store(dir / "real.db");
      std::filesystem::create_symlink(dir / "real.db", path);
      for (Access access : {Access::read, Access::write, Access::create}) {
        const auto error = open_error(path, access);
        CHECK(error.reason == "symlink");
        CHECK(error.message ==
              fmt::format("store \"{}\" is a symbolic link (to \"{}\"); mailroom opens only a "
                          "regular file",
                          path.string(), (dir / "real.db").string()));
      }
    }
    SUBCASE("a directory")
    {
      std::filesystem::create_directory(path);
      for (Access access : {Access::read, Access::write, Access::create}) {
        const auto error = open_error(path, access);
        CHECK(error.reason == "not_a_file");
        CHECK(error.message == fmt::format("store \"{}\" is a directory, not a store file", path.string()));
      }
    }
    SUBCASE("a zero-length file, for every command including init; it stays empty")
    {
      std::ofstream{path};
      for (Access access : {Access::read, Access::write, Access::create}) {
        const auto error = open_error(path, access);
        CHECK(error.reason == "empty_store");
        CHECK(error.message ==
              fmt::format("store \"{}\" is an empty file (0 bytes), not a mailroom store; it may "
                          "have been truncated",
                          path.string()));
      }
      CHECK(std::filesystem::file_size(path) == 0);
    }
    SUBCASE("a file that is not a database")
    {
      std::ofstream(path) << std::string(8192, '\x42');
      for (Access access : {Access::read, Access::write, Access::create}) {
        const auto error = open_error(path, access);
        CHECK(error.reason == "not_a_database");
        CHECK(error.message ==
              fmt::format("\"{}\" is not a mailroom store (not a SQLite database)", path.string()));
      }
    }
    SUBCASE("a SQLite database that is not a store")
    {
      {
        auto other = mailroom::sqlite::Database::open(path.string());
        REQUIRE(other.ok());
        REQUIRE(other->execute_script("CREATE TABLE notes (x)").ok());
      }
      for (Access access : {Access::read, Access::write, Access::create}) {
        const auto error = open_error(path, access);
        CHECK(error.reason == "not_a_database");
        CHECK(error.message ==
              fmt::format("\"{}\" is a SQLite database but not a mailroom store", path.string()));
      }
    }
    SUBCASE("an empty SQLite database: only init makes it a store")
    {
      {
        auto empty = mailroom::sqlite::Database::open(path.string());
        REQUIRE(empty.ok());
        REQUIRE(empty->execute_script("PRAGMA user_version = 0").ok());
      }
      REQUIRE(std::filesystem::file_size(path) > 0);
      for (Access access : {Access::read, Access::write}) {
        const auto error = open_error(path, access);
        CHECK(error.reason == "empty_store");
        CHECK(error.message ==
              fmt::format("store \"{}\" is an empty database, not a mailroom store", path.string()));
      }
      create_store(path);
      CHECK(open_store(path, Access::read)->count("bob").ok());
    }
    SUBCASE("a schema newer than this build, for reads and writes")
    {
      create_store(path);
      {
        auto engine = SqliteEngine::open(settings_for(path, Access::write), k_clock);
        REQUIRE(engine.ok());
        REQUIRE((*engine)->database().value()->execute_script("PRAGMA user_version = 99").ok());
      }
      for (Access access : {Access::read, Access::write}) {
        const auto error = open_error(path, access);
        CHECK(error.reason == "newer_schema");
        CHECK(error.message == fmt::format("store \"{}\" has schema version 99, newer than this mailroom "
                                           "understands ({})",
                                           path.string(), mailroom::providers::beads::k_schema_version));
        CHECK(error.hint == "upgrade mailroom");
      }
    }
  }

  TEST_CASE("a store directory that others may write is refused, and nothing is created there")
  {
    const auto dir = mailroom::testing::make_temp_dir("beads-files");
    for (const unsigned mode : {0777U, 0770U, 0720U, 01777U}) {
      const auto open_dir = dir / fmt::format("open-{:o}", mode);
      std::filesystem::create_directory(open_dir);
      REQUIRE(::chmod(open_dir.c_str(), mode) == 0);
      for (Access access : {Access::read, Access::create}) {
        const auto error = open_error(open_dir / "mail.db", access);
        CHECK(error.reason == "insecure_directory");
        CHECK(error.message.find(fmt::format("store directory \"{}\" is writable by", open_dir.string())) ==
              0);
        CHECK(error.message.find(fmt::format("(mode {:04o})", mode)) != std::string::npos);
      }
      CHECK_FALSE(std::filesystem::exists(open_dir / "mail.db"));
    }
  }

  TEST_CASE("a directory that cannot be written is a store error")
  {
    StoreSettings settings;
    settings.access = Access::create;
    const auto dir = mailroom::testing::make_temp_dir("beads-files");
    if (::geteuid() == 0) {
      // root ignores permission bits; /proc is read-only for everyone.
      settings.path = "/proc/self/mailroom-test/mail.db";
    } else {
      const auto locked = dir / "locked";
      REQUIRE(::mkdir(locked.c_str(), 0500) == 0);
      settings.path = (locked / "store" / "mail.db").string();
    }
    auto store = open_bead_store(settings, mailroom::mail::MailPolicy{}, k_clock);
    REQUIRE_FALSE(store.ok());
    CHECK(store.error().code == ErrorCode::store_error);
    CHECK(store.error().message.find("cannot create store directory") != std::string::npos);
  }

  TEST_CASE("8 processes sending 200 messages each lose nothing")
  {
    const auto dir = mailroom::testing::make_temp_dir("beads-files");
    const auto path = dir / "mail.db";
    create_store(path);
    REQUIRE(mailroom::testing::reach(*open_store(path)).add_agents({"boss"}).ok());
    constexpr int k_children = 8;
    constexpr int k_messages = 200;
    // A failing child writes its error here, so that the parent can report it.
    const auto error_file = [&dir](int child) { return dir / ("child-" + std::to_string(child) + ".err"); };
    // No connection is open in this process at fork: each child opens its own store.
    std::vector<pid_t> children;
    for (int child = 0; child < k_children; ++child) {
      const pid_t pid = ::fork();
      REQUIRE(pid >= 0);
      if (pid == 0) {
        int status = 0;
        {
          std::string failure;
          // The claim is that nothing is lost, not how long a writer waits: under ASan eight
          // writers can queue past the default 5 s, so each may wait as long as the test may run.
          auto settings = settings_for(path, Access::write);
          settings.busy_timeout = std::chrono::minutes(5);
          auto store = open_bead_store(settings, mailroom::mail::MailPolicy{}, k_clock);
          if (!store.ok()) {
            status = 2;
            failure = "open: " + store.error().message;
          }
          for (int i = 0; store.ok() && i < k_messages && status == 0; ++i) {
            const auto started = std::chrono::steady_clock::now();
            auto sent = (*store)->send(message(i % 2 == 0 ? "alice" : "bob", "boss", "m"));
            if (!sent.ok()) {
              const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::steady_clock::now() - started);
              status = 3;
              failure = fmt::format("send {} failed after {} ms: {}", i, took.count(), sent.error().message);
            }
          }
          if (status != 0) {
            std::ofstream(error_file(child)) << failure;
          }
        }
        ::_exit(status);
      }
      children.push_back(pid);
    }
    for (int child = 0; child < k_children; ++child) {
      int status = 0;
      const pid_t pid = children[static_cast<std::size_t>(child)];
      REQUIRE(::waitpid(pid, &status, 0) == pid);
      std::ifstream error_in(error_file(child));
      const std::string failure((std::istreambuf_iterator<char>(error_in)), std::istreambuf_iterator<char>());
      INFO("child ", child, " error: ", failure);
      CHECK(WIFEXITED(status));
      CHECK(WEXITSTATUS(status) == 0);
    }
    CHECK(open_store(path, Access::read)->count("boss")->unread == k_children * k_messages);
    auto engine = SqliteEngine::open(settings_for(path, Access::write), k_clock);
    REQUIRE(engine.ok());
    auto check = (*engine)->database().value()->prepare("PRAGMA integrity_check");
    REQUIRE(check.ok());
    REQUIRE(check->step().value());
    CHECK(check->get<std::string>(0) == "ok");
  }
}
