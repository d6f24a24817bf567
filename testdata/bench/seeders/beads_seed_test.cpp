#include "seeders/beads_seed.hpp"

#include <doctest/doctest.h>

#include "beads/test_support.hpp"
#include "testing/reach.hpp"

namespace {

using mailroom::mail::StoreSettings;
using namespace mailroom::providers::beads; // NOLINT: test only

} // namespace

TEST_SUITE("mailroom::providers::beads::seed")
{
  TEST_CASE("fills a store the provider can read")
  {
    testing::TempDir dir;
    testing::FixedClock clock;
    const StoreSettings settings = testing::settings_for((dir.path / "bench.db").string());
    REQUIRE(seed_bench_store(settings, 1000, 10, 0.25, 64).ok());

    auto store = testing::open_store(settings.path, clock, {}, mailroom::mail::Access::write);
    auto agents = mailroom::testing::reach(*store).agents();
    REQUIRE(agents.ok());
    REQUIRE(agents->size() == 10);
    CHECK(agents->front().name == "agent-000");
    CHECK(agents->back().name == "agent-009");

    std::int64_t total = 0;
    std::int64_t unread = 0;
    for (const auto& agent : *agents) {
      auto counts = store->count(agent.name);
      REQUIRE(counts.ok());
      CHECK(counts->total == 100);
      CHECK(agent.unread == counts->unread);
      total += counts->total;
      unread += counts->unread;
    }
    CHECK(total == 1000);
    CHECK(unread > 150);
    CHECK(unread < 350);

    mailroom::mail::ListQuery query;
    query.mailbox = "agent-001";
    auto inbox = store->list(query);
    REQUIRE(inbox.ok());
    REQUIRE_FALSE(inbox->messages.empty());
    const auto& first = inbox->messages.front().message;
    CHECK(first.body == std::string(64, 'x'));
    CHECK(first.from == "agent-000");
    CHECK(first.trace.trace_id.size() == 32);
    CHECK(inbox->unread == store->count("agent-001")->unread);
    auto got = store->get("agent-001", first.id);
    CHECK(got.ok());

    // Seeding again adds to the store; the store's own sends still work beside seeded mail.
    REQUIRE(seed_bench_store(settings, 10, 10, 1.0, 8).ok());
    CHECK(store->count("agent-001")->total == 101);
    CHECK(store->send(testing::message("agent-000", "agent-001", "real")).ok());
    CHECK(store->count("agent-001")->total == 102);
  }

  TEST_CASE("bad arguments are usage errors")
  {
    StoreSettings settings;
    settings.path = ":memory:";
    CHECK(seed_bench_store(settings, 10, 0, 0.5, 1).error().code == mailroom::ErrorCode::usage);
    CHECK(seed_bench_store(settings, 10, 1, 1.5, 1).error().code == mailroom::ErrorCode::usage);
  }
}
