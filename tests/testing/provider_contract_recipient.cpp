// mailroom's contract cases about who gets a message: cc, duplicates, unknown recipients, @all and
// the size caps a send is checked against before anything is stored.

#include <algorithm>
#include <string>

#include "mail/limits.hpp"
#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

using mail::Mailbox;
using mail::MessageId;

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol", "dave"};

} // namespace

void run_recipient_cases(const ProviderMaker& make)
{
  SUBCASE("Cc_RecipientsGetIt")
  {
    Fixture f(make, k_people);
    auto request = f.request("alice", {"bob"});
    request.cc = {"carol"};
    if (f.facets().whole_sends) {
      const auto receipt = f.send(request);
      CHECK(receipt.recipients == std::vector<Mailbox>{"bob", "carol"});
      CHECK(receipt.message.to == std::vector<Mailbox>{"bob"});
      CHECK(receipt.message.cc == std::vector<Mailbox>{"carol"});
      const auto carol = f.inbox("carol");
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
    auto request = f.request("alice", {"bob"});
    request.priority = mail::Priority::high;
    request.type = "task";
    if (f.facets().whole_sends) {
      const auto sent = f.send(request).message;
      CHECK(sent.priority == mail::Priority::high);
      CHECK(sent.type == "task");
      const auto got = f.get("bob", sent.id);
      CHECK(got.priority == mail::Priority::high);
      CHECK(got.type == "task");
    } else {
      // What the provider cannot carry is refused, never dropped.
      CHECK(code_of(f.provider().send(request)) == "unsupported");
    }
  }

  SUBCASE("Send_DuplicatesCollapse")
  {
    Fixture f(make, k_people);
    if (f.facets().whole_sends) {
      auto request = f.request("alice", {"bob", "carol", "bob"});
      request.cc = {"bob", "dave", "dave"};
      const auto receipt = f.send(request);
      const MessageId id = receipt.message.id;
      CHECK(receipt.recipients == std::vector<Mailbox>{"bob", "carol", "dave"});
      CHECK(receipt.message.cc == std::vector<Mailbox>{"dave"}); // to wins over cc
      CHECK(receipt.message.to == std::vector<Mailbox>{"bob", "carol"});
      CHECK(f.inbox_ids("bob") == std::vector<MessageId>{id});
      CHECK(f.count("bob").total == 1);
      if (f.facets().views) {
        const auto status = MUST(reach(f.provider()).status(id)).deliveries;
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
    // The same code, message and suggestions from every store (the fake and the bead store used to
    // word it differently).
    Fixture f(make, k_people);
    if (f.facets().registry) {
      const auto result = f.provider().send(f.request("alice", {"bbo"}));
      REQUIRE(code_of(result) == "unknown_recipient");
      CHECK(result.error().message == "unknown recipient \"bbo\"");
      CHECK(result.error().input == "bbo");
      CHECK(contains(result.error().suggestions, "bob"));
      // Nothing is stored when any recipient is unknown.
      CHECK(code_of(f.provider().send(f.request("alice", {"bob", "bbo"}))) == "unknown_recipient");
      CHECK(f.inbox_ids("bob").empty());
      auto cc_request = f.request("alice", {"bob"});
      cc_request.cc = {"crol"};
      const auto cc = f.provider().send(cc_request);
      REQUIRE(code_of(cc) == "unknown_recipient");
      CHECK(cc.error().message == "unknown recipient \"crol\"");
      CHECK(contains(cc.error().suggestions, "carol"));
      CHECK(f.inbox_ids("bob").empty());
    }
  }

  SUBCASE("Send_RecipientsAnyAndHumanNeedNoRegistration")
  {
    mail::MailPolicy any;
    any.recipients = mail::RecipientPolicy::any;
    Fixture f(make, k_people, any);
    const auto to_human = f.send("alice", std::string(mail::k_human)).message;
    CHECK(f.inbox_ids(std::string(mail::k_human)) == std::vector<MessageId>{to_human.id});
    const auto sent = f.send("alice", "newcomer");
    CHECK(f.inbox_ids("newcomer") == std::vector<MessageId>{sent.message.id});
    if (f.facets().registry) {
      // Receiving mail does not register a mailbox either.
      CHECK(MUST(reach(f.provider()).mailbox_info("newcomer")).state == mail::MailboxInfo::State::unknown);
    }
  }

  SUBCASE("Broadcast_AudienceIsRegisteredMinusSenderAndHuman")
  {
    Fixture f(make, {"human", "coder", "committer", "tester"});
    const auto request = f.request("coder", {"@all"});
    if (f.facets().registry) {
      const auto receipt = f.send(request);
      CHECK(sorted(receipt.recipients) == std::vector<Mailbox>{"committer", "tester"});
      CHECK(sorted(receipt.message.to) == std::vector<Mailbox>{"committer", "tester"});
      MUST(reach(f.provider()).add_agents({"latecomer"}));
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
    // Same code and message from every store with a registry.
    Fixture f(make, {"human", "alice"});
    const auto result = f.provider().send(f.request("alice", {"@all"}));
    if (f.facets().registry) {
      REQUIRE(code_of(result) == "usage");
      CHECK(result.error().message ==
            "no recipients: @all matched no registered mailbox other than the sender");
      CHECK(f.count("human").total == 0);
    } else {
      CHECK(code_of(result) == "unsupported");
    }
  }

  SUBCASE("Send_SubjectOverTheCapIsUsage")
  {
    // A 5,000-byte subject is refused by every provider, before anything is stored (the fake used
    // to store it).
    Fixture f(make, k_people);
    const auto result = f.provider().send(f.request("alice", {"bob"}, std::string(5000, 's'), "body"));
    REQUIRE(code_of(result) == "usage");
    CHECK(result.error().message == "subject is 5000 bytes; the limit is 4096 bytes");
    CHECK(f.inbox_ids("bob").empty());
    CHECK(f.count("bob").total == 0);
    // At the cap is fine.
    const std::string at_cap(mail::k_max_subject_bytes, 's');
    const auto sent = f.send("alice", "bob", at_cap, "body").message;
    CHECK(f.get("bob", sent.id).subject == at_cap);
  }

  SUBCASE("Send_BodyOverTheCapIsUsage")
  {
    Fixture f(make, k_people);
    const std::string big(mail::k_max_body_bytes + 1, 'x');
    const auto result = f.provider().send(f.request("alice", {"bob"}, "big", big));
    REQUIRE(code_of(result) == "usage");
    CHECK(result.error().message == "body is 10485761 bytes; the limit is 10485760 bytes (10 MiB)");
    CHECK(f.count("bob").total == 0);
  }

  SUBCASE("Send_NoSubjectDerivesItFromTheBody")
  {
    Fixture f(make, k_people);
    auto request = f.request("alice", {"bob"}, "", "first line\nsecond line");
    request.subject.reset();
    const auto sent = f.send(request).message;
    CHECK(f.get("bob", sent.id).body == "first line\nsecond line");
    if (f.facets().whole_sends) {
      // A store derives it (mail::derive_subject); a script may derive its own.
      CHECK(sent.subject == "first line");
      CHECK(f.get("bob", sent.id).subject == "first line");
    }
  }

  SUBCASE("Send_ReceiptShowsTheMessageAsItsSenderSeesIt")
  {
    // A sender who is also a recipient sees her own fresh delivery; any other sender sees none.
    Fixture f(make, k_people);
    const auto to_self = f.send("alice", "alice", "note to self", "remember");
    CHECK(to_self.recipients == std::vector<Mailbox>{"alice"});
    CHECK_FALSE(state_of(to_self.message).read);
    CHECK_FALSE(state_of(to_self.message).archived);
    CHECK(f.inbox_ids("alice") == std::vector<MessageId>{to_self.message.id});
    CHECK_FALSE(f.send("alice", "bob").message.state.has_value());
    if (f.facets().whole_sends) {
      auto keyed = f.request("alice", {"alice", "bob"}, "keyed", "k");
      keyed.idempotency_key = "self";
      const auto first = f.send(keyed);
      const auto replayed = f.send(keyed);
      CHECK(replayed.replayed);
      CHECK(state_of(first.message).read == state_of(replayed.message).read);
    }
  }
}

} // namespace mailroom::testing::contract
