// Presence writes never wait for a lock (contract "Presence is what the agent did"): while another
// process holds the write lock, touch fails at once with a timeout (the caller skips it), even
// when the store's busy timeout is long; once the lock is free it records presence.

#include <chrono>

#include <doctest/doctest.h>

#include "beads/test_support.hpp"
#include "sqlite/database.hpp"
#include "testing/reach.hpp"

namespace mailroom::providers::beads::testing {

TEST_SUITE("beads presence")
{
  TEST_CASE("a presence write is skipped at once while another process holds the write lock")
  {
    TempDir dir;
    FixedClock clock;
    const std::string path = (dir.path / "mail.db").string();
    auto settings = settings_for(path);
    // Were touch to wait, the test would hang here for ten minutes and fail by the test timeout.
    settings.busy_timeout = std::chrono::minutes(10);
    auto opened = open_bead_store(settings, {}, clock);
    REQUIRE_MESSAGE(opened.ok(), (opened.ok() ? "" : opened.error().message));
    auto store = std::move(opened).value();
    REQUIRE(mailroom::testing::reach(*store).add_agents({"bob"}).ok());

    auto blocker = sqlite::Database::open(path);
    REQUIRE(blocker.ok());
    {
      auto lock = db::Transaction::begin(*blocker, db::TransactionKind::write);
      REQUIRE(lock.ok());
      auto touched = mailroom::testing::reach(*store).touch("bob", 0, mail::SeenVia::hook);
      REQUIRE_FALSE(touched.ok());
      CHECK(touched.error().code == ErrorCode::timeout);
      // The connection is usable again, and a normal write still waits as configured.
    }
    REQUIRE(mailroom::testing::reach(*store).touch("bob", 0, mail::SeenVia::hook).ok());
    auto info = mailroom::testing::reach(*store).mailbox_info("bob");
    REQUIRE(info.ok());
    REQUIRE(info->last_seen);
    CHECK(*info->last_seen == clock.now());
  }
}

} // namespace mailroom::providers::beads::testing
