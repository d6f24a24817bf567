// The provider contract suite against the bead store, in memory and on a file.

#include <doctest/doctest.h>

#include "beads/test_support.hpp"
#include "testing/provider_contract.hpp"

namespace {

using mailroom::providers::beads::testing::ManualClock;
using mailroom::providers::beads::testing::TempDir;

struct StoreFixture {
  TempDir dir; // declared before the clock and used only for file stores
  ManualClock clock;
};

mailroom::testing::ProviderUnderTest make_store(bool on_file)
{
  mailroom::testing::ProviderUnderTest p;
  auto fixture = std::make_shared<StoreFixture>();
  p.keep_alive = fixture;
  const std::string path = on_file ? (fixture->dir.path / "mail.db").string() : ":memory:";
  p.provider = mailroom::providers::beads::testing::open_store(path, fixture->clock);
  p.now = [fixture] { return fixture->clock.now(); };
  p.advance_clock = [fixture] { fixture->clock.advance(1000); };
  return p;
}

} // namespace

TEST_SUITE("mailroom::providers::beads contract")
{
  TEST_CASE("the bead store in memory passes the provider contract")
  {
    mailroom::testing::run_provider_contract([] { return make_store(false); });
  }

  TEST_CASE("the bead store on a file passes the provider contract")
  {
    mailroom::testing::run_provider_contract([] { return make_store(true); });
  }
}
