// The property test: random sequences of sends, replies, state changes and (where the test owns the
// clock) expiry over four mailboxes, checked after every step against the provider's own views
// (inbox, count and check must agree: the gascity#3969 phantom-mail bug) and against a model (so a
// provider that is consistently wrong fails too), order included.

#include <algorithm>
#include <random>
#include <string>

#include "testing/provider_contract_model.hpp"
#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

using mail::Change;
using mail::ChangeOutcome;
using mail::Mailbox;
using mail::MessageId;

namespace {

const std::vector<Mailbox> k_mailboxes = {"ann", "ben", "cat", "dan"};

enum class Op { send, reply, read, mark_read, mark_unread, archive, unarchive, mark_all_read, advance };

Op pick_op(std::mt19937& rng)
{
  // Sends a fifth of the time so messages pile up while their state churns.
  constexpr std::pair<int, Op> k_table[] = {
      {20, Op::send},      {28, Op::reply},         {40, Op::read},
      {52, Op::mark_read}, {64, Op::mark_unread},   {76, Op::archive},
      {87, Op::unarchive}, {92, Op::mark_all_read}, {100, Op::advance},
  };
  const int roll = std::uniform_int_distribution<int>(0, 99)(rng);
  for (const auto& [bound, op] : k_table) {
    if (roll < bound) {
      return op;
    }
  }
  return Op::send;
}

template <typename T> const T& pick(std::mt19937& rng, const std::vector<T>& items)
{
  return items[std::uniform_int_distribution<std::size_t>(0, items.size() - 1)(rng)];
}

bool chance(std::mt19937& rng, double p)
{
  return std::bernoulli_distribution(p)(rng);
}

ModelMessage model_of(const mail::SendReceipt& receipt)
{
  const mail::Message& m = receipt.message;
  ModelMessage message{m.id, m.from, m.to, m.cc, m.priority, m.created_at, m.expires_at, {}};
  for (const Mailbox& recipient : receipt.recipients) {
    message.deliveries[recipient] = ModelDelivery{};
  }
  return message;
}

void send_random(Fixture& f, Model& model, std::mt19937& rng, std::string& what)
{
  const Mailbox from = pick(rng, k_mailboxes);
  std::vector<Mailbox> others;
  std::copy_if(k_mailboxes.begin(), k_mailboxes.end(), std::back_inserter(others),
               [&](const Mailbox& m) { return m != from; });
  auto request = f.request(from, {}, "s", "b");
  if (f.facets().whole_sends) {
    for (const Mailbox& other : others) {
      const int roll = std::uniform_int_distribution<int>(0, 9)(rng);
      if (roll < 4) {
        request.to.push_back(other);
      } else if (roll < 6) {
        request.cc.push_back(other);
      }
    }
    request.priority = static_cast<mail::Priority>(std::uniform_int_distribution<int>(0, 4)(rng));
    if (f.can_tick() && chance(rng, 0.3)) {
      request.ttl = std::uniform_int_distribution<mail::Millis>(1, 5)(rng) * mail::k_second_ms;
    }
  }
  if (request.to.empty()) {
    request.to.push_back(pick(rng, others));
  }
  what = "send from " + from + " to " + std::to_string(request.to.size()) + "+" +
         std::to_string(request.cc.size());
  const auto receipt = f.send(request);
  // Every address once: a mailbox in both to and cc is a "to" recipient.
  std::vector<Mailbox> expected = request.to;
  for (const Mailbox& name : request.cc) {
    if (!contains(expected, name)) {
      expected.push_back(name);
    }
  }
  CHECK(sorted(receipt.recipients) == sorted(expected));
  model.add(model_of(receipt));
  // Ties in created_at happen half the time, so the arrival tie-break is exercised too.
  if (chance(rng, 0.5)) {
    f.tick();
  }
}

// A reply to `id` by `mailbox`: refused for a stranger; a recipient's reply goes to the sender and
// reads the original for the replier.
void reply(Fixture& f, Model& model, const Mailbox& mailbox, const MessageId& id, const std::string& refused)
{
  const ModelMessage* original = model.find(id);
  ModelDelivery* delivery = model.delivery(mailbox, id);
  const auto result = f.provider().reply(Fixture::reply_request(mailbox, id, "r"));
  if (delivery == nullptr || original == nullptr) {
    if (original == nullptr || original->from != mailbox) {
      CHECK(code_of(result) == refused);
    } else {
      // A sender's reply to her own message is the subject of its own case; here it only has to
      // be stored, or refused as unsupported.
      CHECK((code_of(result) == "ok" || code_of(result) == "unsupported"));
    }
    if (result.ok()) {
      model.add(model_of(result.value()));
    }
    return;
  }
  REQUIRE(code_of(result) == "ok");
  CHECK(result.value().recipients == std::vector<Mailbox>{original->from});
  delivery->read = true;
  model.add(model_of(result.value()));
}

// Applies `op` for `mailbox` on `id` to the provider and the model, checking the outcome.
void act(Fixture& f, Model& model, Op op, const Mailbox& mailbox, const MessageId& id)
{
  mail::Provider& p = f.provider();
  ModelDelivery* delivery = model.delivery(mailbox, id);
  const ModelMessage* message = model.find(id);
  const std::string refused = message == nullptr ? "not_found" : "not_recipient";
  const auto expect_change = [&](Change change, bool ModelDelivery::*flag, bool target) {
    const auto result = f.change(mailbox, id, change);
    if (delivery == nullptr) {
      CHECK(code_of(result) == refused);
      return;
    }
    f.expect_outcome(result, delivery->*flag == target ? ChangeOutcome::already : ChangeOutcome::changed);
    delivery->*flag = target;
  };
  switch (op) {
  case Op::read: {
    const auto result = p.read(actor(mailbox), id, deliver_ok);
    if (delivery != nullptr) {
      REQUIRE(code_of(result) == "ok");
      CHECK(state_of(result.value()).read == delivery->read);
      CHECK(state_of(result.value()).archived == (delivery->archived && f.full_state()));
      delivery->read = true;
    } else if (message != nullptr && message->from == mailbox) {
      CHECK(code_of(result) == "ok"); // the sender may read, with nothing to mark
      CHECK_FALSE(result.value().state.has_value());
    } else {
      CHECK(code_of(result) == refused);
    }
    break;
  }
  case Op::mark_read:
    expect_change(Change::mark_read, &ModelDelivery::read, true);
    break;
  case Op::mark_unread:
    expect_change(Change::mark_unread, &ModelDelivery::read, false);
    break;
  case Op::archive:
    expect_change(Change::archive, &ModelDelivery::archived, true);
    break;
  case Op::unarchive:
    if (f.facets().unarchive) {
      expect_change(Change::unarchive, &ModelDelivery::archived, false);
    } else {
      // Refusing a stranger or an unknown id first is as good as refusing the operation.
      const std::string code = code_of(f.change(mailbox, id, Change::unarchive));
      CHECK((code == "unsupported" || (delivery == nullptr && code == refused)));
    }
    break;
  case Op::reply:
    reply(f, model, mailbox, id, refused);
    break;
  case Op::send:
  case Op::mark_all_read:
  case Op::advance:
    break;
  }
}

void mark_all(Fixture& f, Model& model, const Mailbox& mailbox)
{
  const auto expected = model.inbox(mailbox, false, f.now());
  const auto changed = MUST(f.provider().mark_all_read(mailbox));
  CHECK(changed == expected);
  for (const MessageId& id : expected) {
    model.delivery(mailbox, id)->read = true;
  }
}

void check_views(Fixture& f, Model& model, const Mailbox& mailbox)
{
  INFO("mailbox ", mailbox);
  mail::Provider& p = f.provider();
  const mail::UnixMillis now = f.now();
  const auto unread = f.inbox(mailbox);
  // Without full state (a gc script), all open mail can be listed only while none of it is read.
  const bool listable = f.full_state() || model.inbox(mailbox, true, now) == model.inbox(mailbox, false, now);
  mail::ListQuery all_query;
  all_query.mailbox = mailbox;
  all_query.include_read = true;
  if (!listable) {
    REQUIRE(code_of(p.list(all_query)) == "unsupported");
  }
  const auto open = listable ? f.inbox(mailbox, true) : std::vector<mail::Message>();
  const auto check = MUST(p.check(mailbox, 1000, std::nullopt));
  const auto check_two = MUST(p.check(mailbox, 2, std::nullopt));
  const auto counts = MUST(p.count(mailbox));
  mail::ListQuery query;
  query.mailbox = mailbox;
  const auto listed = MUST(p.list(query));

  // One unread rule everywhere: count, the inbox list's totals and check agree.
  REQUIRE(counts.unread == static_cast<std::int64_t>(unread.size()));
  REQUIRE(counts.unread == listed.total);
  REQUIRE(counts.unread == listed.unread);
  REQUIRE(counts.unread == check.unread);
  REQUIRE(counts.unread == static_cast<std::int64_t>(check.messages.size()));
  REQUIRE(counts.unread == check_two.unread);
  REQUIRE(counts.total ==
          static_cast<std::int64_t>(listable ? open.size() : model.inbox(mailbox, true, now).size()));
  REQUIRE(ids_of(check.messages) == ids_of(unread));
  const std::vector<MessageId> unread_ids = ids_of(unread);
  const auto shown = static_cast<std::ptrdiff_t>(std::min<std::size_t>(2, unread_ids.size()));
  REQUIRE(ids_of(check_two.messages) ==
          std::vector<MessageId>(unread_ids.begin(), unread_ids.begin() + shown));

  REQUIRE(unread_ids == model.inbox(mailbox, false, now));
  if (listable) {
    REQUIRE(ids_of(open) == model.inbox(mailbox, true, now));
  }
  for (const mail::Message& message : open) {
    const ModelDelivery* delivery = model.delivery(mailbox, message.id);
    REQUIRE(delivery != nullptr);
    CHECK(state_of(message).read == delivery->read);
    CHECK_FALSE(state_of(message).archived);
    CHECK(message.expired == Model::is_expired(*model.find(message.id), now));
  }
}

void run_sequence(Fixture& f, unsigned seed, int steps)
{
  Model model;
  std::mt19937 rng(seed);
  for (int step = 0; step < steps; ++step) {
    std::string what;
    INFO("seed ", seed, ", step ", step, ": ", what);
    Op op = model.empty() ? Op::send : pick_op(rng);
    if (op == Op::advance && !f.can_tick()) {
      op = Op::read;
    }
    const Mailbox mailbox = pick(rng, k_mailboxes);
    if (op == Op::send) {
      send_random(f, model, rng, what);
    } else if (op == Op::mark_all_read) {
      what = "mark_all_read " + mailbox;
      mark_all(f, model, mailbox);
    } else if (op == Op::advance) {
      const mail::Millis ms = std::uniform_int_distribution<mail::Millis>(1, 3)(rng) * mail::k_second_ms;
      what = "advance the clock " + std::to_string(ms) + " ms";
      f.advance(ms);
    } else {
      // Now and then an id nobody has, to keep not_found in the mix.
      const MessageId id = chance(rng, 0.05) ? MessageId("nonexistent") : pick(rng, model.messages()).id;
      what = "op " + std::to_string(static_cast<int>(op)) + " by " + mailbox + " on " + id;
      act(f, model, op, mailbox, id);
    }
    for (const Mailbox& each : k_mailboxes) {
      check_views(f, model, each);
    }
  }
}

} // namespace

void run_property_cases(const ProviderMaker& make)
{
  SUBCASE("Property_InboxCountAndCheckAgreeWithModel")
  {
    // The sizes come with the provider; each sequence gets a fresh one.
    int sequences = 1;
    for (int sequence = 0; sequence < sequences; ++sequence) {
      Fixture f(make, k_mailboxes);
      sequences = f.under_test().property_sequences;
      if (sequence < sequences) {
        run_sequence(f, 1000U + static_cast<unsigned>(sequence), f.under_test().property_steps);
      }
    }
  }
}

} // namespace mailroom::testing::contract
