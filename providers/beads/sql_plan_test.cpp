#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "beads/schema.hpp"
#include "beads/seed.hpp"
#include "beads/sql.hpp"
#include "beads/test_support.hpp"

namespace {

using mailroom::sqlite::Database;
using namespace mailroom::providers::beads; // NOLINT: test only

std::vector<std::string> plan_of(Database& db, std::string_view query)
{
  auto plan = db.query_plan(query);
  REQUIRE_MESSAGE(plan.ok(), (plan.ok() ? "" : plan.error().message));
  return std::move(plan).value();
}

// A SCAN of beads or deliveries (by name or by the aliases b and d) reads the whole table.
bool scans_big_table(const std::string& line)
{
  for (const char* table : {"SCAN beads", "SCAN deliveries", "SCAN b", "SCAN d"}) {
    const std::string prefix = table;
    if (line.rfind(prefix, 0) == 0 &&
        (line.size() == prefix.size() || line[prefix.size()] == ' ')) {
      return true;
    }
  }
  return false;
}

} // namespace

TEST_SUITE("mailroom::providers::beads::sql")
{
  TEST_CASE("inbox, check and count never scan beads or deliveries")
  {
    testing::TempDir dir;
    mailroom::mail::StoreSettings settings;
    settings.path = (dir.path / "plan.db").string();
    // With statistics from a realistic store, so the planner sees real table sizes.
    REQUIRE(seed_bench_store(settings, 2000, 20, 0.1, 16).ok());
    auto db = Database::open(settings.path);
    REQUIRE(db.ok());

    const std::vector<std::pair<const char*, std::string_view>> queries = {
        {"inbox", sql::k_select_unread},         {"inbox --all", sql::k_select_open},
        {"count", sql::k_count},                 {"check 0", sql::k_count_unread},
        {"check", sql::k_check},                 {"mark-read --all", sql::k_select_unread_ids},
        {"get", sql::k_select_message},          {"thread", sql::k_select_thread},
        {"resolve thread", sql::k_resolve_thread}, {"agents", sql::k_select_agents},
    };
    for (const auto& [name, query] : queries) {
      const auto plan = plan_of(*db, query);
      for (const auto& line : plan) {
        INFO(name << ": " << line);
        CHECK_FALSE(scans_big_table(line));
      }
      CHECK_FALSE(plan.empty());
    }
  }

  TEST_CASE("count and check with no listing read only the covering index")
  {
    Database db = std::move(Database::open(":memory:")).value();
    REQUIRE(migrate(db).ok());
    for (const std::string_view query : {sql::k_count, sql::k_count_unread}) {
      for (const auto& line : plan_of(db, query)) {
        INFO(line);
        CHECK(line.find("beads") == std::string::npos);
        if (line.rfind("SEARCH deliveries", 0) == 0) {
          CHECK(line.find("USING COVERING INDEX deliveries_") != std::string::npos);
        }
      }
    }
  }

  TEST_CASE("the scan detector catches a scan")
  {
    Database db = std::move(Database::open(":memory:")).value();
    REQUIRE(migrate(db).ok());
    bool found = false;
    for (const auto& line : plan_of(db, "SELECT count(*) FROM deliveries WHERE kind = 'cc'")) {
      found = found || scans_big_table(line);
    }
    CHECK(found);
  }
}
