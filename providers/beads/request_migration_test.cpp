// Schema version 10 (the life of a request) on a store written before it: the deliveries of the
// built-in request types get the state they read as (failed when set aside, completed when their
// recipient replied, working when read, else submitted), others none.

#include <string>

#include <doctest/doctest.h>

#include "beads/schema.hpp"
#include "beads/test_support.hpp"
#include "mail/claims.hpp"
#include "testing/reach.hpp"

namespace {

using mailroom::mail::Access;
using namespace mailroom::providers::beads::testing; // NOLINT: test helpers only

std::string state_of(mailroom::providers::sqlstore::SqlStore& store, const std::string& viewer,
                     const std::string& id)
{
  auto message = store.get(viewer, id);
  REQUIRE(message.ok());
  REQUIRE(message->state.has_value());
  return message->state->request_state
             ? std::string(mailroom::mail::to_string(*message->state->request_state))
             : std::string("none");
}

} // namespace

TEST_SUITE("mailroom::providers::beads::schema")
{
  TEST_CASE("version 10 gives the deliveries of an older store's requests the state they read as")
  {
    TempDir dir;
    FixedClock clock;
    const std::string path = (dir.path / "mail.db").string();
    std::string answered, read, untouched, aside, plain;
    {
      auto store = open_store(path, clock);
      REQUIRE(mailroom::testing::reach(*store).add_agents({"lead", "bob"}).ok());
      const auto task = [&](const std::string& subject) {
        auto request = message("lead", "bob", subject);
        request.type = "task_request";
        auto sent = store->send(request);
        REQUIRE(sent.ok());
        return sent->message.id;
      };
      answered = task("answered");
      read = task("read");
      untouched = task("untouched");
      aside = task("aside");
      plain = store->send(message("lead", "bob", "plain"))->message.id;
      mailroom::mail::ReplyRequest reply;
      reply.from = "bob";
      reply.id = answered;
      reply.body = "done";
      REQUIRE(store->reply(reply).ok());
      REQUIRE(store->change(as("bob"), read, mailroom::mail::Change::mark_read).ok());
      auto& db = database_of(*store);
      // What a store of version 9 holds: no request columns (the set-aside one marked as a watcher
      // left it, not as this build's set_aside statement would) no schedule tables (v11) and no wake tables
      // (v13) and the owed index (v14).
      for (const char* sql :
           {"UPDATE deliveries SET set_aside_at = 1 WHERE message = (SELECT seq FROM beads "
            "WHERE subject = 'aside')",
            "DROP INDEX deliveries_requests_open", "DROP INDEX deliveries_owed_plain",
            "DROP INDEX deliveries_owed_unread", "ALTER TABLE deliveries DROP COLUMN request_state",
            "ALTER TABLE deliveries DROP COLUMN request_state_at", "DROP TABLE firers",
            "DROP TABLE scheduled_messages", "DROP TABLE firings", "DROP TABLE schedules",
            "DROP TABLE wake_targets", "DROP TABLE wake_ledger", "DROP TABLE wake_pairs",
            "PRAGMA user_version = 9"}) {
        INFO(sql);
        REQUIRE(db.execute_script(sql).ok());
      }
    }
    // Version 11 rebuilds `beads` after it, so the store is upgraded by `migrate`.
    auto store = open_store(path, clock, {}, Access::migrate);
    CHECK(scalar(database_of(*store), "PRAGMA user_version") ==
          std::to_string(mailroom::providers::beads::k_schema_version));
    CHECK(state_of(*store, "bob", answered) == "completed");
    CHECK(state_of(*store, "bob", read) == "working");
    CHECK(state_of(*store, "bob", untouched) == "submitted");
    CHECK(state_of(*store, "bob", aside) == "failed");
    CHECK(state_of(*store, "bob", plain) == "none");
    // The reply itself (a task_response) expects none.
    CHECK(scalar(database_of(*store), "SELECT count(*) FROM deliveries WHERE request_state IS NOT NULL") ==
          "4");
  }
}
