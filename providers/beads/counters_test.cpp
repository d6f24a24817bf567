// The per-mailbox counters (mailbox_counts, kept by triggers in the same transaction as every
// change) against a full recount on the database, after random sends (to, cc, @all, with and
// without a ttl), reads, replies, mark-read/unread, archive/unarchive and a clock moving past
// expiry. count() is the counters less the expired unread deliveries; both must stay exact.

#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "beads/test_support.hpp"
#include "testing/reach.hpp"

namespace {

using mailroom::mail::Change;
using mailroom::mail::Counts;
using namespace mailroom::providers::beads::testing; // NOLINT: test helpers only

const std::vector<std::string> k_names = {"ann", "ben", "cat", "dan", "eve"};

// Every delivery of `mailbox`, counted from the rows: expiry from the message, not the copy.
constexpr std::string_view k_recount = R"sql(
SELECT coalesce(sum(d.archived_at IS NULL), 0) AS total,
       coalesce(sum(d.archived_at IS NULL AND d.read_at IS NULL
                    AND (b.expires_at IS NULL OR b.expires_at > ?2)), 0) AS unread,
       coalesce(sum(d.archived_at IS NULL AND d.read_at IS NULL), 0) AS unread_ignoring_expiry
FROM deliveries AS d JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1)sql";

constexpr std::string_view k_counters = R"sql(
SELECT coalesce(max(total), 0) AS total, coalesce(max(unread), 0) AS unread
FROM mailbox_counts WHERE recipient = ?1)sql";

struct Recount {
  Counts counts;         // what count() must say at `now`
  Counts without_expiry; // what the counters table must hold
};

Recount recount(mailroom::sqlite::Database& db, const std::string& mailbox, mailroom::mail::UnixMillis now)
{
  auto statement = db.prepare(k_recount);
  REQUIRE(statement.ok());
  REQUIRE(statement->bind(mailbox, now).ok());
  auto row = statement->step();
  REQUIRE(row.ok());
  REQUIRE(*row);
  Recount out;
  out.counts.total = statement->get<std::int64_t>("total");
  out.counts.unread = statement->get<std::int64_t>("unread");
  out.without_expiry.total = out.counts.total;
  out.without_expiry.unread = statement->get<std::int64_t>("unread_ignoring_expiry");
  statement->reset();
  return out;
}

Counts counters(mailroom::sqlite::Database& db, const std::string& mailbox)
{
  auto statement = db.prepare(k_counters);
  REQUIRE(statement.ok());
  REQUIRE(statement->bind(mailbox).ok());
  auto row = statement->step();
  REQUIRE(row.ok());
  REQUIRE(*row);
  Counts out{statement->get<std::int64_t>("total"), statement->get<std::int64_t>("unread")};
  statement->reset();
  return out;
}

template <typename T> const T& pick(std::mt19937& rng, const std::vector<T>& items)
{
  return items[std::uniform_int_distribution<std::size_t>(0, items.size() - 1)(rng)];
}

// One random send: to and cc from the names, now and then @all, a third of them expiring soon.
void send_random(mailroom::providers::sqlstore::SqlStore& store, std::mt19937& rng,
                 std::vector<std::string>& ids)
{
  auto request = message(pick(rng, k_names), "", "m");
  request.to.clear();
  if (std::bernoulli_distribution(0.15)(rng)) {
    request.to.emplace_back("@all");
  }
  for (const std::string& name : k_names) {
    const int roll = std::uniform_int_distribution<int>(0, 9)(rng);
    if (roll < 3) {
      request.to.push_back(name);
    } else if (roll < 5) {
      request.cc.push_back(name);
    }
  }
  if (request.to.empty() && request.cc.empty()) {
    request.to.push_back(pick(rng, k_names));
  }
  if (std::bernoulli_distribution(0.33)(rng)) {
    request.ttl = std::uniform_int_distribution<std::int64_t>(1, 4)(rng) * 1000;
  }
  auto sent = store.send(request);
  // Never an empty audience: @all from any name reaches the four others.
  REQUIRE_MESSAGE(sent.ok(), (sent.ok() ? "" : sent.error().message));
  ids.push_back(sent->message.id);
}

void run_sequence(unsigned seed, int steps)
{
  FixedClock clock;
  auto store = open_store(":memory:", clock);
  REQUIRE(mailroom::testing::reach(*store).add_agents(k_names).ok());
  auto& db = database_of(*store);
  std::mt19937 rng(seed);
  std::vector<std::string> ids;
  for (int step = 0; step < steps; ++step) {
    const int op = ids.empty() ? 0 : std::uniform_int_distribution<int>(0, 9)(rng);
    const std::string who = pick(rng, k_names);
    INFO("seed ", seed, ", step ", step, ", op ", op, " by ", who);
    const auto id = ids.empty() ? std::string() : pick(rng, ids);
    // Refusals (not a recipient, already so) are fine; store failures are not.
    const auto acceptable = [](const auto& result) {
      return result.ok() || result.error().code == mailroom::ErrorCode::not_recipient;
    };
    switch (op) {
    case 0:
    case 1:
      send_random(*store, rng, ids);
      break;
    case 2:
      CHECK(acceptable(store->read(as(who), id, [](const auto&) { return mailroom::Result<void>(); })));
      break;
    case 3:
      CHECK(acceptable(store->change(as(who), id, Change::mark_read)));
      break;
    case 4:
      CHECK(acceptable(store->change(as(who), id, Change::mark_unread)));
      break;
    case 5:
      CHECK(acceptable(store->change(as(who), id, Change::archive)));
      break;
    case 6:
      CHECK(acceptable(store->change(as(who), id, Change::unarchive)));
      break;
    case 7: {
      mailroom::mail::ReplyRequest reply;
      reply.from = who;
      reply.id = id;
      reply.body = "r";
      auto replied = store->reply(reply);
      const bool alone = !replied.ok() && replied.error().code == mailroom::ErrorCode::usage;
      CHECK((acceptable(replied) || alone));
      if (replied.ok()) {
        ids.push_back(replied->message.id);
      }
      break;
    }
    case 8:
      CHECK(store->mark_all_read(who).ok());
      break;
    default:
      clock.advance(std::uniform_int_distribution<std::int64_t>(500, 2500)(rng));
      break;
    }
    const auto now = clock.now();
    const auto agents = mailroom::testing::reach(*store).agents();
    REQUIRE(agents.ok());
    REQUIRE(agents->size() == k_names.size());
    for (std::size_t i = 0; i < k_names.size(); ++i) {
      const std::string& name = k_names[i];
      INFO("mailbox ", name);
      const Recount expected = recount(db, name, now);
      const Counts table = counters(db, name);
      CHECK(table.total == expected.without_expiry.total);
      CHECK(table.unread == expected.without_expiry.unread);
      const auto counted = store->count(name);
      REQUIRE(counted.ok());
      CHECK(counted->total == expected.counts.total);
      CHECK(counted->unread == expected.counts.unread);
      CHECK((*agents)[i].unread == expected.counts.unread);
      CHECK(store->check(name, 0, std::nullopt)->unread == expected.counts.unread);
    }
  }
}

} // namespace

TEST_SUITE("mailroom::providers::beads::counters")
{
  TEST_CASE("mailbox_counts equals a full recount after random sends, changes and expiry")
  {
    for (unsigned seed = 1; seed <= 6; ++seed) {
      run_sequence(seed, 150);
    }
  }
}
