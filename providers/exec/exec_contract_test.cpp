// The provider contract suite against the reference script testdata/exec/stateful.sh.

#include <doctest/doctest.h>

#include "exec/exec_test_support.hpp"
#include "testing/provider_contract.hpp"

namespace {

mailroom::testing::ProviderUnderTest make_stateful_script(const mailroom::mail::MailPolicy& policy)
{
  mailroom::testing::ProviderUnderTest p;
  auto state = std::make_shared<mailroom::providers::exec::testing::StateDir>();
  p.keep_alive = state;
  p.provider = mailroom::providers::exec::testing::open_script("stateful.sh", std::chrono::seconds(20),
                                                                16U * 1024U * 1024U, "tester", policy);
  // The script keeps its own time (clock stays nullptr).
  // One process per operation: keep the random part small.
  p.property_sequences = 2;
  p.property_steps = 15;
  p.raw_bytes = false; // the send JSON carries text: invalid UTF-8 arrives as U+FFFD
  // change() hears only "already archived" from a script; every other change reports `changed`.
  p.exact_outcomes = false;
  return p;
}

} // namespace

TEST_SUITE("mailroom::providers::exec contract")
{
  TEST_CASE("the exec provider on stateful.sh passes the provider contract")
  {
    mailroom::testing::run_provider_contract(make_stateful_script);
  }
}
