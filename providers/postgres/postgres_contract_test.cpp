// The provider contract suite against the PostgreSQL store, on the test server: each provider the
// suite makes is a fresh database, initialised as `init` would, on the injected FixedClock (so the
// cases that move time work as on the bead store).

#include <doctest/doctest.h>

#include "postgres/postgres_store.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/pg_server.hpp"
#include "testing/provider_contract.hpp"

namespace {

using mailroom::testing::FixedClock;

struct StoreFixture {
  FixedClock clock;
};

mailroom::testing::ProviderUnderTest make_store(const mailroom::mail::MailPolicy& policy)
{
  mailroom::testing::ProviderUnderTest p;
  const auto db = mailroom::testing::pg_test_database();
  REQUIRE(db.has_value());
  auto fixture = std::make_shared<StoreFixture>();
  p.keep_alive = fixture;
  p.clock = &fixture->clock; // the suite moves it
  mailroom::mail::StoreSettings settings;
  settings.path = db->url;
  settings.access = mailroom::mail::Access::create;
  auto store = mailroom::providers::postgres::open_postgres_store(settings, policy, fixture->clock);
  REQUIRE_MESSAGE(store.ok(), (store.ok() ? "" : store.error().message));
  p.provider = std::move(store).value();
  StoreFixture* kept = fixture.get();
  p.open_again = [kept, settings, policy]() -> std::unique_ptr<mailroom::mail::Provider> {
    auto again = mailroom::providers::postgres::open_postgres_store(settings, policy, kept->clock);
    REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
    return std::move(again).value();
  };
  return p;
}

bool skipped()
{
  return mailroom::testing::PgServer::get() == nullptr;
}

} // namespace

TEST_SUITE("mailroom::providers::postgres contract")
{
  TEST_CASE("the postgresql store passes the provider contract")
  {
    if (skipped()) {
      return;
    }
    mailroom::testing::run_provider_contract(make_store);
  }

  TEST_CASE("the postgresql store on a clock that stands still passes the provider contract")
  {
    if (skipped()) {
      return;
    }
    // Every message has the same created_at, so every order falls to arrival (seq).
    mailroom::testing::run_provider_contract([](const mailroom::mail::MailPolicy& policy) {
      auto p = make_store(policy);
      static_cast<StoreFixture*>(p.keep_alive.get())->clock.set(mailroom::mail::SystemClock().now());
      p.clock = nullptr;
      return p;
    });
  }
}
