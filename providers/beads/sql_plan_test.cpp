// The bead store's query plans (EXPLAIN QUERY PLAN), pinned: the hot queries (inbox, check,
// count, mark-read --all) read only their intended index, in inbox order, and no query the
// commands run per call ever scans a table.

#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "beads/schema.hpp"
#include "beads/sql.hpp"
#include "beads/test_support.hpp"
#include "seeders/beads_seed.hpp"

namespace {

using mailroom::sqlite::Database;
using namespace mailroom::providers::beads; // NOLINT: test only

std::vector<std::string> plan_of(Database& db, std::string_view query)
{
  auto plan = db.query_plan(query);
  REQUIRE_MESSAGE(plan.ok(), (plan.ok() ? "" : plan.error().message));
  return std::move(plan).value();
}

// A SCAN reads a whole table (or a whole index); SCAN CONSTANT ROW and subquery scans read
// nothing stored.
bool scans_table(const std::string& line)
{
  if (line.rfind("SCAN ", 0) != 0) {
    return false;
  }
  return line.rfind("SCAN CONSTANT ROW", 0) != 0 && line.find("subquery") == std::string::npos &&
         line.rfind("SCAN (", 0) != 0;
}

bool has_line(const std::vector<std::string>& plan, std::string_view prefix, std::string_view part)
{
  for (const auto& line : plan) {
    if (line.rfind(prefix, 0) == 0 && line.find(part) != std::string::npos) {
      return true;
    }
  }
  return false;
}

// The plans of a seeded file store, with statistics from ANALYZE, so the planner sees real sizes.
struct SeededStore {
  testing::TempDir dir;
  Database db;

  static Database open_seeded(const testing::TempDir& dir)
  {
    const auto settings = testing::settings_for((dir.path / "plan.db").string());
    REQUIRE(seed_bench_store(settings, 2000, 20, 0.1, 16).ok());
    auto db = Database::open(settings.path);
    REQUIRE(db.ok());
    return std::move(db).value();
  }
  SeededStore() : db(open_seeded(dir)) {}
};

} // namespace

TEST_SUITE("mailroom::providers::beads::sql")
{
  TEST_CASE("the hot queries use their intended index, in inbox order, and scan nothing")
  {
    SeededStore store;
    const auto& core = sqlite_queries().core;
    struct Hot {
      const char* name;
      std::string_view sql;
      const char* index; // the deliveries index the query must search
    };
    const std::vector<Hot> hot = {
        {"inbox (select_unread)", core.select_unread, "deliveries_unread"},
        {"inbox --all (select_open)", core.select_open, "deliveries_open"},
        {"mark-read --all (select_unread_ids)", core.select_unread_ids, "deliveries_unread"},
        {"count", core.count, "deliveries_expiring"},
        {"check 0 (count_unread)", core.count_unread, "deliveries_expiring"},
        {"hook: what the mailbox owes (select_awaiting)", core.select_awaiting, "deliveries_owed_unread"},
        {"hook: the class counts (count_classes)", core.count_classes, "deliveries_owed_unread"},
    };
    for (const Hot& query : hot) {
      const auto plan = plan_of(store.db, query.sql);
      std::string text;
      for (const auto& line : plan) {
        text += line + "\n";
      }
      INFO(query.name, ":\n", text);
      CHECK_FALSE(plan.empty());
      for (const auto& line : plan) {
        CHECK_FALSE(scans_table(line));
        // Rows come out of the index already in inbox order.
        CHECK(line.find("TEMP B-TREE") == std::string::npos);
      }
      CHECK(has_line(plan, "SEARCH ", std::string("INDEX ") + query.index + " ("));
    }
    // Lists join each delivery to its message by rowid; the totals come from the counters.
    // The urgent count searches the unread index by its priority prefix.
    CHECK(has_line(plan_of(store.db, core.count_classes), "SEARCH ",
                   "INDEX deliveries_unread (recipient=? AND priority=?)"));
    // The owed counts read only the owed index (a cold hook reads no page of the table per owed
    // delivery).
    CHECK(has_line(plan_of(store.db, core.count_classes), "SEARCH ",
                   "COVERING INDEX deliveries_owed_unread (recipient=?)"));
    for (const std::string_view sql :
         {core.select_unread, core.select_open, core.select_unread_ids, core.select_awaiting}) {
      CHECK(has_line(plan_of(store.db, sql), "SEARCH b ", "USING INTEGER PRIMARY KEY (rowid=?)"));
    }
    for (const std::string_view sql : {core.count, core.count_unread}) {
      const auto plan = plan_of(store.db, sql);
      CHECK(has_line(plan, "SEARCH c ", "USING PRIMARY KEY (recipient=?)"));
      CHECK_FALSE(has_line(plan, "", "beads"));
      // Only the expired unread deliveries, found by their own index (SQLite 3.40 still reads
      // each one's row to re-check read_at and archived_at).
      CHECK(has_line(plan, "SEARCH deliveries ", "INDEX deliveries_expiring (recipient=? AND expires_at"));
    }
  }

  TEST_CASE("no query a command runs per call scans a table")
  {
    SeededStore store;
    const auto& core = sqlite_queries().core;
    const auto& views = sqlite_queries().views;
    const std::vector<std::pair<const char*, std::string_view>> queries = {
        {"get", core.select_message},
        {"thread", core.select_thread},
        {"resolve thread", core.resolve_thread},
        {"idempotency key", core.select_key},
        {"id exists", core.id_exists},
        {"delivery of", core.delivery_of},
        {"mark-read", core.mark_read},
        {"mark-unread", core.mark_unread},
        {"archive", core.archive},
        {"unarchive", core.unarchive},
        {"ack", core.ack},
        {"reply acks", core.ack_reply},
        {"mark-read --all", core.mark_all_read},
        {"mailbox", core.select_mailbox},
        {"touch", core.touch_mailbox},
        {"id prefix", views.ids_with_prefix},
        {"status", views.select_status},
        {"resolve trace", views.resolve_trace},
        {"trace", views.select_trace},
    };
    for (const auto& [name, query] : queries) {
      const auto plan = plan_of(store.db, query);
      for (const auto& line : plan) {
        INFO(name << ": " << line);
        CHECK_FALSE(scans_table(line));
      }
    }
  }

  TEST_CASE("the scan detector catches a scan")
  {
    Database db = std::move(Database::open(":memory:")).value();
    REQUIRE(migrate(db, RowRewrites::allow).ok());
    bool found = false;
    for (const auto& line : plan_of(db, "SELECT count(*) FROM deliveries WHERE kind = 'cc'")) {
      found = found || scans_table(line);
    }
    CHECK(found);
    CHECK_FALSE(scans_table("SCAN CONSTANT ROW"));
    CHECK(scans_table("SCAN d USING COVERING INDEX deliveries_open"));
  }
}
