// mailroom's contract cases about who gets a message: cc, duplicates, the registry, @all, and who
// may act on a message.

#include <algorithm>
#include <string>

#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

using mail::Mailbox;
using mail::MessageId;

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol", "dave"};

bool contains(const std::vector<std::string>& list, const std::string& item)
{
  return std::find(list.begin(), list.end(), item) != list.end();
}

std::vector<Mailbox> agent_names(const std::vector<mail::Agent>& agents)
{
  std::vector<Mailbox> names;
  for (const mail::Agent& agent : agents) {
    names.push_back(agent.name);
  }
  return names;
}

} // namespace

void run_recipient_cases(const ProviderMaker& make)
{
  SUBCASE("Cc_RecipientsGetIt")
  {
    Fixture f(make, k_people);
    auto request = f.request("alice", {"bob"});
    request.cc = {"carol"};
    if (f.caps().cc && f.caps().multi_recipient) {
      const auto receipt = f.send(request);
      CHECK(receipt.recipients == std::vector<Mailbox>{"bob", "carol"});
      CHECK(receipt.message.to == std::vector<Mailbox>{"bob"});
      CHECK(receipt.message.cc == std::vector<Mailbox>{"carol"});
      const auto carol = MUST(f.provider().inbox("carol", {}));
      REQUIRE(carol.size() == 1);
      CHECK(carol[0].id == receipt.message.id);
      CHECK(carol[0].cc == std::vector<Mailbox>{"carol"});
      CHECK(f.inbox_ids("bob") == std::vector<MessageId>{receipt.message.id});
    } else {
      CHECK(code_of(f.provider().send(request)) == "unsupported");
      CHECK(f.inbox_ids("bob").empty());
      CHECK(f.inbox_ids("carol").empty());
    }
  }

  SUBCASE("Send_PriorityAndTypeTravel")
  {
    Fixture f(make, k_people);
    if (f.caps().cc) {
      auto request = f.request("alice", {"bob"});
      request.priority = mail::Priority::high;
      request.type = "task";
      const auto sent = f.send(request).message;
      CHECK(sent.priority == mail::Priority::high);
      CHECK(sent.type == "task");
      const auto got = f.get("bob", sent.id);
      CHECK(got.priority == mail::Priority::high);
      CHECK(got.type == "task");
    }
  }

  SUBCASE("Send_DuplicatesCollapse")
  {
    Fixture f(make, k_people);
    if (f.caps().multi_recipient) {
      auto request = f.request("alice", {"bob", "carol", "bob"});
      if (f.caps().cc) {
        request.cc = {"bob", "dave", "dave"};
      }
      const auto receipt = f.send(request);
      const MessageId id = receipt.message.id;
      if (f.caps().cc) {
        CHECK(receipt.recipients == std::vector<Mailbox>{"bob", "carol", "dave"});
        CHECK(receipt.message.cc == std::vector<Mailbox>{"dave"}); // to wins over cc
      } else {
        CHECK(receipt.recipients == std::vector<Mailbox>{"bob", "carol"});
      }
      CHECK(receipt.message.to == std::vector<Mailbox>{"bob", "carol"});
      CHECK(f.inbox_ids("bob") == std::vector<MessageId>{id});
      CHECK(f.count("bob").total == 1);
      if (f.caps().status) {
        const auto status = MUST(f.provider().status("alice", id));
        const auto bob = std::count_if(status.begin(), status.end(),
                                       [](const mail::DeliveryStatus& s) { return s.recipient == "bob"; });
        CHECK(bob == 1);
        REQUIRE_FALSE(status.empty());
        CHECK(status[0].recipient == "bob");
        CHECK(status[0].kind == "to");
      }
    }
  }

  SUBCASE("Send_NoRecipientsIsUsage")
  {
    Fixture f(make, k_people);
    CHECK(code_of(f.provider().send(f.request("alice", {}))) == "usage");
  }

  SUBCASE("Send_UnknownRecipientSuggests")
  {
    Fixture f(make, k_people);
    if (f.caps().registry) {
      const auto result = f.provider().send(f.request("alice", {"bbo"}));
      REQUIRE(code_of(result) == "unknown_recipient");
      CHECK(result.error().input == "bbo");
      CHECK(contains(result.error().suggestions, "bob"));
      CHECK(result.error().message.find("bbo") != std::string::npos);
      // Nothing is stored when any recipient is unknown.
      if (f.caps().multi_recipient) {
        CHECK(code_of(f.provider().send(f.request("alice", {"bob", "bbo"}))) == "unknown_recipient");
        CHECK(f.inbox_ids("bob").empty());
      }
      if (f.caps().cc) {
        auto cc_request = f.request("alice", {"bob"});
        cc_request.cc = {"crol"};
        CHECK(code_of(f.provider().send(cc_request)) == "unknown_recipient");
        CHECK(f.inbox_ids("bob").empty());
      }
    }
  }

  SUBCASE("Send_RecipientsAnyAndHumanNeedNoRegistration")
  {
    Fixture f(make, k_people);
    const auto to_human = f.send("alice", std::string(mail::k_human)).message;
    CHECK(f.inbox_ids(std::string(mail::k_human)) == std::vector<MessageId>{to_human.id});
    auto request = f.request("alice", {"newcomer"});
    request.require_registered = false;
    const auto sent = f.send(request).message;
    CHECK(f.inbox_ids("newcomer") == std::vector<MessageId>{sent.id});
  }

  SUBCASE("Send_RegistersSender")
  {
    Fixture f(make, {"bob"});
    f.send("zed", "bob");
    const auto agents = f.provider().agents();
    if (f.caps().registry) {
      CHECK(contains(agent_names(MUST(agents)), "zed"));
    } else {
      CHECK(code_of(agents) == "unsupported");
    }
  }

  SUBCASE("Broadcast_AudienceIsRegisteredMinusSenderAndHuman")
  {
    Fixture f(make, {"human", "coder", "committer", "tester"});
    auto request = f.request("coder", {});
    request.broadcast = true;
    if (f.caps().registry) {
      const auto receipt = f.send(request);
      CHECK(sorted(receipt.recipients) == std::vector<Mailbox>{"committer", "tester"});
      CHECK(sorted(receipt.message.to) == std::vector<Mailbox>{"committer", "tester"});
      MUST(f.provider().add_agents({"latecomer"}));
      CHECK(f.inbox_ids("latecomer").empty());
      CHECK(f.inbox_ids("human").empty());
      CHECK(f.inbox_ids("coder").empty());
      CHECK(f.inbox_ids("tester") == std::vector<MessageId>{receipt.message.id});
    } else {
      CHECK(code_of(f.provider().send(request)) == "unsupported");
    }
  }

  SUBCASE("Broadcast_EmptyAudienceIsUsage")
  {
    Fixture f(make, {"human", "alice"});
    auto request = f.request("alice", {});
    request.broadcast = true;
    CHECK(code_of(f.provider().send(request)) == (f.caps().registry ? "usage" : "unsupported"));
  }

  SUBCASE("NotRecipient_CannotActOnOthersMail")
  {
    Fixture f(make, k_people);
    const MessageId id = f.send("alice", "bob").message.id;
    auto& p = f.provider();
    bool delivered = false;
    const auto read = p.read("carol", id, [&](const mail::Message&) {
      delivered = true;
      return Result<void>();
    });
    CHECK(code_of(read) == "not_recipient");
    CHECK_FALSE(delivered);
    CHECK(code_of(p.get("carol", id)) == "not_recipient");
    CHECK(code_of(p.mark_read("carol", id)) == "not_recipient");
    CHECK(code_of(p.mark_unread("carol", id)) == "not_recipient");
    CHECK(code_of(p.archive("carol", id)) == "not_recipient");
    CHECK(code_of(p.unarchive("carol", id)) == (f.caps().unarchive ? "not_recipient" : "unsupported"));
    CHECK(code_of(p.status("carol", id)) == (f.caps().status ? "not_recipient" : "unsupported"));
    mail::ReplyRequest reply;
    reply.from = "carol";
    reply.body = "me too";
    CHECK(code_of(p.reply(id, reply)) == "not_recipient");
    CHECK(f.inbox_ids("alice").empty());
    // A known thread the viewer has no part in is empty, not an error.
    const auto thread = MUST(p.thread("carol", id));
    CHECK(thread.messages.empty());
    CHECK(f.inbox_ids("bob") == std::vector<MessageId>{id});
  }

  SUBCASE("NotFound_IsDistinctFromNotRecipient")
  {
    Fixture f(make, k_people);
    const MessageId id = f.send("alice", "bob").message.id;
    auto& p = f.provider();
    const MessageId missing = "nonexistent";
    CHECK(code_of(p.get("bob", missing)) == "not_found");
    CHECK(code_of(p.get("carol", missing)) == "not_found");
    CHECK(code_of(p.get("carol", id)) == "not_recipient");
    CHECK(code_of(p.read("bob", missing, deliver_ok)) == "not_found");
    CHECK(code_of(p.mark_read("bob", missing)) == "not_found");
    CHECK(code_of(p.mark_unread("bob", missing)) == "not_found");
    CHECK(code_of(p.archive("bob", missing)) == "not_found");
    CHECK(code_of(p.unarchive("bob", missing)) == (f.caps().unarchive ? "not_found" : "unsupported"));
    CHECK(code_of(p.status("alice", missing)) == (f.caps().status ? "not_found" : "unsupported"));
    mail::ReplyRequest reply;
    reply.from = "bob";
    reply.body = "?";
    CHECK(code_of(p.reply(missing, reply)) == "not_found");
    CHECK(code_of(p.thread("bob", missing)) == "not_found");
  }

  SUBCASE("Registry_AddListRemove")
  {
    Fixture f(make, {});
    auto& p = f.provider();
    MUST(p.ensure_registered("bob"));
    if (f.caps().registry) {
      CHECK(MUST(p.add_agents({"carol", "alice", "bob"})) == std::vector<Mailbox>{"carol", "alice"});
      CHECK(MUST(p.add_agents({"alice"})).empty());
      MUST(p.ensure_registered("bob"));
      MUST(p.ensure_registered("dave"));
      CHECK(agent_names(MUST(p.agents())) == std::vector<Mailbox>{"alice", "bob", "carol", "dave"});

      const MessageId id = f.send("alice", "carol").message.id;
      f.send("alice", "carol");
      MUST(p.mark_read("carol", id));
      for (const mail::Agent& agent : MUST(p.agents())) {
        INFO("agent ", agent.name);
        CHECK(agent.unread == (agent.name == "carol" ? 1 : 0));
        CHECK(agent.registered_at > 0);
      }

      MUST(p.remove_agent("carol"));
      CHECK(agent_names(MUST(p.agents())) == std::vector<Mailbox>{"alice", "bob", "dave"});
      CHECK(code_of(p.send(f.request("alice", {"carol"}))) == "unknown_recipient");
      auto everyone = f.request("alice", {});
      everyone.broadcast = true;
      CHECK(sorted(f.send(everyone).recipients) == std::vector<Mailbox>{"bob", "dave"});
      // Mail delivered before the removal stays readable.
      CHECK(f.read("carol", id).id == id);
      CHECK(code_of(p.remove_agent("carol")) == "not_found");
      CHECK(code_of(p.remove_agent("never")) == "not_found");
    } else {
      CHECK(code_of(p.agents()) == "unsupported");
      CHECK(code_of(p.add_agents({"carol"})) == "unsupported");
      CHECK(code_of(p.remove_agent("carol")) == "unsupported");
    }
  }
}

} // namespace mailroom::testing::contract
