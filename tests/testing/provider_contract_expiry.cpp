// mailroom's contract cases about expiry (contract "Expiry"): an expired message is unread for
// nobody but still counts in total and can still be shown; the provider's clock decides.

#include <string>

#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol"};

constexpr mail::Millis k_ttl = 10 * mail::k_second_ms;

} // namespace

void run_expiry_cases(const ProviderMaker& make)
{
  SUBCASE("Expiry_UnreadForNobodyButStillShown")
  {
    Fixture f(make, k_people);
    auto request = f.request("alice", {"bob", "carol"}, "soon stale", "x");
    request.ttl = k_ttl;
    if (!f.facets().whole_sends) {
      CHECK(code_of(f.provider().send(request)) == "unsupported");
    } else if (f.can_tick()) {
      const auto sent = f.send(request).message;
      CHECK(sent.expires_at == std::optional<mail::UnixMillis>(sent.created_at + k_ttl));
      CHECK_FALSE(sent.expired);
      const auto kept = f.send("alice", "bob", "kept", "y").message;
      CHECK(f.count("bob").unread == 2);
      f.advance(k_ttl - 1);
      CHECK(f.inbox_ids("carol") == std::vector<MessageId>{sent.id});

      f.advance(1); // expires_at is now
      for (const Mailbox who : {"bob", "carol"}) {
        INFO("recipient ", who);
        CHECK(f.count(who).total == (who == std::string("bob") ? 2 : 1));
        CHECK(f.count(who).unread == (who == std::string("bob") ? 1 : 0));
        CHECK(f.check(who, 5).unread == f.count(who).unread);
        CHECK_FALSE(contains(f.inbox_ids(who), sent.id));
        CHECK(contains(f.inbox_ids(who, true), sent.id));
        const auto seen = f.get(who, sent.id);
        CHECK(seen.expired);
        CHECK_FALSE(state_of(seen).read);
      }
      CHECK(f.inbox_ids("bob") == std::vector<MessageId>{kept.id});
      CHECK(ids_of(f.check("bob", 5).messages) == std::vector<MessageId>{kept.id});
      for (const mail::Agent& agent :
           f.facets().registry ? MUST(reach(f.provider()).agents()) : std::vector<mail::Agent>{}) {
        INFO("agent ", agent.name);
        CHECK(agent.unread == f.count(agent.name).unread);
      }
      // mark-read --all leaves it alone; reading it works and is shown as expired.
      CHECK(MUST(f.provider().mark_all_read("bob")) == std::vector<MessageId>{kept.id});
      CHECK_FALSE(state_of(f.get("bob", sent.id)).read);
      CHECK(f.read("carol", sent.id).expired);
      CHECK(state_of(f.get("carol", sent.id)).read);
      const auto thread = MUST(f.provider().thread("alice", sent.id));
      REQUIRE(thread.messages.size() == 1);
      CHECK(thread.messages[0].expired);
      // Archiving it still takes it out of the total.
      MUST(f.change("bob", sent.id, Change::archive));
      CHECK(f.count("bob").total == 1);
    }
  }

  SUBCASE("Expiry_TrackedDeliveriesReadAsFailedUntilAcked")
  {
    Fixture f(make, k_people);
    if (f.facets().whole_sends && f.can_tick()) {
      auto request = f.request("alice", {"bob"}, "task", "do it");
      request.type = "task_request";
      request.ttl = k_ttl;
      const auto sent = f.send(request).message;
      CHECK(state_of(f.get("bob", sent.id)).ack_state == AckState::awaiting_ack);
      f.advance(k_ttl);
      CHECK(state_of(f.get("bob", sent.id)).ack_state == AckState::failed);
      if (f.facets().views) {
        const auto status = MUST(reach(f.provider()).status(sent.id));
        REQUIRE(status.deliveries.size() == 1);
        CHECK(status.deliveries[0].ack_state == AckState::failed);
      }
      // A late reply still acks it.
      f.reply("bob", sent.id, "late, but done");
      CHECK(state_of(f.get("bob", sent.id)).ack_state == AckState::acked);
    }
  }

  SUBCASE("Expiry_TtlMustBePositive")
  {
    Fixture f(make, k_people);
    auto request = f.request("alice", {"bob"});
    request.ttl = 0;
    const auto result = f.provider().send(request);
    REQUIRE(code_of(result) == "usage");
    CHECK(result.error().message == "--ttl must be longer than 0");
    CHECK(f.count("bob").total == 0);
  }
}

} // namespace mailroom::testing::contract
