// The provider contract suite through the exec provider, on two scripts:
//  - testdata/exec/stateful.sh, mailroom's reference (every op, `all`, `unarchive`, `archived`);
//  - testdata/gc/gc_mail.sh, which does only what Gas City's reference script does, so the suite
//    exercises what real gc scripts can and cannot do under mailroom.

#include <doctest/doctest.h>

#include "exec/exec_test_support.hpp"
#include "testing/provider_contract.hpp"

namespace {

using namespace mailroom;

// The exec provider with the capabilities a gc script has: the suite guards by capabilities()
// and then expects `unsupported` from what is missing. The exec provider itself cannot know
// them without running the script (capabilities() never spawns), so the run states them.
class GcScriptProvider final : public mail::Provider {
public:
  explicit GcScriptProvider(std::unique_ptr<mail::Provider> exec) : m_exec(std::move(exec)) {}

  mail::Capabilities capabilities() const override
  {
    mail::Capabilities caps = m_exec->capabilities();
    caps.unarchive = false; // not a gc op: the script answers exit 2
    return caps;
  }
  Result<mail::SendReceipt> send(const mail::SendRequest& r) override { return m_exec->send(r); }
  Result<mail::SendReceipt> reply(const mail::ReplyRequest& r) override { return m_exec->reply(r); }
  Result<mail::ListResult> list(const mail::ListQuery& q) override { return m_exec->list(q); }
  Result<mail::CheckResult> check(const mail::Mailbox& m, std::size_t limit,
                                  std::optional<std::size_t> bytes) override
  {
    return m_exec->check(m, limit, bytes);
  }
  Result<mail::Counts> count(const mail::Mailbox& m) override { return m_exec->count(m); }
  Result<mail::Message> get(const mail::Mailbox& viewer, const mail::MessageId& id) override
  {
    return m_exec->get(viewer, id);
  }
  Result<mail::Message> read(const mail::Actor& actor, const mail::MessageId& id,
                             const mail::DeliverFn& deliver) override
  {
    return m_exec->read(actor, id, deliver);
  }
  Result<std::optional<mail::Message>> take(const mail::Actor& actor, const mail::MessageId& id,
                                            const mail::DeliverFn& deliver) override
  {
    return m_exec->take(actor, id, deliver);
  }
  Result<mail::ChangeOutcome> change(const mail::Actor& actor, const mail::MessageId& id,
                                     mail::Change c) override
  {
    return m_exec->change(actor, id, c);
  }
  Result<std::vector<mail::MessageId>> mark_all_read(const mail::Mailbox& m) override
  {
    return m_exec->mark_all_read(m);
  }
  Result<mail::ThreadResult> thread(const mail::Mailbox& viewer, const std::string& id) override
  {
    return m_exec->thread(viewer, id);
  }

private:
  std::unique_ptr<mail::Provider> m_exec;
};

testing::ProviderUnderTest make_script(const std::string& path, const mail::MailPolicy& policy)
{
  testing::ProviderUnderTest p;
  auto state = std::make_shared<providers::exec::testing::StateDir>();
  p.keep_alive = state;
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
  p.provider = std::make_unique<GcScriptProvider>(std::move(p.provider));
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
