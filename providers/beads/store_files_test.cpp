#include "beads/bead_store.hpp"

#include <chrono>
#include <fstream>
#include <iterator>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "beads/test_support.hpp"

namespace {

using mailroom::ErrorCode;
using mailroom::mail::StoreSettings;
using mailroom::providers::beads::BeadStore;
using namespace mailroom::providers::beads::testing; // NOLINT: test helpers only

unsigned mode_of(const std::filesystem::path& path)
{
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  return info.st_mode & 0777U;
}

std::string scalar(mailroom::sqlite::Database& db, std::string_view sql)
{
  auto statement = db.prepare(sql);
  REQUIRE(statement.ok());
  auto row = statement->step();
  REQUIRE(row.ok());
  REQUIRE(*row);
  std::string value = statement->get<std::string>(0);
  statement->reset();
  return value;
}

} // namespace

TEST_SUITE("mailroom::providers::beads::open")
{
  TEST_CASE("creates a private directory and private files, and reopens")
  {
    TempDir dir;
    ManualClock clock;
    const auto store_dir = dir.path / "a" / "b";
    const auto path = store_dir / "mail.db";
    {
      auto store = open_store(path.string(), clock);
      REQUIRE(store->add_agents({"bob"}).ok());
      REQUIRE(store->send(message("alice", "bob", "persisted")).ok());
      CHECK(mode_of(dir.path / "a") == 0700U);
      CHECK(mode_of(store_dir) == 0700U);
      for (const char* suffix : {"", "-wal", "-shm"}) {
        CHECK(mode_of(path.string() + suffix) == 0600U);
      }
      CHECK(scalar(store->database(), "PRAGMA user_version") == "1");
      // Identity is an assertion: the OS user behind the sender is recorded beside it.
      CHECK(scalar(store->database(), "SELECT sender_uid FROM beads") == std::to_string(::getuid()));
      CHECK_FALSE(scalar(store->database(), "SELECT sender_host FROM beads").empty());
    }
    auto again = open_store(path.string(), clock);
    CHECK(again->count("bob")->total == 1);
  }

  TEST_CASE("a corrupt file is a store error naming the path")
  {
    TempDir dir;
    ManualClock clock;
    const auto path = dir.path / "mail.db";
    std::ofstream(path) << std::string(8192, '\x42');
    StoreSettings settings;
    settings.path = path.string();
    auto store = BeadStore::open(settings, clock);
    REQUIRE_FALSE(store.ok());
    CHECK(store.error().code == ErrorCode::store_error);
    CHECK(store.error().message.find("file is not a database") != std::string::npos);
    CHECK(store.error().message.find(path.string()) != std::string::npos);
  }

  TEST_CASE("a directory that cannot be written is a store error")
  {
    ManualClock clock;
    StoreSettings settings;
    TempDir dir;
    if (::geteuid() == 0) {
      // root ignores permission bits; /proc is read-only for everyone.
      settings.path = "/proc/self/mailroom-test/mail.db";
    } else {
      const auto locked = dir.path / "locked";
      REQUIRE(::mkdir(locked.c_str(), 0500) == 0);
      settings.path = (locked / "store" / "mail.db").string();
    }
    auto store = BeadStore::open(settings, clock);
    REQUIRE_FALSE(store.ok());
    CHECK(store.error().code == ErrorCode::store_error);
    CHECK(store.error().message.find("cannot create store directory") != std::string::npos);

    if (::geteuid() != 0) {
      settings.path = (dir.path / "locked" / "mail.db").string();
      auto flat = BeadStore::open(settings, clock);
      REQUIRE_FALSE(flat.ok());
      CHECK(flat.error().code == ErrorCode::store_error);
    }
  }

  TEST_CASE("without create, a missing store is an error and nothing is created")
  {
    TempDir dir;
    ManualClock clock;
    StoreSettings settings;
    settings.path = (dir.path / "mail.db").string();
    settings.create = false;
    auto store = BeadStore::open(settings, clock);
    REQUIRE_FALSE(store.ok());
    CHECK(store.error().code == ErrorCode::store_error);
    CHECK_FALSE(std::filesystem::exists(settings.path));
  }

  TEST_CASE("a schema newer than this build is refused")
  {
    TempDir dir;
    ManualClock clock;
    const auto path = (dir.path / "mail.db").string();
    {
      auto store = open_store(path, clock);
      REQUIRE(store->database().execute_script("PRAGMA user_version = 99").ok());
    }
    StoreSettings settings;
    settings.path = path;
    auto store = BeadStore::open(settings, clock);
    REQUIRE_FALSE(store.ok());
    CHECK(store.error().code == ErrorCode::store_error);
    CHECK(store.error().message.find("schema version 99") != std::string::npos);
  }

  TEST_CASE("ensure_registered does not take the write lock for a known mailbox")
  {
    TempDir dir;
    ManualClock clock;
    const auto path = (dir.path / "mail.db").string();
    auto store = open_store(path, clock);
    REQUIRE(store->ensure_registered("bob").ok());
    auto blocker = mailroom::sqlite::Database::open(path);
    REQUIRE(blocker.ok());
    auto lock = mailroom::db::Transaction::begin(*blocker, mailroom::db::TransactionKind::write);
    REQUIRE(lock.ok());
    StoreSettings impatient;
    impatient.path = path;
    impatient.busy_timeout = std::chrono::milliseconds(50);
    auto other = BeadStore::open(impatient, clock);
    REQUIRE(other.ok());
    CHECK((*other)->ensure_registered("bob").ok());
    CHECK((*other)->check("bob", 3).ok());
    auto blocked = (*other)->ensure_registered("carol");
    REQUIRE_FALSE(blocked.ok());
    CHECK(blocked.error().code == ErrorCode::timeout);
    CHECK(blocked.error().message == "database is locked (waited 50 ms)");
  }

  TEST_CASE("8 processes sending 200 messages each lose nothing")
  {
    TempDir dir;
    const auto path = (dir.path / "mail.db").string();
    constexpr int k_children = 8;
    constexpr int k_messages = 200;
    // A failing child writes its error here, so that the parent can report it.
    const auto error_file = [&dir](int child) {
      return dir.path / ("child-" + std::to_string(child) + ".err");
    };
    // No connection exists in this process before fork: each child opens its own store.
    std::vector<pid_t> children;
    for (int child = 0; child < k_children; ++child) {
      const pid_t pid = ::fork();
      REQUIRE(pid >= 0);
      if (pid == 0) {
        int status = 0;
        {
          std::string failure;
          mailroom::mail::SystemClock clock;
          StoreSettings settings;
          settings.path = path;
          auto store = BeadStore::open(settings, clock);
          if (!store.ok()) {
            status = 2;
            failure = "open: " + store.error().message;
          }
          for (int i = 0; store.ok() && i < k_messages && status == 0; ++i) {
            auto request = message("sender-" + std::to_string(child), "boss", "m");
            request.require_registered = false;
            const auto started = std::chrono::steady_clock::now();
            auto sent = (*store)->send(request);
            if (!sent.ok()) {
              const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::steady_clock::now() - started);
              status = 3;
              failure = fmt::format("send {} failed after {} ms: {}", i, took.count(),
                                    sent.error().message);
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
      REQUIRE(::waitpid(children[static_cast<std::size_t>(child)], &status, 0) ==
              children[static_cast<std::size_t>(child)]);
      std::ifstream error_in(error_file(child));
      const std::string failure((std::istreambuf_iterator<char>(error_in)),
                                std::istreambuf_iterator<char>());
      INFO("child ", child, " error: ", failure);
      CHECK(WIFEXITED(status));
      CHECK(WEXITSTATUS(status) == 0);
    }
    mailroom::mail::SystemClock clock;
    auto store = open_store(path, clock);
    CHECK(store->count("boss")->unread == k_children * k_messages);
    CHECK(scalar(store->database(), "PRAGMA integrity_check") == "ok");
  }
}
