// A process with the store open opens it again (a server's next pooled connection, its firer's):
// the opener's checks must not close a descriptor of the store's files, which would release the
// POSIX locks SQLite holds on them for the whole process. With the -shm's DMS lock gone, the next
// process to open the store takes the -shm for unused and rebuilds it under this process's mapping
// (a server died of SIGBUS that way).

#include <string>

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include "beads/bead_store.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/reach.hpp"
#include "testing/temp_dir.hpp"

namespace {

using mailroom::mail::Access;
using mailroom::mail::StoreSettings;
using mailroom::providers::beads::open_bead_store;

const mailroom::testing::FixedClock k_clock{1750000000000};

std::unique_ptr<mailroom::providers::sqlstore::SqlStore> open_store(const std::string& path, Access access)
{
  StoreSettings settings;
  settings.path = path;
  settings.access = access;
  auto store = open_bead_store(settings, mailroom::mail::MailPolicy{}, k_clock);
  REQUIRE_MESSAGE(store.ok(), (store.ok() ? "" : store.error().message));
  return std::move(store).value();
}

// Whether another process sees a lock on the -shm's DMS byte (128), which SQLite holds shared for
// as long as a connection of the process has the -shm mapped.
bool others_see_dms_lock(const std::string& shm)
{
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int fd = ::open(shm.c_str(), O_RDWR | O_CLOEXEC);
    struct flock probe {};
    probe.l_type = F_WRLCK;
    probe.l_whence = SEEK_SET;
    probe.l_start = 128;
    probe.l_len = 1;
    const bool held = fd >= 0 && ::fcntl(fd, F_GETLK, &probe) == 0 && probe.l_type != F_UNLCK;
    ::_exit(held ? 0 : 1);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

} // namespace

TEST_SUITE("mailroom::providers::beads::open locks")
{
  TEST_CASE("opening the store again in a process keeps SQLite's locks on its -shm")
  {
    const auto dir = mailroom::testing::make_temp_dir("beads-locks");
    const std::string path = (dir / "mail.db").string();
    {
      auto created = open_store(path, Access::create);
      REQUIRE(mailroom::testing::reach(*created).add_agents({"alice", "bob"}).ok());
    }
    auto first = open_store(path, Access::write);
    REQUIRE(first->count("bob").ok());
    // A writer that leaves its frames in the -wal (no checkpoint), so that the opener's WAL check
    // would read the -shm and the database.
    sqlite3* raw = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &raw) == SQLITE_OK);
    REQUIRE(sqlite3_exec(
                raw,
                "PRAGMA wal_autocheckpoint=0; CREATE TABLE pad(x); INSERT INTO pad VALUES (randomblob(5000))",
                nullptr, nullptr, nullptr) == SQLITE_OK);
    REQUIRE(others_see_dms_lock(path + "-shm"));

    auto second = open_store(path, Access::write);
    auto reader = open_store(path, Access::read);
    REQUIRE(second->count("bob").ok());
    REQUIRE(reader->count("bob").ok());
    CHECK(others_see_dms_lock(path + "-shm"));
    sqlite3_close(raw);
  }
}
