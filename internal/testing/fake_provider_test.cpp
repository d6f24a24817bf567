#include "testing/fake_provider.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "testing/fixed_clock.hpp"
#include "testing/provider_contract.hpp"

using mailroom::testing::all_capabilities;
using mailroom::testing::FakeProvider;
using mailroom::testing::FixedClock;
using mailroom::testing::ProviderUnderTest;

namespace {

// A fake on its own fixed clock; tick moves the clock one second.
ProviderUnderTest make_fake(mailroom::mail::Capabilities capabilities)
{
  auto clock = std::make_shared<FixedClock>();
  ProviderUnderTest put;
  put.keep_alive = clock;
  put.provider = std::make_unique<FakeProvider>(*clock, capabilities);
  put.now = [clock] { return clock->now(); };
  put.advance_clock = [clock] { clock->advance(1000); };
  return put;
}

} // namespace

TEST_SUITE("mailroom::testing::FakeProvider")
{
  TEST_CASE("FakeProvider passes the provider contract")
  {
    mailroom::testing::run_provider_contract([] { return make_fake(all_capabilities()); });
  }

  TEST_CASE("FakeProvider without capabilities passes the provider contract")
  {
    // Gas City's shape: one recipient, no registry, no cc, no status. The suite must then see
    // unsupported wherever it asks for more.
    mailroom::testing::run_provider_contract([] { return make_fake({}); });
  }

  TEST_CASE("FakeProvider on a clock that stands still passes the provider contract")
  {
    // Without advance_clock, every message has the same created_at, so ordering falls to the id.
    mailroom::testing::run_provider_contract([] {
      auto put = make_fake(all_capabilities());
      put.advance_clock = nullptr;
      return put;
    });
  }
}

TEST_SUITE("mailroom::testing::FakeProvider")
{
  TEST_CASE("FakeProvider records operations and counts only real changes")
  {
    FixedClock clock;
    FakeProvider fake(clock);
    mailroom::mail::SendRequest request;
    request.from = "alice";
    request.to = {"bob"};
    request.require_registered = false;
    request.body = "hi";
    const auto sent = fake.send(request);
    REQUIRE(sent.ok());
    CHECK(sent->message.id == "fake-1");
    CHECK(sent->message.thread_id == "thread-000000000001");
    CHECK(sent->message.created_at == FixedClock::k_default_start);
    CHECK(fake.message_count() == 1);

    fake.clear_operations();
    const auto before = fake.state_changes();
    CHECK(fake.check("bob", 3).ok());
    CHECK(fake.inbox("bob", {}).ok());
    CHECK(fake.count("bob").ok());
    CHECK(fake.get("bob", "fake-1").ok());
    CHECK(fake.state_changes() == before);
    CHECK(fake.operations() == std::vector<std::string>{"check", "inbox", "count", "get"});

    CHECK(fake.mark_read("bob", "fake-1").ok());
    CHECK(fake.state_changes() == before + 1);
    CHECK(fake.mark_read("bob", "fake-1").value() == mailroom::mail::ChangeOutcome::already);
    CHECK(fake.state_changes() == before + 1);
  }

  TEST_CASE("FakeProvider fail_next fails one call of one operation")
  {
    FixedClock clock;
    FakeProvider fake(clock);
    fake.fail_next("check", mailroom::make_error(mailroom::ErrorCode::store_error,
                                                       "database is locked"));
    const auto failed = fake.check("bob", 3);
    REQUIRE_FALSE(failed.ok());
    CHECK(failed.error().code == mailroom::ErrorCode::store_error);
    CHECK(failed.error().message == "database is locked");
    CHECK(fake.check("bob", 3).ok());
    CHECK(fake.operations() == std::vector<std::string>{"check", "check"});
  }

  TEST_CASE("FakeProvider stamps messages and changes with its clock")
  {
    FixedClock clock(5000);
    FakeProvider fake(clock);
    mailroom::mail::SendRequest request;
    request.from = "alice";
    request.to = {"bob"};
    request.require_registered = false;
    const auto sent = fake.send(request);
    REQUIRE(sent.ok());
    clock.advance(250);
    REQUIRE(fake.mark_read("bob", sent->message.id).ok());
    const auto status = fake.status("alice", sent->message.id);
    REQUIRE(status.ok());
    REQUIRE(status->size() == 1);
    CHECK(status->front().delivered_at == 5000);
    CHECK(status->front().read_at == std::optional<mailroom::mail::UnixMillis>(5250));
  }
}

TEST_SUITE("mailroom::testing::FixedClock")
{
  TEST_CASE("FixedClock stands still until set, advanced or stepped")
  {
    FixedClock clock(100);
    CHECK(clock.now() == 100);
    CHECK(clock.now() == 100);
    clock.advance(5);
    CHECK(clock.now() == 105);
    clock.set(7);
    clock.set_step(2);
    CHECK(clock.now() == 7);
    CHECK(clock.now() == 9);
  }
}
