// The property test: random sequences of sends and state changes over four mailboxes, checked
// after every step against the provider's own views (inbox, count and check must agree: the
// gascity#3969 phantom-mail bug) and against a small model (so a provider that is consistently
// wrong fails too).

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>

#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

using mail::ChangeOutcome;
using mail::Mailbox;
using mail::MessageId;

namespace {

const std::vector<Mailbox> k_mailboxes = {"ann", "ben", "cat", "dan"};

struct ModelDelivery {
  bool read = false;
  bool archived = false;
};

struct ModelMessage {
  MessageId id;
  Mailbox from;
  std::map<Mailbox, ModelDelivery> deliveries;
};

class Model {
public:
  std::vector<ModelMessage> messages;

  ModelDelivery* delivery(const Mailbox& mailbox, const MessageId& id)
  {
    for (ModelMessage& message : messages) {
      if (message.id == id) {
        const auto it = message.deliveries.find(mailbox);
        return it == message.deliveries.end() ? nullptr : &it->second;
      }
    }
    return nullptr;
  }

  bool is_sender(const Mailbox& mailbox, const MessageId& id) const
  {
    return std::any_of(messages.begin(), messages.end(), [&](const ModelMessage& message) {
      return message.id == id && message.from == mailbox;
    });
  }

  // Open (unarchived) ids of `mailbox`, unread only unless `include_read`, sorted.
  std::vector<MessageId> open(const Mailbox& mailbox, bool include_read) const
  {
    std::vector<MessageId> ids;
    for (const ModelMessage& message : messages) {
      const auto it = message.deliveries.find(mailbox);
      if (it != message.deliveries.end() && !it->second.archived
          && (include_read || !it->second.read)) {
        ids.push_back(message.id);
      }
    }
    std::sort(ids.begin(), ids.end());
    return ids;
  }
};

enum class Op { send, read, mark_read, mark_unread, archive, unarchive, mark_all_read };

Op pick_op(std::mt19937& rng)
{
  // Sends a quarter of the time so messages pile up while their state churns.
  const int roll = std::uniform_int_distribution<int>(0, 99)(rng);
  if (roll < 25) {
    return Op::send;
  }
  if (roll < 40) {
    return Op::read;
  }
  if (roll < 55) {
    return Op::mark_read;
  }
  if (roll < 70) {
    return Op::mark_unread;
  }
  if (roll < 84) {
    return Op::archive;
  }
  if (roll < 96) {
    return Op::unarchive;
  }
  return Op::mark_all_read;
}

template<typename T>
const T& pick(std::mt19937& rng, const std::vector<T>& items)
{
  return items[std::uniform_int_distribution<std::size_t>(0, items.size() - 1)(rng)];
}

void send_random(Fixture& f, Model& model, std::mt19937& rng, std::string& what)
{
  const Mailbox from = pick(rng, k_mailboxes);
  std::vector<Mailbox> others;
  std::copy_if(k_mailboxes.begin(), k_mailboxes.end(), std::back_inserter(others),
               [&](const Mailbox& m) { return m != from; });
  std::vector<Mailbox> to;
  if (f.caps().multi_recipient) {
    for (const Mailbox& other : others) {
      if (std::bernoulli_distribution(0.5)(rng)) {
        to.push_back(other);
      }
    }
  }
  if (to.empty()) {
    to.push_back(pick(rng, others));
  }
  auto request = f.request(from, to, "s", "b");
  if (f.caps().cc) {
    request.priority = static_cast<mail::Priority>(std::uniform_int_distribution<int>(0, 4)(rng));
  }
  what = "send from " + from + " to " + std::to_string(to.size());
  const auto receipt = f.send(request);
  CHECK(sorted(receipt.recipients) == sorted(to));
  ModelMessage message{receipt.message.id, from, {}};
  for (const Mailbox& recipient : to) {
    message.deliveries[recipient] = ModelDelivery{};
  }
  model.messages.push_back(std::move(message));
  // Ties in created_at happen half the time, so the id tie-break is exercised too.
  if (std::bernoulli_distribution(0.5)(rng)) {
    f.tick();
  }
}

// Applies `op` for `mailbox` on `id` to the provider and the model, checking the outcome.
void act(Fixture& f, Model& model, Op op, const Mailbox& mailbox, const MessageId& id)
{
  mail::Provider& p = f.provider();
  ModelDelivery* delivery = model.delivery(mailbox, id);
  const bool known = std::any_of(model.messages.begin(), model.messages.end(),
                                 [&](const ModelMessage& m) { return m.id == id; });
  const std::string refused = !known ? "not_found" : "not_recipient";
  const auto expect_change = [&](const Result<ChangeOutcome>& result, bool& flag, bool target) {
    if (delivery == nullptr) {
      CHECK(code_of(result) == refused);
      return;
    }
    REQUIRE(code_of(result) == "ok");
    CHECK(result.value() == (flag == target ? ChangeOutcome::already : ChangeOutcome::changed));
    flag = target;
  };
  bool ignored = false;
  switch (op) {
  case Op::read: {
    const auto result = p.read(mailbox, id, deliver_ok);
    if (delivery != nullptr) {
      REQUIRE(code_of(result) == "ok");
      CHECK(result.value().read == delivery->read);
      CHECK(result.value().archived == delivery->archived);
      delivery->read = true;
    } else if (known && model.is_sender(mailbox, id)) {
      CHECK(code_of(result) == "ok");
    } else {
      CHECK(code_of(result) == refused);
    }
    break;
  }
  case Op::mark_read:
    expect_change(p.mark_read(mailbox, id), delivery != nullptr ? delivery->read : ignored, true);
    break;
  case Op::mark_unread:
    expect_change(p.mark_unread(mailbox, id), delivery != nullptr ? delivery->read : ignored, false);
    break;
  case Op::archive:
    expect_change(p.archive(mailbox, id), delivery != nullptr ? delivery->archived : ignored, true);
    break;
  case Op::unarchive:
    if (f.caps().unarchive) {
      expect_change(p.unarchive(mailbox, id), delivery != nullptr ? delivery->archived : ignored,
                    false);
    } else {
      CHECK(code_of(p.unarchive(mailbox, id)) == "unsupported");
    }
    break;
  case Op::send:
  case Op::mark_all_read: break;
  }
}

void mark_all(Fixture& f, Model& model, const Mailbox& mailbox)
{
  const auto expected = model.open(mailbox, false);
  auto changed = MUST(f.provider().mark_all_read(mailbox));
  std::sort(changed.begin(), changed.end());
  CHECK(changed == expected);
  for (const MessageId& id : expected) {
    model.delivery(mailbox, id)->read = true;
  }
}

void check_views(Fixture& f, const Model& model, const Mailbox& mailbox)
{
  INFO("mailbox ", mailbox);
  mail::Provider& p = f.provider();
  mail::ListOptions all_options;
  all_options.include_read = true;
  const auto unread = MUST(p.inbox(mailbox, {}));
  const auto open = MUST(p.inbox(mailbox, all_options));
  const auto check = MUST(p.check(mailbox, 1000));
  const auto check_two = MUST(p.check(mailbox, 2));
  const auto counts = MUST(p.count(mailbox));

  REQUIRE(counts.unread == static_cast<std::int64_t>(unread.size()));
  REQUIRE(counts.unread == check.unread);
  REQUIRE(counts.unread == static_cast<std::int64_t>(check.messages.size()));
  REQUIRE(counts.unread == check_two.unread);
  REQUIRE(counts.total == static_cast<std::int64_t>(open.size()));
  REQUIRE(ids_of(check.messages) == ids_of(unread));
  const std::vector<MessageId> unread_ids = ids_of(unread);
  const auto listed = static_cast<std::ptrdiff_t>(std::min<std::size_t>(2, unread_ids.size()));
  const std::vector<MessageId> first_two(unread_ids.begin(), unread_ids.begin() + listed);
  REQUIRE(ids_of(check_two.messages) == first_two);
  check_inbox_order(unread);
  check_inbox_order(open);

  REQUIRE(sorted(unread_ids) == model.open(mailbox, false));
  REQUIRE(sorted(ids_of(open)) == model.open(mailbox, true));
  const auto model_unread = model.open(mailbox, false);
  for (const mail::Message& message : open) {
    const bool expected_unread = std::binary_search(model_unread.begin(), model_unread.end(), message.id);
    CHECK(message.read == !expected_unread);
    CHECK_FALSE(message.archived);
  }
}

void run_sequence(Fixture& f, unsigned seed, int steps)
{
  Model model;
  std::mt19937 rng(seed);
  for (int step = 0; step < steps; ++step) {
    std::string what;
    INFO("seed ", seed, ", step ", step, ": ", what);
    Op op = pick_op(rng);
    if (model.messages.empty()) {
      op = Op::send;
    }
    const Mailbox mailbox = pick(rng, k_mailboxes);
    if (op == Op::send) {
      send_random(f, model, rng, what);
    } else if (op == Op::mark_all_read) {
      what = "mark_all_read " + mailbox;
      mark_all(f, model, mailbox);
    } else {
      // Now and then an id nobody has, to keep not_found in the mix.
      const MessageId id = std::bernoulli_distribution(0.05)(rng)
                               ? MessageId("nonexistent")
                               : pick(rng, model.messages).id;
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
