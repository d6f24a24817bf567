// Streams of notifications (contract "Gas City, round 4"; mail::KeyUse): send --dedup and
// --supersede, judged per recipient in the send's transaction, and the open deliveries filtered
// archive --all-recipients chooses from. A store without whole sends (exec: the send JSON carries
// no key) answers a keyed send unsupported and stores nothing; ops::send decides to send without
// --dedup there, with a warning.

#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

using mail::ChangeOutcome;
using mail::KeyUse;
using mail::StreamCopy;

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "charlie", "dave"};

mail::SendRequest keyed(const Fixture& f, const Mailbox& from, std::vector<std::string> to,
                        const std::string& key, KeyUse use, const std::string& subject)
{
  mail::SendRequest request = f.request(from, std::move(to), subject, subject + " body");
  request.dedup_key = key;
  request.key_use = use;
  return request;
}

bool same(const std::vector<StreamCopy>& copies, const std::vector<std::pair<Mailbox, MessageId>>& expected)
{
  if (copies.size() != expected.size()) {
    return false;
  }
  for (std::size_t i = 0; i < copies.size(); ++i) {
    if (copies[i].recipient != expected[i].first || copies[i].id != expected[i].second) {
      return false;
    }
  }
  return true;
}

} // namespace

void run_stream_cases(const ProviderMaker& make)
{
  SUBCASE("a keyed send on a store without whole sends is unsupported and stores nothing")
  {
    Fixture f(make, k_people);
    if (f.facets().whole_sends != nullptr) {
      return;
    }
    for (const KeyUse use : {KeyUse::dedup, KeyUse::supersede}) {
      CHECK(code_of(f.provider().send(keyed(f, "alice", {"bob"}, "disk", use, "full"))) == "unsupported");
    }
    CHECK(f.inbox_ids("bob").empty());
  }

  SUBCASE("dedup suppresses a send while the recipient holds a live copy, read or not")
  {
    Fixture f(make, k_people);
    if (f.facets().whole_sends == nullptr) {
      return;
    }
    const auto first = f.send(keyed(f, "alice", {"bob"}, "disk", KeyUse::dedup, "disk full"));
    REQUIRE(first.stored());
    CHECK(first.message.dedup_key == std::optional<std::string>("disk"));
    CHECK(f.get("bob", first.message.id).dedup_key == std::optional<std::string>("disk"));
    CHECK(first.suppressed.empty());
    f.tick();
    const auto again = f.send(keyed(f, "alice", {"bob"}, "disk", KeyUse::dedup, "disk still full"));
    CHECK_FALSE(again.stored());
    CHECK(again.recipients.empty());
    CHECK(same(again.suppressed, {{"bob", first.message.id}}));
    CHECK(f.inbox_ids("bob") == std::vector<MessageId>{first.message.id});
    f.read("bob", first.message.id); // read is still live: it is in the mailbox
    CHECK_FALSE(f.send(keyed(f, "alice", {"bob"}, "disk", KeyUse::dedup, "three")).stored());
    MUST(f.change("bob", first.message.id, Change::archive));
    f.tick();
    const auto after = f.send(keyed(f, "alice", {"bob"}, "disk", KeyUse::dedup, "full again"));
    CHECK(after.stored());
    CHECK(after.suppressed.empty());
    CHECK(f.inbox_ids("bob") == std::vector<MessageId>{after.message.id});
  }

  SUBCASE("dedup is judged per recipient and keys are per sender")
  {
    Fixture f(make, k_people);
    if (f.facets().whole_sends == nullptr) {
      return;
    }
    const auto first = f.send(keyed(f, "alice", {"bob"}, "build", KeyUse::dedup, "red"));
    f.tick();
    const auto wider = f.send(keyed(f, "alice", {"bob", "charlie"}, "build", KeyUse::dedup, "still red"));
    REQUIRE(wider.stored());
    CHECK(wider.recipients == std::vector<Mailbox>{"charlie"});
    CHECK(wider.message.to == std::vector<Mailbox>{"charlie"});
    CHECK(same(wider.suppressed, {{"bob", first.message.id}}));
    CHECK(f.inbox_ids("charlie") == std::vector<MessageId>{wider.message.id});
    CHECK(f.inbox_ids("bob") == std::vector<MessageId>{first.message.id});
    // Another sender's stream of the same name is its own.
    const auto other = f.send(keyed(f, "dave", {"bob"}, "build", KeyUse::dedup, "dave's"));
    CHECK(other.stored());
    CHECK(other.suppressed.empty());
    // Unkeyed mail is never a copy, and another key is another stream.
    f.send("alice", "dave", "plain", "plain");
    CHECK(f.send(keyed(f, "alice", {"dave"}, "build", KeyUse::dedup, "x")).stored());
    CHECK(f.send(keyed(f, "alice", {"dave"}, "deploy", KeyUse::dedup, "y")).stored());
  }

  SUBCASE("an expired copy is not live")
  {
    Fixture f(make, k_people);
    if (f.facets().whole_sends == nullptr || !f.can_tick()) {
      return;
    }
    mail::SendRequest request = keyed(f, "alice", {"bob"}, "lease", KeyUse::dedup, "lease ends");
    request.ttl = 1000;
    const auto first = f.send(request);
    f.advance(2000);
    const auto second = f.send(keyed(f, "alice", {"bob"}, "lease", KeyUse::dedup, "lease ended"));
    CHECK(second.stored());
    CHECK(second.suppressed.empty());
    CHECK(first.message.id != second.message.id);
  }

  SUBCASE("supersede archives the sender's earlier unread copies for each recipient")
  {
    Fixture f(make, k_people);
    if (f.facets().whole_sends == nullptr) {
      return;
    }
    const auto v1 = f.send(keyed(f, "alice", {"bob", "charlie"}, "digest", KeyUse::supersede, "v1"));
    const auto unrelated = f.send("alice", "bob", "report", "one-off");
    const auto dave = f.send(keyed(f, "dave", {"bob"}, "digest", KeyUse::supersede, "dave's digest"));
    MUST(f.change("charlie", v1.message.id, Change::mark_read)); // read: charlie keeps it
    f.tick();
    const auto v2 = f.send(keyed(f, "alice", {"bob", "charlie"}, "digest", KeyUse::supersede, "v2"));
    REQUIRE(v2.stored());
    CHECK(v2.recipients == std::vector<Mailbox>{"bob", "charlie"});
    CHECK(same(v2.superseded, {{"bob", v1.message.id}}));
    CHECK(v2.suppressed.empty());
    const auto inbox = f.inbox_ids("bob");
    CHECK_FALSE(contains(inbox, v1.message.id));
    CHECK(contains(inbox, v2.message.id));
    CHECK(contains(inbox, unrelated.message.id));
    CHECK(contains(inbox, dave.message.id));
    CHECK(state_of(f.get("bob", v1.message.id)).archived);
    CHECK_FALSE(state_of(f.get("charlie", v1.message.id)).archived);
    // The sender changed the recipient's delivery: status says who.
    if (f.facets().views != nullptr) {
      const auto status = MUST(reach(f.provider()).status(v1.message.id));
      for (const mail::DeliveryStatus& d : status.deliveries) {
        CHECK(d.acted_by == (d.recipient == "bob" ? std::optional<Mailbox>("alice") : std::nullopt));
      }
    }
    // The stream's newest copy stays, and a send with no earlier copy supersedes nothing.
    CHECK(f.send(keyed(f, "alice", {"dave"}, "digest", KeyUse::supersede, "first for dave"))
              .superseded.empty());
  }

  SUBCASE("the open deliveries of every mailbox, oldest first")
  {
    Fixture f(make, k_people);
    mail::OpenDeliveriesQuery query;
    if (f.facets().views == nullptr) {
      CHECK(code_of(reach(f.provider()).open_deliveries(query)) == "unsupported");
      return;
    }
    const auto one = f.send(f.request("alice", {"bob", "charlie"}, "one", "1"));
    f.tick();
    const auto two = f.send("dave", "bob", "two", "");
    f.tick();
    const auto three = f.send("alice", "charlie", "three", "3");
    MUST(f.change("charlie", one.message.id, Change::mark_read));
    MUST(f.change("charlie", three.message.id, Change::archive));
    const auto open = MUST(reach(f.provider()).open_deliveries(query));
    REQUIRE(open.size() == 2);
    CHECK(open[0].recipient == "bob");
    CHECK(open[0].message.id == one.message.id);
    CHECK_FALSE(state_of(open[0].message).read);
    CHECK(open[1].message.id == two.message.id);
    CHECK(open[1].message.body_bytes() == 0);
    query.include_read = true;
    const auto with_read = MUST(reach(f.provider()).open_deliveries(query));
    REQUIRE(with_read.size() == 3);
    CHECK(with_read[1].recipient == "charlie");
    CHECK(state_of(with_read[1].message).read);
    query.from = "alice";
    CHECK(MUST(reach(f.provider()).open_deliveries(query)).size() == 2);
  }
}

} // namespace mailroom::testing::contract
