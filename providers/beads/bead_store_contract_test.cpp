// The provider contract suite against the bead store, in memory (the store tests use instead of a
// fake: SQLite :memory: is the real store) and on a file.

#include <doctest/doctest.h>

#include "beads/test_support.hpp"
#include "testing/provider_contract.hpp"

namespace {

using mailroom::providers::beads::testing::FixedClock;
using mailroom::providers::beads::testing::TempDir;

struct StoreFixture {
  TempDir dir; // used only by file stores
  FixedClock clock;
};

mailroom::testing::ProviderUnderTest make_store(bool on_file, const mailroom::mail::MailPolicy& policy)
{
  mailroom::testing::ProviderUnderTest p;
  auto fixture = std::make_shared<StoreFixture>();
  p.keep_alive = fixture;
  p.clock = &fixture->clock; // the suite moves it
  const std::string path = on_file ? (fixture->dir.path / "mail.db").string() : ":memory:";
  p.provider = mailroom::providers::beads::testing::open_store(path, fixture->clock, policy);
  if (on_file) {
    StoreFixture* kept = fixture.get();
    p.open_again = [kept, path, policy]() -> std::unique_ptr<mailroom::mail::Provider> {
      return mailroom::providers::beads::testing::open_store(path, kept->clock, policy);
    };
  }
  return p;
}

} // namespace

TEST_SUITE("mailroom::providers::beads contract")
{
  TEST_CASE("the bead store in memory passes the provider contract")
  {
    mailroom::testing::run_provider_contract(
        [](const mailroom::mail::MailPolicy& policy) { return make_store(false, policy); });
  }

  TEST_CASE("the bead store on a file passes the provider contract")
  {
    mailroom::testing::run_provider_contract(
        [](const mailroom::mail::MailPolicy& policy) { return make_store(true, policy); });
  }

  TEST_CASE("the bead store on a clock that stands still passes the provider contract")
  {
    // Every message has the same created_at (now, by the system clock), so every order falls to
    // arrival; the suite cannot move this clock, so it skips what needs time to pass.
    mailroom::testing::run_provider_contract([](const mailroom::mail::MailPolicy& policy) {
      auto p = make_store(false, policy);
      static_cast<StoreFixture*>(p.keep_alive.get())->clock.set(mailroom::mail::SystemClock().now());
      p.clock = nullptr;
      return p;
    });
  }
}
