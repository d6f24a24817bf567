#include "testing/fake_provider.hpp"

#include <memory>

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
