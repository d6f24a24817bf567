// The bead store's event log beyond the contract suite: the v8 migration adds it to a v7 store
// without a rewrite, and a change that rolls back leaves none of its events.

#include <string>

#include <doctest/doctest.h>

#include "beads/schema.hpp"
#include "beads/test_support.hpp"
#include "testing/reach.hpp"

namespace {

using mailroom::mail::Access;
using namespace mailroom::providers::beads::testing; // NOLINT: test helpers only

std::int64_t event_count(mailroom::providers::sqlstore::SqlStore& store)
{
  auto page = store.events(0, mailroom::mail::k_max_events_page);
  REQUIRE(page.ok());
  return static_cast<std::int64_t>(page->events.size());
}

} // namespace

TEST_SUITE("mailroom::providers::beads events")
{
  TEST_CASE("v8 and v9 add the event log and human's presence to a v7 store, keeping its mail")
  {
    TempDir dir;
    FixedClock clock;
    const std::string path = (dir.path / "mail.db").string();
    {
      auto store = open_store(path, clock);
      REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob"}).ok());
      REQUIRE(store->send(message("alice", "bob", "before")).ok());
      // Back to what a v7 mailroom made.
      auto& db = database_of(*store);
      REQUIRE(
          db.execute_script("DROP TABLE events; DROP TABLE events_pruned; DROP TABLE unregistered_presence; "
                            "DROP INDEX deliveries_requests_open; DROP INDEX deliveries_owed_plain; DROP "
                            "INDEX deliveries_owed_unread; "
                            "DROP TABLE firers; DROP TABLE scheduled_messages; DROP TABLE firings; "
                            "DROP TABLE schedules; DROP TABLE wake_targets; DROP TABLE wake_ledger; "
                            "DROP TABLE wake_pairs; ALTER TABLE deliveries DROP COLUMN request_state; "
                            "ALTER TABLE deliveries DROP COLUMN request_state_at; PRAGMA user_version = 7")
              .ok());
    }
    // v11 rebuilds `beads` (dedup_key before body), so a v7 store is upgraded by `migrate`.
    CHECK(mailroom::providers::beads::needs_row_rewrite(7));
    auto store = open_store(path, clock, {}, Access::migrate);
    auto& db = database_of(*store);
    CHECK(scalar(db, "PRAGMA user_version") == std::to_string(mailroom::providers::beads::k_schema_version));
    CHECK(scalar(db, "SELECT count(*) FROM unregistered_presence") == "0");
    CHECK(scalar(db, "SELECT through FROM events_pruned") == "0");
    CHECK(event_count(*store) == 0); // mail sent before the log has no events
    auto inbox = store->check("bob", 10, std::nullopt);
    REQUIRE(inbox.ok());
    CHECK(inbox->unread == 1);
    REQUIRE(store->send(message("bob", "alice", "after")).ok());
    CHECK(event_count(*store) == 1);
  }

  TEST_CASE("a send that rolls back leaves no event, though its first delivery's event was written")
  {
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob", "carol"}).ok());
    // A failure at the second delivery's event: the first's was already inserted in the transaction.
    auto& db = database_of(*store);
    REQUIRE(db.execute_script(R"sql(
CREATE TEMP TRIGGER fail_for_carol BEFORE INSERT ON events WHEN new.mailbox = 'carol'
BEGIN SELECT RAISE(ABORT, 'refused for the test'); END)sql")
                .ok());
    auto request = message("alice", "bob", "both");
    request.to = {"bob", "carol"};
    auto sent = store->send(request);
    REQUIRE_FALSE(sent.ok());
    CHECK(event_count(*store) == 0);
    // Nor was the message stored: one transaction.
    auto inbox = store->check("bob", 10, std::nullopt);
    REQUIRE(inbox.ok());
    CHECK(inbox->unread == 0);
    // The same failure on a per-recipient change keeps the delivery as it was.
    REQUIRE(store->send(message("alice", "carol", "one")).ok() == false);
    auto to_bob = store->send(message("alice", "bob", "one"));
    REQUIRE(to_bob.ok());
    const std::int64_t before = event_count(*store);
    REQUIRE(db.execute_script(R"sql(
CREATE TEMP TRIGGER fail_for_reads BEFORE INSERT ON events WHEN new.type = 'mail.read'
BEGIN SELECT RAISE(ABORT, 'refused for the test'); END)sql")
                .ok());
    CHECK_FALSE(store
                    ->change(mailroom::mail::Actor{"bob", "bob"}, to_bob->message.id,
                             mailroom::mail::Change::mark_read)
                    .ok());
    CHECK(event_count(*store) == before);
    auto still = store->get("bob", to_bob->message.id);
    REQUIRE(still.ok());
    REQUIRE(still->state.has_value());
    CHECK_FALSE(still->state->read);
  }
}
