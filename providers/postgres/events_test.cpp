// The PostgreSQL store's event log under concurrent writers (contract "Live events"): a seq is
// readable only once every smaller seq has committed or rolled back, so a reader that asks for
// the events after the last seq it saw never skips one, whatever order writers commit in.

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "postgres/postgres_store.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/pg_server.hpp"
#include "testing/reach.hpp"

namespace {

using namespace mailroom;

// What a writer runs before its first event (providers/postgres/sql.cpp, k_event_lock).
constexpr std::string_view k_lock = "SELECT pg_advisory_xact_lock(7886477456661443699)";

std::unique_ptr<providers::sqlstore::SqlStore> open(const std::string& url, mail::Access access)
{
  static const mail::SystemClock clock;
  mail::StoreSettings settings;
  settings.path = url;
  settings.access = access;
  auto store = providers::postgres::open_postgres_store(settings, {}, clock);
  REQUIRE_MESSAGE(store.ok(), (store.ok() ? "" : store.error().message));
  return std::move(store).value();
}

mail::SendRequest note(const std::string& from, const std::string& to, const std::string& subject)
{
  mail::SendRequest request;
  request.from = from;
  request.to = {to};
  request.subject = subject;
  request.body = "body";
  return request;
}

std::vector<mail::Event> all_events(mail::Provider& store)
{
  auto page = mailroom::testing::reach(store).events(0, mail::k_max_events_page);
  REQUIRE(page.ok());
  return page->events;
}

// An uncommitted writer that took the event lock and its seq on `raw`; a send on another
// connection meanwhile; then `end` ("COMMIT" or "ROLLBACK") on `raw`. Returns the events after.
std::vector<mail::Event> send_beside_open_writer(const std::string& url, const char* end)
{
  auto writer = open(url, mail::Access::write);
  auto reader = open(url, mail::Access::read);
  pg::Connection raw = testing::pg_connect(url);
  testing::pg_exec(raw, "BEGIN ISOLATION LEVEL SERIALIZABLE");
  testing::pg_exec(raw, k_lock);
  testing::pg_exec(raw, "INSERT INTO events (at, type, message_id, mailbox, actor) "
                        "VALUES (1, 'mail.read', 'mr-open', 'bob', 'bob')");
  std::atomic<bool> sent{false};
  std::thread sender([&] {
    auto receipt = writer->send(note("alice", "bob", "beside"));
    CHECK(receipt.ok());
    sent = true;
  });
  // The send cannot take a seq while the open writer holds the lock, and the reader sees neither.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK_FALSE(sent.load());
  CHECK(all_events(*reader).empty());
  testing::pg_exec(raw, end);
  sender.join();
  CHECK(sent.load());
  return all_events(*reader);
}

} // namespace

TEST_SUITE("mailroom::providers::postgres events")
{
  TEST_CASE("a send waits for the seq of a writer that has not committed; the reader sees both in order")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    REQUIRE(mailroom::testing::reach(*open(db->url, mail::Access::create)).add_agents({"alice", "bob"}).ok());
    const auto events = send_beside_open_writer(db->url, "COMMIT");
    REQUIRE(events.size() == 2);
    CHECK(events[0].message_id == "mr-open");
    CHECK(events[1].type == mail::EventType::sent);
    CHECK(events[0].seq < events[1].seq);
  }

  TEST_CASE("a writer that rolls back leaves a gap and no event")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    REQUIRE(mailroom::testing::reach(*open(db->url, mail::Access::create)).add_agents({"alice", "bob"}).ok());
    const auto events = send_beside_open_writer(db->url, "ROLLBACK");
    REQUIRE(events.size() == 1);
    CHECK(events[0].type == mail::EventType::sent);
  }

  TEST_CASE("concurrent writers never make a reader that follows the log skip an event")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    REQUIRE(mailroom::testing::reach(*open(db->url, mail::Access::create))
                .add_agents({"alice", "bob", "carol", "dave"})
                .ok());
    const bool sanitized = std::getenv("MAILROOM_SANITIZED") != nullptr;
    const int writers = 4;
    const int sends = sanitized ? 5 : 25;
    std::atomic<int> running{writers};
    std::vector<std::int64_t> followed;
    std::thread follower([&] {
      auto reader = open(db->url, mail::Access::read);
      std::int64_t last = 0;
      for (;;) {
        const bool finished = running.load() == 0; // read once more after the writers finished
        auto page = mailroom::testing::reach(*reader).events(last, 50);
        if (!page.ok()) {
          CHECK(page.ok()); // not REQUIRE: this is not the test's thread
          break;
        }
        for (const auto& event : page->events) {
          followed.push_back(event.seq);
          last = event.seq;
        }
        if (finished && page->events.empty()) {
          break;
        }
      }
    });
    std::vector<std::thread> threads;
    const std::vector<std::string> names = {"alice", "bob", "carol", "dave"};
    for (int w = 0; w < writers; ++w) {
      threads.emplace_back([&, w] {
        auto store = open(db->url, mail::Access::write);
        for (int i = 0; i < sends; ++i) {
          auto receipt = store->send(note(names[w], names[(w + 1) % writers], "n" + std::to_string(i)));
          CHECK(receipt.ok());
          if (receipt.ok()) {
            CHECK(store
                      ->change(mail::Actor{names[(w + 1) % writers], {}}, receipt->message.id,
                               mail::Change::mark_read)
                      .ok());
          }
        }
        --running;
      });
    }
    for (auto& thread : threads) {
      thread.join();
    }
    follower.join();
    std::vector<std::int64_t> stored;
    auto reader = open(db->url, mail::Access::read);
    std::int64_t last = 0;
    for (;;) {
      auto page = mailroom::testing::reach(*reader).events(last, mail::k_max_events_page);
      REQUIRE(page.ok());
      if (page->events.empty()) {
        break;
      }
      for (const auto& event : page->events) {
        stored.push_back(event.seq);
        last = event.seq;
      }
    }
    CHECK(stored.size() == static_cast<std::size_t>(writers * sends * 2));
    CHECK(followed == stored);
  }
}
