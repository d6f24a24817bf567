#include "beads/bead_store.hpp"

#include <chrono>
#include <fstream>
#include <iterator>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "beads/schema.hpp"
#include "beads/test_support.hpp"

namespace {

using mailroom::ErrorCode;
using mailroom::mail::Access;
using mailroom::providers::beads::open_bead_store;
using namespace mailroom::providers::beads::testing; // NOLINT: test helpers only

unsigned mode_of(const std::filesystem::path& path)
{
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  return info.st_mode & 0777U;
}

} // namespace

TEST_SUITE("mailroom::providers::beads::open")
{
  TEST_CASE("creates a private directory and private files, and reopens")
  {
    TempDir dir;
    FixedClock clock;
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
      auto& db = database_of(*store);
      CHECK(scalar(db, "PRAGMA user_version") == std::to_string(mailroom::providers::beads::k_schema_version));
      // Identity is an assertion: the OS user behind the sender is recorded beside it.
      CHECK(scalar(db, "SELECT sender_uid FROM beads") == std::to_string(::getuid()));
      CHECK_FALSE(scalar(db, "SELECT sender_host FROM beads").empty());
    }
    {
      auto again = open_store(path.string(), clock, {}, Access::write);
      CHECK(again->count("bob")->total == 1);
    }
    // With no other connection open: a read-only open reads, and opens for writing when a write
    // comes.
    auto read_only = open_store(path.string(), clock, {}, Access::read);
    CHECK(read_only->count("bob")->unread == 1);
    REQUIRE(read_only->add_agents({"alice"}).ok());
    REQUIRE(read_only->send(message("alice", "bob", "later")).ok());
    CHECK(read_only->count("bob")->unread == 2);
  }

  TEST_CASE("a corrupt file is a store error naming the path")
  {
    TempDir dir;
    FixedClock clock;
    const auto path = dir.path / "mail.db";
    std::ofstream(path) << std::string(8192, '\x42');
    for (const Access access : {Access::write, Access::read}) {
      auto store = open_bead_store(settings_for(path.string(), access), {}, clock);
      REQUIRE_FALSE(store.ok());
      CHECK(store.error().code == ErrorCode::store_error);
      CHECK(store.error().message.find("file is not a database") != std::string::npos);
      CHECK(store.error().message.find(path.string()) != std::string::npos);
    }
  }

  TEST_CASE("a directory that cannot be written is a store error")
  {
    FixedClock clock;
    TempDir dir;
    std::string path;
    if (::geteuid() == 0) {
      // root ignores permission bits; /proc is read-only for everyone.
      path = "/proc/self/mailroom-test/mail.db";
    } else {
      const auto locked = dir.path / "locked";
      REQUIRE(::mkdir(locked.c_str(), 0500) == 0);
      path = (locked / "store" / "mail.db").string();
    }
    auto store = open_bead_store(settings_for(path), {}, clock);
    REQUIRE_FALSE(store.ok());
    CHECK(store.error().code == ErrorCode::store_error);
    CHECK(store.error().message.find("cannot create store directory") != std::string::npos);

    if (::geteuid() != 0) {
      auto flat = open_bead_store(settings_for((dir.path / "locked" / "mail.db").string()), {}, clock);
      REQUIRE_FALSE(flat.ok());
      CHECK(flat.error().code == ErrorCode::store_error);
    }
  }

  TEST_CASE("only create makes a store: a missing one is no_store and nothing is created")
  {
    TempDir dir;
    FixedClock clock;
    for (const auto& path : {dir.path / "mail.db", dir.path / "sub" / "mail.db"}) {
      for (const Access access : {Access::write, Access::read}) {
        INFO(path.string(), " access ", static_cast<int>(access));
        auto store = open_bead_store(settings_for(path.string(), access), {}, clock);
        REQUIRE_FALSE(store.ok());
        CHECK(store.error().code == ErrorCode::store_error);
        CHECK(store.error().reason == "no_store");
        CHECK(store.error().message.find("(run 'mailroom init')") != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(path));
        CHECK_FALSE(std::filesystem::exists(dir.path / "sub"));
      }
    }
  }

  TEST_CASE("a schema newer than this build is refused")
  {
    TempDir dir;
    FixedClock clock;
    const auto path = (dir.path / "mail.db").string();
    {
      auto store = open_store(path, clock);
      REQUIRE(database_of(*store).execute_script("PRAGMA user_version = 99").ok());
    }
    for (const Access access : {Access::write, Access::read}) {
      auto store = open_bead_store(settings_for(path, access), {}, clock);
      REQUIRE_FALSE(store.ok());
      CHECK(store.error().code == ErrorCode::store_error);
      CHECK(store.error().message.find("schema version 99") != std::string::npos);
    }
  }

  TEST_CASE("reads and fresh presence take no write lock")
  {
    TempDir dir;
    FixedClock clock;
    const auto path = (dir.path / "mail.db").string();
    auto store = open_store(path, clock);
    REQUIRE(store->add_agents({"bob"}).ok());
    REQUIRE(store->touch("bob", 0).ok());
    auto blocker = mailroom::sqlite::Database::open(path);
    REQUIRE(blocker.ok());
    auto lock = mailroom::db::Transaction::begin(*blocker, mailroom::db::TransactionKind::write);
    REQUIRE(lock.ok());
    auto impatient = settings_for(path, Access::read);
    impatient.busy_timeout = std::chrono::milliseconds(50);
    auto other = open_bead_store(impatient, {}, clock);
    REQUIRE(other.ok());
    CHECK((*other)->touch("bob", 60'000).ok()); // last_seen is fresh: nothing to write
    CHECK((*other)->mailbox_info("bob").ok());
    CHECK((*other)->check("bob", 3, std::nullopt).ok());
    CHECK((*other)->count("bob").ok());
    auto blocked = (*other)->add_agents({"carol"});
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
    const auto error_file = [&dir](int child) { return dir.path / ("child-" + std::to_string(child) + ".err"); };
    mailroom::mail::MailPolicy any;
    any.recipients = mailroom::mail::RecipientPolicy::any;
    // No connection exists in this process before fork: each child opens (and may create) its own.
    std::vector<pid_t> children;
    for (int child = 0; child < k_children; ++child) {
      const pid_t pid = ::fork();
      REQUIRE(pid >= 0);
      if (pid == 0) {
        int status = 0;
        {
          std::string failure;
          mailroom::mail::SystemClock clock;
          auto store = open_bead_store(settings_for(path), any, clock);
          if (!store.ok()) {
            status = 2;
            failure = "open: " + store.error().message;
          }
          for (int i = 0; store.ok() && i < k_messages && status == 0; ++i) {
            auto request = message("sender-" + std::to_string(child), "boss", "m");
            const auto started = std::chrono::steady_clock::now();
            auto sent = (*store)->send(request);
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
      REQUIRE(::waitpid(children[static_cast<std::size_t>(child)], &status, 0) ==
              children[static_cast<std::size_t>(child)]);
      std::ifstream error_in(error_file(child));
      const std::string failure((std::istreambuf_iterator<char>(error_in)), std::istreambuf_iterator<char>());
      INFO("child ", child, " error: ", failure);
      CHECK(WIFEXITED(status));
      CHECK(WEXITSTATUS(status) == 0);
    }
    mailroom::mail::SystemClock clock;
    auto store = open_store(path, clock, {}, Access::write);
    CHECK(store->count("boss")->unread == k_children * k_messages);
    CHECK(scalar(database_of(*store), "PRAGMA integrity_check") == "ok");
  }
}
