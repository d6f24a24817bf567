// The query plans of delivery health and the sweep (EXPLAIN QUERY PLAN), pinned on a seeded store
// with statistics: `peers` reads peer_pairs by key (both directions) and the caller's pending and
// escalated deliveries through their partial indexes — never the messages, never a table scan, so
// it costs the same at any store size; the sweep finds due deliveries through deliveries_due and
// changes each by its key.

#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "beads/sql.hpp"
#include "beads/test_support.hpp"
#include "seeders/beads_seed.hpp"

namespace {

using mailroom::sqlite::Database;
using namespace mailroom::providers::beads; // NOLINT: test only

std::string plan_text(Database& db, std::string_view sql)
{
  auto plan = db.query_plan(sql);
  REQUIRE_MESSAGE(plan.ok(), (plan.ok() ? "" : plan.error().message));
  std::string text;
  for (const auto& line : *plan) {
    text += line + "\n";
  }
  return text;
}

// A SCAN of anything but the peers query's own small result reads a whole table or index: `n`
// (the names list built from two index searches).
bool scans_stored(const std::string& plan)
{
  std::size_t at = 0;
  while ((at = plan.find("SCAN ", at)) != std::string::npos) {
    const bool line_start = at == 0 || plan[at - 1] == '\n';
    const std::string rest = plan.substr(at, plan.find('\n', at) - at);
    const bool own_result = rest == "SCAN n";
    if (line_start && !own_result && rest.rfind("SCAN CONSTANT ROW", 0) != 0) {
      return true;
    }
    at += 5;
  }
  return false;
}

bool has(const std::string& plan, std::string_view part)
{
  return plan.find(part) != std::string::npos;
}

// A seeded store (2,000 messages, 20 mailboxes) where a tenth of the deliveries await an ack, a
// few gave up and some are due, with ANALYZE statistics: the planner sees real proportions.
struct SeededStore {
  testing::TempDir dir;
  Database db;

  static Database open_seeded(const testing::TempDir& dir)
  {
    const auto settings = testing::settings_for((dir.path / "plan.db").string());
    REQUIRE(seed_bench_store(settings, 2000, 20, 0.1, 16).ok());
    auto db = Database::open(settings.path);
    REQUIRE(db.ok());
    REQUIRE(db->execute_script(R"sql(
UPDATE deliveries SET ack_state = 'awaiting_ack', next_attempt_at = created_at + 600000 WHERE message % 10 = 0;
UPDATE deliveries SET ack_state = 'escalated' WHERE message % 100 = 5;
ANALYZE;)sql")
                .ok());
    return std::move(db).value();
  }
  SeededStore() : db(open_seeded(dir)) {}
};

} // namespace

TEST_SUITE("mailroom::providers::beads::sql health")
{
  TEST_CASE("peers reads peer_pairs and the partial indexes, never the history")
  {
    SeededStore store;
    const std::string plan = plan_text(store.db, sqlite_queries().health.select_peers);
    INFO("plan:\n", plan);
    CHECK(has(plan, "SEARCH peer_pairs USING PRIMARY KEY (sender=?)"));
    CHECK(has(plan, "SEARCH peer_pairs USING COVERING INDEX peer_pairs_inbound (recipient=?)"));
    CHECK(has(plan, "SEARCH p USING INDEX deliveries_pending (sender=? AND recipient=?)"));
    CHECK(has(plan, "SEARCH e USING INDEX deliveries_escalated (sender=? AND recipient=?)"));
    CHECK(has(plan, "SEARCH o USING PRIMARY KEY (sender=? AND recipient=?)"));
    CHECK(has(plan, "SEARCH i USING PRIMARY KEY (sender=? AND recipient=?)"));
    CHECK(has(plan, "SEARCH m USING PRIMARY KEY (name=?)"));
    CHECK_FALSE(has(plan, "beads"));
    CHECK_FALSE(has(plan, "deliveries_open"));
    CHECK_FALSE(has(plan, "deliveries_unread"));
    CHECK_FALSE(scans_stored(plan));
  }

  TEST_CASE("the sweep finds due deliveries by next_attempt_at and changes each by its key")
  {
    SeededStore store;
    const auto& health = sqlite_queries().health;
    struct Query {
      const char* name;
      std::string_view sql;
      const char* search; // the index search the plan must contain
    };
    const std::vector<Query> queries = {
        {"select_due", health.select_due, "SEARCH d USING INDEX deliveries_due (next_attempt_at<?)"},
        {"select_due_pairs", health.select_due_pairs,
         "SEARCH deliveries USING INDEX deliveries_due (next_attempt_at<?)"},
        {"select_due_of_pair", health.select_due_of_pair,
         "SEARCH d USING INDEX deliveries_pending (sender=? AND recipient=?)"},
        {"redeliver", health.redeliver, "(message=? AND recipient=?)"},
        {"escalate", health.escalate, "(message=? AND recipient=?)"},
    };
    for (const Query& query : queries) {
      const std::string plan = plan_text(store.db, query.sql);
      INFO(query.name, ":\n", plan);
      CHECK(has(plan, query.search));
      CHECK_FALSE(scans_stored(plan));
    }
    // Due rows join their message by rowid.
    CHECK(has(plan_text(store.db, health.select_due), "SEARCH b USING INTEGER PRIMARY KEY (rowid=?)"));
  }

  TEST_CASE("the scan detector catches a scan and lets the peers list through")
  {
    CHECK(scans_stored("SCAN deliveries\n"));
    CHECK(scans_stored("|--SEARCH x\nSCAN d USING COVERING INDEX deliveries_open\n"));
    CHECK_FALSE(scans_stored("SCAN n\nSEARCH o USING PRIMARY KEY (sender=?)\n"));
    CHECK(scans_stored("SCAN p LEFT-JOIN\n")); // the pending rows are searched per peer now
    CHECK(scans_stored("SCAN peer_pairs\n"));
  }
}
