// Previews never touch the body (schema_v6.cpp): the pages SQLite reads from the file for check,
// the hook's query and the inbox table over 10 MiB bodies, counted by SQLite itself
// (SQLITE_DBSTATUS_CACHE_MISS of a connection opened afresh: every page it needs is a miss; the
// store maps no memory, so every page read is counted).

#include <sqlite3.h>

#include <doctest/doctest.h>

#include "beads/test_support.hpp"
#include "mail/limits.hpp"
#include "testing/reach.hpp"

namespace {

using mailroom::mail::Access;
using mailroom::providers::sqlstore::SqlStore;
using namespace mailroom::providers::beads::testing; // NOLINT: test helpers only

// Pages read from the file (or its WAL) by `store`'s connection since the last call.
int pages_read(SqlStore& store)
{
  int current = 0;
  int highest = 0;
  REQUIRE(sqlite3_db_status(database_of(store).handle(), SQLITE_DBSTATUS_CACHE_MISS, &current, &highest, 1) ==
          SQLITE_OK);
  return current;
}

// A store file with `big` unread 10 MiB bodies and two small messages for bob.
std::string store_with_big_bodies(const TempDir& dir, const FixedClock& clock, int big)
{
  const std::string path = (dir.path / "mail.db").string();
  auto store = open_store(path, clock);
  REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob"}).ok());
  REQUIRE(store->send(message("alice", "bob", "small one")).ok());
  std::string body(mailroom::mail::k_max_body_bytes, 'x');
  for (int i = 0; i < big; ++i) {
    body[0] = static_cast<char>('a' + i);
    auto request = message("alice", "bob", "");
    request.subject = "big";
    request.body = body;
    REQUIRE(store->send(request).ok());
  }
  REQUIRE(store->send(message("alice", "bob", "small two")).ok());
  return path;
}

} // namespace

TEST_SUITE("mailroom::providers::beads::previews")
{
  TEST_CASE("check over three unread 10 MiB bodies reads fewer than 100 pages; reading one reads its pages")
  {
    TempDir dir;
    FixedClock clock;
    const std::string path = store_with_big_bodies(dir, clock, 3);
    auto store = open_store(path, clock, {}, Access::write); // a fresh connection: an empty cache
    (void)pages_read(*store);

    auto checked = store->check("bob", 3, mailroom::mail::k_preview_bytes); // what the hook asks
    REQUIRE(checked.ok());
    const int check_pages = pages_read(*store);
    CHECK(check_pages < 100);
    CHECK(checked->unread == 5);
    REQUIRE(checked->messages.size() == 3);
    int cut = 0;
    for (const auto& m : checked->messages) {
      if (m.subject == "big") {
        ++cut;
        CHECK_FALSE(m.body_complete);
        CHECK(m.body.size() == mailroom::mail::k_preview_bytes);
        CHECK(m.body_bytes() == mailroom::mail::k_max_body_bytes);
      }
    }
    CHECK(cut == 2); // the first small message and two of the big ones, in inbox order

    // The inbox table's list (previews) over all five, and a count, read no body either.
    mailroom::mail::ListQuery query;
    query.mailbox = "bob";
    query.body_bytes = mailroom::mail::k_preview_bytes;
    auto listed = store->list(query);
    REQUIRE(listed.ok());
    CHECK(listed->messages.size() == 5);
    CHECK(pages_read(*store) < 100);

    // The counter counts overflow pages: one whole body is 2,560 pages of 4 KiB.
    auto whole = store->get("bob", checked->messages[1].id);
    REQUIRE(whole.ok());
    CHECK(whole->body_complete);
    CHECK(whole->body.size() == mailroom::mail::k_max_body_bytes);
    CHECK(pages_read(*store) > 2000);
  }

  TEST_CASE("body is the last column of a new store's beads, after its size and preview")
  {
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    auto& db = database_of(*store);
    CHECK(scalar(db, "SELECT name FROM pragma_table_info('beads') ORDER BY cid DESC LIMIT 1") == "body");
    CHECK(scalar(db, "SELECT group_concat(name) FROM (SELECT name FROM pragma_table_info('beads') "
                     "ORDER BY cid DESC LIMIT 3 OFFSET 1)") == "preview,body_bytes,dedup_key");
  }

  TEST_CASE("a list asking for more than the preview gets the body, cut where it asked")
  {
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    REQUIRE(mailroom::testing::reach(*store).add_agents({"bob"}).ok());
    const std::string body = std::string(6000, 'y') + "end";
    auto request = message("alice", "bob", "");
    request.subject = "s";
    request.body = body;
    REQUIRE(store->send(request).ok());
    auto wide = store->check("bob", 3, 5000);
    REQUIRE(wide.ok());
    CHECK(wide->messages[0].body == body.substr(0, 5000));
    CHECK_FALSE(wide->messages[0].body_complete);
    CHECK(wide->messages[0].body_bytes() == body.size());
    auto whole = store->check("bob", 3, std::nullopt);
    CHECK(whole->messages[0].body == body);
    CHECK(whole->messages[0].body_bytes() == body.size());
  }
}
