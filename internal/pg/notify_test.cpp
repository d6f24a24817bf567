// LISTEN/NOTIFY between two connections to a real throwaway server.

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "pg/connection.hpp"
#include "testing/pg_server.hpp"

namespace mailroom::pg {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

bool wait(Connection& connection, milliseconds limit)
{
  auto woke = connection.wait_for_notification(Clock::now() + limit);
  REQUIRE_MESSAGE(woke.ok(), woke.error().message);
  return *woke;
}

} // namespace

TEST_SUITE("mailroom::pg::Connection notifications")
{
  TEST_CASE("a notification from another connection wakes a waiter")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection listener = testing::pg_connect(db->url);
    Connection sender = testing::pg_connect(db->url);
    REQUIRE(listener.listen("mail:Bob").ok());
    const auto start = Clock::now();
    std::thread later([&] {
      std::this_thread::sleep_for(milliseconds(200));
      (void)sender.notify("mail:Bob", "new message");
    });
    const bool woke = wait(listener, milliseconds(10000));
    later.join();
    CHECK(woke);
    const auto waited = Clock::now() - start;
    CHECK(waited >= milliseconds(150));
    CHECK(waited < milliseconds(5000));
    CHECK_FALSE(wait(listener, milliseconds(0))); // consumed
  }

  TEST_CASE("without a notification the wait ends at the deadline")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection listener = testing::pg_connect(db->url);
    Connection sender = testing::pg_connect(db->url);
    REQUIRE(listener.listen("mail_bob").ok());
    REQUIRE(sender.notify("mail_alice", "not for bob").ok()); // another channel
    const auto start = Clock::now();
    CHECK_FALSE(wait(listener, milliseconds(300)));
    const auto waited = Clock::now() - start;
    CHECK(waited >= milliseconds(300));
    CHECK(waited < milliseconds(3000));
  }

  TEST_CASE("a notification already received is reported at once; own notifications only when asked")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection listener = testing::pg_connect(db->url);
    Connection sender = testing::pg_connect(db->url);
    REQUIRE(listener.listen("mail_bob").ok());
    REQUIRE(listener.notify("mail_bob", "from myself").ok());
    CHECK_FALSE(wait(listener, milliseconds(200)));
    REQUIRE(sender.notify("mail_bob", "").ok());
    std::this_thread::sleep_for(milliseconds(100));
    REQUIRE(listener.execute_script("SELECT 1").ok()); // the notification arrives with this result
    const auto start = Clock::now();
    CHECK(wait(listener, milliseconds(5000)));
    CHECK(Clock::now() - start < milliseconds(1000));
    // Counted when asked: a store wakes its waiters for its own deliveries too.
    REQUIRE(listener.notify("mail_bob", "from myself again").ok());
    auto own = listener.wait_for_notification(Clock::now() + milliseconds(5000), OwnNotifications::count);
    REQUIRE(own.ok());
    CHECK(own.value());
  }

  TEST_CASE("a notification sent in a transaction arrives at its commit")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection listener = testing::pg_connect(db->url);
    Connection sender = testing::pg_connect(db->url);
    REQUIRE(listener.listen("mail_bob").ok());
    auto transaction = db::Transaction::begin(sender, db::TransactionKind::write);
    REQUIRE(transaction.ok());
    REQUIRE(sender.notify("mail_bob", "1").ok());
    CHECK_FALSE(wait(listener, milliseconds(200)));
    REQUIRE(transaction->commit().ok());
    CHECK(wait(listener, milliseconds(5000)));
  }

  TEST_CASE("bad channels and payloads are refused; a lost connection fails the wait")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection listener = testing::pg_connect(db->url);
    Connection killer = testing::pg_connect(db->url);
    CHECK_FALSE(listener.listen("").ok());
    CHECK_FALSE(listener.listen(std::string(64, 'x')).ok());
    CHECK(listener.listen(std::string(63, 'x')).ok());
    CHECK_FALSE(listener.notify("mail_bob", std::string(8000, 'x')).ok());
    CHECK_FALSE(listener.notify("mail_bob", std::string_view("a\0b", 3)).ok());

    auto terminate = killer.cached("SELECT pg_terminate_backend(?1)");
    REQUIRE(terminate.ok());
    REQUIRE((*terminate)->bind(listener.backend_pid()).ok());
    REQUIRE((*terminate)->exec().ok());
    const auto start = Clock::now();
    const auto woke = listener.wait_for_notification(Clock::now() + milliseconds(5000));
    REQUIRE_FALSE(woke.ok());
    CHECK(doctest::String(woke.error().message.c_str()) ==
          doctest::Contains("lost the connection to postgresql at"));
    CHECK(Clock::now() - start < milliseconds(4000));
  }
}

} // namespace mailroom::pg
