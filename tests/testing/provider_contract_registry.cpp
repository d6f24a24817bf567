// mailroom's contract cases about the registry: who is a valid recipient, what registers a
// mailbox (only add_agents, the config's agents, and a send under register = "on-send"; using a
// mailbox no longer does), and agents add/list/remove.

#include <string>

#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

using mail::Change;
using mail::Mailbox;
using mail::MessageId;

namespace {

std::vector<Mailbox> agent_names(const std::vector<mail::Agent>& agents)
{
  std::vector<Mailbox> names;
  for (const mail::Agent& agent : agents) {
    names.push_back(agent.name);
  }
  return names;
}

mail::MailboxInfo::State state_of_name(Fixture& f, const Mailbox& name)
{
  return MUST(reach(f.provider()).mailbox_info(name)).state;
}

} // namespace

void run_registry_cases(const ProviderMaker& make)
{
  SUBCASE("Send_DoesNotRegisterSender")
  {
    Fixture f(make, {"bob"});
    f.send("zed", "bob");
    const auto agents = reach(f.provider()).agents();
    if (f.facets().registry) {
      CHECK_FALSE(contains(agent_names(MUST(agents)), "zed"));
      CHECK(state_of_name(f, "zed") == mail::MailboxInfo::State::unknown);
      // So nobody can write to it yet.
      CHECK(code_of(f.provider().send(f.request("bob", {"zed"}))) == "unknown_recipient");
    } else {
      CHECK(code_of(agents) == "unsupported");
    }
  }

  SUBCASE("Send_RegistersSenderOnSend")
  {
    mail::MailPolicy on_send;
    on_send.register_policy = mail::RegisterPolicy::on_send;
    Fixture f(make, {"bob"}, on_send);
    f.send("zed", "bob");
    if (f.facets().registry) {
      CHECK(contains(agent_names(MUST(reach(f.provider()).agents())), "zed"));
      CHECK(state_of_name(f, "zed") == mail::MailboxInfo::State::active);
      CHECK(f.send("bob", "zed").recipients == std::vector<Mailbox>{"zed"});
      // Recipients are still checked: on-send registers senders only.
      CHECK(code_of(f.provider().send(f.request("zed", {"yves"}))) == "unknown_recipient");
    }
  }

  SUBCASE("Send_ToUnregisteredNameIsUnknownRecipient")
  {
    Fixture f(make, {"alice", "bob"});
    if (f.facets().registry) {
      // Reading, counting and changing mail as a name does not register it.
      CHECK(f.count("newbie").total == 0);
      CHECK(f.inbox_ids("newbie").empty());
      MUST(reach(f.provider()).touch("newbie", 0, mail::SeenVia::command));
      CHECK(state_of_name(f, "newbie") == mail::MailboxInfo::State::unknown);
      const auto result = f.provider().send(f.request("alice", {"newbie"}));
      REQUIRE(code_of(result) == "unknown_recipient");
      CHECK(result.error().message == "unknown recipient \"newbie\"");
      CHECK(result.error().input == "newbie");
      MUST(reach(f.provider()).add_agents({"newbie"}));
      CHECK(f.send("alice", "newbie").recipients == std::vector<Mailbox>{"newbie"});
    }
  }

  SUBCASE("ConfigAgents_AreRecipientsWithoutAddAgents")
  {
    mail::MailPolicy policy;
    policy.config_agents = {"planner", "reviewer"};
    Fixture f(make, {"alice"}, policy);
    if (f.facets().registry) {
      const auto sent = f.send("alice", "planner").message;
      CHECK(f.inbox_ids("planner") == std::vector<MessageId>{sent.id});
      // They are in @all too, and a write makes them real registry entries.
      const auto everyone = f.send(f.request("alice", {"@all"}));
      CHECK(sorted(everyone.recipients) == std::vector<Mailbox>{"planner", "reviewer"});
      CHECK(state_of_name(f, "reviewer") == mail::MailboxInfo::State::active);
      CHECK(code_of(f.provider().send(f.request("alice", {"planer"}))) == "unknown_recipient");
    }
  }

  SUBCASE("Registry_AddListRemove")
  {
    Fixture f(make, {});
    auto& p = f.provider();
    if (f.facets().registry) {
      CHECK(MUST(reach(p).add_agents({"bob"})) == std::vector<Mailbox>{"bob"});
      CHECK(MUST(reach(p).add_agents({"carol", "alice", "bob"})) == std::vector<Mailbox>{"carol", "alice"});
      CHECK(MUST(reach(p).add_agents({"alice"})).empty());
      MUST(reach(p).touch("dave", 0, mail::SeenVia::command)); // presence never registers
      CHECK(agent_names(MUST(reach(p).agents())) == std::vector<Mailbox>{"alice", "bob", "carol"});
      MUST(reach(p).add_agents({"dave"}));
      CHECK(agent_names(MUST(reach(p).agents())) == std::vector<Mailbox>{"alice", "bob", "carol", "dave"});

      const MessageId id = f.send("alice", "carol").message.id;
      f.send("alice", "carol");
      MUST(f.change("carol", id, Change::mark_read));
      for (const mail::Agent& agent : MUST(reach(p).agents())) {
        INFO("agent ", agent.name);
        CHECK(agent.unread == (agent.name == "carol" ? 1 : 0));
        CHECK(agent.registered_at > 0);
      }

      CHECK(MUST(reach(p).remove_agent("carol")) == 1); // its unread total at the time
      CHECK(agent_names(MUST(reach(p).agents())) == std::vector<Mailbox>{"alice", "bob", "dave"});
      CHECK(state_of_name(f, "carol") == mail::MailboxInfo::State::retired);
      const auto retired = p.send(f.request("alice", {"carol"}));
      REQUIRE(code_of(retired) == "unknown_recipient");
      CHECK(retired.error().message == "unknown recipient \"carol\": the mailbox was retired");
      CHECK(sorted(f.send(f.request("alice", {"@all"})).recipients) == std::vector<Mailbox>{"bob", "dave"});
      // Mail delivered before the removal stays readable.
      CHECK(f.read("carol", id).id == id);
      CHECK(code_of(reach(p).remove_agent("carol")) == "not_found");
      CHECK(code_of(reach(p).remove_agent("never")) == "not_found");
      // Adding a retired mailbox brings it back.
      CHECK(MUST(reach(p).add_agents({"carol"})) == std::vector<Mailbox>{"carol"});
      CHECK(f.send("alice", "carol").recipients == std::vector<Mailbox>{"carol"});
    } else {
      CHECK(code_of(reach(p).agents()) == "unsupported");
      CHECK(code_of(reach(p).add_agents({"carol"})) == "unsupported");
      CHECK(code_of(reach(p).remove_agent("carol")) == "unsupported");
      CHECK(code_of(reach(p).directory()) == "unsupported");
      CHECK(code_of(reach(p).mailbox_info("carol")) == "unsupported");
    }
  }
}

} // namespace mailroom::testing::contract
