// The PostgreSQL engine: the server's clock, LISTEN/NOTIFY waking a waiter on another connection
// (another "host"), interrupts and timeouts, and reconnecting after the server restarted.

#include <chrono>
#include <cstdlib>
#include <thread>

#include <doctest/doctest.h>
#include <unistd.h>

#include "postgres/engine.hpp"
#include "postgres/postgres_store.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/pg_server.hpp"
#include "testing/reach.hpp"

namespace {

using namespace mailroom;
using namespace std::chrono_literals;

struct Host {
  mail::SystemClock clock;
  std::unique_ptr<providers::sqlstore::SqlStore> store;

  Host(const std::string& url, mail::Access access = mail::Access::write)
  {
    mail::StoreSettings settings;
    settings.path = url;
    settings.access = access;
    auto opened = providers::postgres::open_postgres_store(settings, {}, clock);
    REQUIRE_MESSAGE(opened.ok(), (opened.ok() ? "" : opened.error().message));
    store = std::move(opened).value();
  }
};

void send(providers::sqlstore::SqlStore& store, const std::string& from, const std::string& to)
{
  mail::SendRequest request;
  request.from = from;
  request.to = {to};
  request.subject = "hello";
  request.body = "body";
  auto sent = store.send(request);
  REQUIRE_MESSAGE(sent.ok(), (sent.ok() ? "" : sent.error().message));
}

std::string init_db()
{
  const auto db = testing::pg_test_database();
  if (!db) {
    return {};
  }
  Host init(db->url, mail::Access::create);
  REQUIRE(mailroom::testing::reach(*init.store).add_agents({"alice", "bob"}).ok());
  return db->url;
}

} // namespace

TEST_SUITE("mailroom::providers::postgres engine")
{
  TEST_CASE("now comes from the server's clock, an injected clock wins")
  {
    const std::string url = init_db();
    if (url.empty()) {
      return;
    }
    Host host(url);
    auto* engine = dynamic_cast<providers::postgres::PgEngine*>(&host.store->engine());
    REQUIRE(engine != nullptr);
    CHECK(engine->server_clock());
    const auto server = engine->now();
    REQUIRE(server.ok());
    // The test server runs on this machine: the same clock, within a little.
    CHECK(std::abs(server.value() - mail::SystemClock().now()) < 2000);

    testing::FixedClock fixed(1000);
    mail::StoreSettings settings;
    settings.path = url;
    auto injected = providers::postgres::open_postgres_store(settings, {}, fixed);
    REQUIRE(injected.ok());
    CHECK(injected.value()->engine().now().value() == 1000);
  }

  TEST_CASE("a send on one host wakes a waiter on another, and so do its own sends")
  {
    const std::string url = init_db();
    if (url.empty()) {
      return;
    }
    Host waiter(url);
    Host sender(url);
    auto signal = mailroom::testing::reach(*waiter.store).change_signal();
    REQUIRE(signal.ok());
    REQUIRE(signal.value() != nullptr);

    // Nothing yet: the deadline passes.
    auto nothing = signal.value()->wait(std::chrono::steady_clock::now() + 50ms, -1);
    REQUIRE(nothing.ok());
    CHECK(nothing.value() == mail::WakeReason::timeout);

    // The waiter's own send wakes it too (as on the bead store): its caller simply looks again.
    send(*waiter.store, "alice", "bob");
    auto own = signal.value()->wait(std::chrono::steady_clock::now() + 5s, -1);
    REQUIRE(own.ok());
    CHECK(own.value() == mail::WakeReason::changed);

    // A send committed before the wait began is not missed.
    send(*sender.store, "alice", "bob");
    auto before = signal.value()->wait(std::chrono::steady_clock::now() + 5s, -1);
    REQUIRE(before.ok());
    CHECK(before.value() == mail::WakeReason::changed);

    // One during the wait wakes it within milliseconds.
    std::thread later([&]() {
      std::this_thread::sleep_for(100ms);
      send(*sender.store, "bob", "alice");
    });
    const auto start = std::chrono::steady_clock::now();
    auto during = signal.value()->wait(start + 10s, -1);
    later.join();
    REQUIRE(during.ok());
    CHECK(during.value() == mail::WakeReason::changed);
    CHECK(std::chrono::steady_clock::now() - start < 5s);
  }

  TEST_CASE("the interrupt fd ends a wait")
  {
    const std::string url = init_db();
    if (url.empty()) {
      return;
    }
    Host waiter(url);
    auto signal = mailroom::testing::reach(*waiter.store).change_signal();
    REQUIRE(signal.ok());
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    REQUIRE(::write(fds[1], "x", 1) == 1);
    auto woke = signal.value()->wait(std::chrono::steady_clock::now() + 10s, fds[0]);
    ::close(fds[0]);
    ::close(fds[1]);
    REQUIRE(woke.ok());
    CHECK(woke.value() == mail::WakeReason::interrupted);
  }

  TEST_CASE("after the server restarted, the store reconnects and the signal listens again")
  {
    const std::string url = init_db();
    if (url.empty()) {
      return;
    }
    Host waiter(url);
    auto signal = mailroom::testing::reach(*waiter.store).change_signal();
    REQUIRE(signal.ok());
    REQUIRE(testing::PgServer::get()->restart().ok());

    // The lost connection reads as a change (re-read the state); the re-read reconnects.
    auto lost = signal.value()->wait(std::chrono::steady_clock::now() + 5s, -1);
    REQUIRE(lost.ok());
    CHECK(lost.value() == mail::WakeReason::changed);
    auto counted = waiter.store->count("bob");
    REQUIRE_MESSAGE(counted.ok(), (counted.ok() ? "" : counted.error().message));
    // The next wait listens on the new connection (and says so by reporting a change once).
    auto relisten = signal.value()->wait(std::chrono::steady_clock::now() + 5s, -1);
    REQUIRE(relisten.ok());
    CHECK(relisten.value() == mail::WakeReason::changed);

    Host sender(url);
    std::thread later([&]() {
      std::this_thread::sleep_for(100ms);
      send(*sender.store, "alice", "bob");
    });
    auto woke = signal.value()->wait(std::chrono::steady_clock::now() + 10s, -1);
    later.join();
    REQUIRE(woke.ok());
    CHECK(woke.value() == mail::WakeReason::changed);
  }
}
