// The provider contract suite through the exec provider, on two scripts:
//  - testdata/exec/stateful.sh, mailroom's reference (every op, `all`, `unarchive`, `archived`);
//  - testdata/gc/gc_mail.sh, which does only what Gas City's reference script does, so the suite
//    exercises what real gc scripts can and cannot do under mailroom.

#include <doctest/doctest.h>

#include "exec/exec_test_support.hpp"
#include "exec/script.hpp"
#include "testing/provider_contract.hpp"

namespace {

using namespace mailroom;

testing::ProviderUnderTest make_script(const std::string& path, const mail::MailPolicy& policy)
{
  testing::ProviderUnderTest p;
  auto state = std::make_shared<providers::exec::testing::StateDir>();
  p.keep_alive = state;
  // The script's facts are learned first, as a command that must tell an exit 2 apart learns
  // them (its `capabilities` answer, kept in the state's facts cache): the suite guards by
  // facets(), which the exec provider reports from those facts without running the script.
  mail::ExecSettings settings;
  settings.command = path;
  providers::exec::Script(settings, "tester", providers::exec::testing::facts_file()).probe();
  p.provider = providers::exec::testing::open_command(path, std::chrono::seconds(20), 16U * 1024U * 1024U,
                                                      "tester", policy);
  // The script keeps its own time (clock stays nullptr).
  // One process per operation: keep the random part small.
  p.property_sequences = 2;
  p.property_steps = 15;
  p.raw_bytes = false; // the send JSON carries text: invalid UTF-8 arrives as U+FFFD
  // change() says `already` only when the script said so (get's state, "already archived").
  p.exact_outcomes = false;
  p.reply_reads_original = false; // get and reply, as gc's one reply run (docs/exec-protocol.md)
  return p;
}

testing::ProviderUnderTest make_stateful_script(const mail::MailPolicy& policy)
{
  return make_script(providers::exec::testing::script_path("stateful.sh"), policy);
}

testing::ProviderUnderTest make_gc_script(const mail::MailPolicy& policy)
{
  testing::ProviderUnderTest p = make_script(std::string(MAILROOM_TESTDATA_DIR) + "/gc/gc_mail.sh", policy);
  p.full_state = false; // gc's JSON: no `archived`, `read` only from get and read, no `all`
  return p;
}

} // namespace

TEST_SUITE("mailroom::providers::exec contract")
{
  TEST_CASE("the exec provider on stateful.sh passes the provider contract")
  {
    mailroom::testing::run_provider_contract(make_stateful_script);
  }

  TEST_CASE("the exec provider on a gc-style script (testdata/gc/gc_mail.sh) passes the provider contract")
  {
    mailroom::testing::run_provider_contract(make_gc_script);
  }
}
