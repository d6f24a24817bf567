// mailroom_visible and the visibility table behind it (visibility.hpp): the answer equals the
// rows' (sender or delivery) for every mailbox and message, whatever order the seqs come in, and
// purge keeps the table exact.

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "beads/test_support.hpp"
#include "testing/reach.hpp"

namespace {

using mailroom::mail::Change;
using namespace mailroom::providers::beads::testing; // NOLINT: test helpers only

// mailroom_visible(who, seq) for each of `seqs`, called in that order within one statement.
std::vector<std::int64_t> visible_in_order(mailroom::sqlite::Database& db, const std::string& who,
                                           const std::vector<std::int64_t>& seqs)
{
  // json_each yields the array's elements in order, so the function sees the seqs in that order.
  auto statement = db.prepare("SELECT mailroom_visible(?1, j.value) FROM json_each(?2) AS j");
  REQUIRE(statement.ok());
  const std::string array = fmt::format("[{}]", fmt::join(seqs, ","));
  REQUIRE(statement->bind(who, array).ok());
  std::vector<std::int64_t> out;
  REQUIRE(
      statement
          ->for_each_row([&](const mailroom::db::Statement& row) { out.push_back(row.get<std::int64_t>(0)); })
          .ok());
  return out;
}

// What the rows say: 1 when `who` sent message seq or has a delivery of it.
std::map<std::int64_t, std::int64_t> expected_for(mailroom::sqlite::Database& db, const std::string& who)
{
  auto statement = db.prepare("SELECT b.seq, (b.sender = ?1 OR EXISTS (SELECT 1 FROM deliveries AS d "
                              "WHERE d.message = b.seq AND d.recipient = ?1)) FROM beads AS b");
  REQUIRE(statement.ok());
  REQUIRE(statement->bind(who).ok());
  std::map<std::int64_t, std::int64_t> out;
  REQUIRE(statement
              ->for_each_row([&](const mailroom::db::Statement& row) {
                out[row.get<std::int64_t>(0)] = row.get<std::int64_t>(1);
              })
              .ok());
  return out;
}

} // namespace

TEST_SUITE("mailroom::providers::beads::visibility")
{
  TEST_CASE("mailroom_visible answers what the rows say, for any order of seqs")
  {
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    const std::vector<std::string> names = {"ann", "ben", "cat", "dan", "eve"};
    REQUIRE(mailroom::testing::reach(*store).add_agents(names).ok());
    // 300 messages over five 64-seq words; eve is on only two, far apart (a gap the cursor
    // crosses with a seek), and every tenth message is sent to its own sender.
    for (int i = 0; i < 300; ++i) {
      const std::string& from = names[static_cast<std::size_t>(i % 4)];
      const std::string& to = i % 10 == 0 ? from : names[static_cast<std::size_t>((i * 7 + 1) % 4)];
      auto request = message(from, to, fmt::format("note {}", i));
      if (i == 3 || i == 290) {
        request.cc = {"eve"};
      }
      REQUIRE(store->send(request).ok());
    }
    auto& db = database_of(*store);
    REQUIRE(visibility_mismatches(db) == "0");

    std::vector<std::int64_t> seqs;
    for (std::int64_t seq = -1; seq <= 400; ++seq) { // includes seqs that are no message
      seqs.push_back(seq);
    }
    std::vector<std::int64_t> shuffled = seqs;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(7));
    std::vector<std::int64_t> descending(seqs.rbegin(), seqs.rend());
    std::vector<std::int64_t> repeated;
    for (std::int64_t seq = 1; seq <= 300; seq += 37) {
      repeated.insert(repeated.end(), {seq, seq, seq + 64, seq});
    }
    for (const std::string who : {"ann", "ben", "cat", "dan", "eve", "nobody"}) {
      const auto expected = expected_for(db, who);
      for (const auto* order : {&seqs, &shuffled, &descending, &repeated}) {
        const auto got = visible_in_order(db, who, *order);
        REQUIRE(got.size() == order->size());
        for (std::size_t i = 0; i < got.size(); ++i) {
          const auto found = expected.find((*order)[i]);
          const std::int64_t want = found == expected.end() ? 0 : found->second;
          INFO(who, " seq ", (*order)[i], " at position ", i);
          CHECK(got[i] == want);
        }
      }
    }
    CHECK(expected_for(db, "eve").size() == 300);
    CHECK(std::count_if(seqs.begin(), seqs.end(), [&](std::int64_t seq) {
            return visible_in_order(db, "eve", {seq}).front() == 1;
          }) == 2);
  }

  TEST_CASE("purge clears a message's bits for its sender and recipients, and drops empty words")
  {
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    REQUIRE(mailroom::testing::reach(*store).add_agents({"ann", "ben"}).ok());
    const auto to_self = store->send(message("ann", "ann", "to myself"));
    const auto to_ben = store->send(message("ann", "ben", "to ben"));
    const auto to_ann = store->send(message("ben", "ann", "to ann"));
    REQUIRE(to_self.ok());
    REQUIRE(to_ben.ok());
    REQUIRE(to_ann.ok());
    auto& db = database_of(*store);
    CHECK(scalar(db, "SELECT group_concat(who || ':' || bits, ' ') FROM visibility") == "ann:14 ben:12");
    REQUIRE(store->change(as("ann"), to_self->message.id, Change::archive).ok());
    REQUIRE(store->change(as("ben"), to_ben->message.id, Change::archive).ok());
    clock.advance(10 * mailroom::mail::k_day_ms);
    mailroom::mail::PurgeRequest purge;
    purge.older_than = mailroom::mail::k_day_ms;
    const auto purged = mailroom::testing::reach(*store).purge(purge);
    REQUIRE(purged.ok());
    CHECK(purged->messages == 2);
    CHECK(scalar(db, "SELECT group_concat(who || ':' || bits, ' ') FROM visibility") == "ann:8 ben:8");
    CHECK(visibility_mismatches(db) == "0");

    // The last bit of a word takes its row with it.
    REQUIRE(store->change(as("ann"), to_ann->message.id, Change::archive).ok());
    clock.advance(10 * mailroom::mail::k_day_ms);
    REQUIRE(mailroom::testing::reach(*store).purge(purge).ok());
    CHECK(scalar(db, "SELECT count(*) FROM visibility") == "0");
    CHECK(visibility_mismatches(db) == "0");
  }
}
