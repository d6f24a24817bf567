// mailroom_rank (fts5_rank.hpp) on a plain FTS5 table: where a word occurs counts by the column's
// weight, more occurrences count for more but saturate, and the score is what the header says.

#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "beads/fts5_rank.hpp"
#include "beads/test_support.hpp"

namespace {

using mailroom::sqlite::Database;

Database ranked_table()
{
  auto db = Database::open(":memory:");
  REQUIRE(db.ok());
  REQUIRE(mailroom::providers::beads::register_rank(*db).ok());
  REQUIRE(db->execute_script(R"sql(
CREATE VIRTUAL TABLE t USING fts5(subject, body, sender);
INSERT INTO t (rowid, subject, body, sender) VALUES
  (1, 'weekly digest', 'a long body that mentions kestrel once', 'alice'),
  (2, 'kestrel sighting', 'nothing else', 'alice'),
  (3, 'notes', 'kestrel kestrel kestrel', 'alice'),
  (4, 'notes', 'from the kestrel watcher', 'kestrel'),
  (5, 'unrelated', 'no bird here', 'bob');)sql")
              .ok());
  return std::move(db).value();
}

std::vector<std::string> ranked(Database& db, std::string_view match)
{
  auto statement = db.prepare(std::string("SELECT rowid AS id FROM t WHERE t MATCH '") + std::string(match) +
                              "' ORDER BY mailroom_rank(t, 4.0, 1.0, 2.0), rowid DESC");
  REQUIRE(statement.ok());
  std::vector<std::string> ids;
  REQUIRE(statement
              ->for_each_row([&](const mailroom::db::Statement& row) {
                ids.push_back(std::to_string(row.get<std::int64_t>("id")));
              })
              .ok());
  return ids;
}

} // namespace

TEST_SUITE("mailroom::providers::beads fts5 rank")
{
  TEST_CASE("a subject match outranks the sender, which outranks the body; repeats count, saturating")
  {
    Database db = ranked_table();
    // 2: subject 4/2.2 = 1.82. 4: sender 2/2.2 + body 1/2.2 = 1.36. 3: body 3/4.2 = 0.71.
    // 1: body 1/2.2 = 0.45.
    CHECK(ranked(db, "kestrel") == std::vector<std::string>{"2", "4", "3", "1"});
    CHECK(ranked(db, "bird") == std::vector<std::string>{"5"});
  }

  TEST_CASE("the score is minus the weighted, saturated term frequency")
  {
    Database db = ranked_table();
    const std::string score = mailroom::providers::beads::testing::scalar(
        db, "SELECT mailroom_rank(t, 4.0, 1.0, 2.0) FROM t WHERE t MATCH 'kestrel' AND rowid = 3");
    CHECK(std::abs(std::stod(score) - (-3.0 / 4.2)) < 1e-9);
    // Weights left out count 1.0.
    const std::string unweighted = mailroom::providers::beads::testing::scalar(
        db, "SELECT mailroom_rank(t) FROM t WHERE t MATCH 'kestrel' AND rowid = 2");
    CHECK(std::abs(std::stod(unweighted) - (-1.0 / 2.2)) < 1e-9);
  }

  TEST_CASE("a connection without it cannot use it")
  {
    auto db = Database::open(":memory:");
    REQUIRE(db.ok());
    REQUIRE(db->execute_script("CREATE VIRTUAL TABLE t USING fts5(subject)").ok());
    CHECK_FALSE(db->prepare("SELECT mailroom_rank(t) FROM t WHERE t MATCH 'x'").ok());
  }
}
