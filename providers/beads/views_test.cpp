// The bead store's side of search and transfer: the FTS5 index and the trigger-kept tables stay
// exactly what the rows say after archive, reply, import and purge; the list, search and
// transfer statements read their indexes; the FTS5 rendering quotes every term.

#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "beads/fts5_rank.hpp"
#include "beads/sql.hpp"
#include "beads/test_support.hpp"
#include "beads/visibility.hpp"
#include "seeders/beads_seed.hpp"
#include "sqlstore/search_syntax.hpp"
#include "testing/reach.hpp"

namespace {

using mailroom::mail::Change;
using namespace mailroom::providers::beads::testing; // NOLINT: test helpers only

// Fails when the FTS5 index and the beads table disagree in either direction.
void check_search_index(mailroom::sqlite::Database& db)
{
  const auto checked =
      db.execute_script("INSERT INTO beads_fts (beads_fts, rank) VALUES ('integrity-check', 1)");
  CHECK_MESSAGE(checked.ok(), (checked.ok() ? "" : checked.error().message));
  CHECK(scalar(db, "SELECT count(*) FROM beads_fts") == scalar(db, "SELECT count(*) FROM beads"));
}

// Fails when a trigger-kept table disagrees with a recount from the rows. The per-pair times are
// history (purge keeps them), so they are compared only where nothing was purged.
void check_kept_tables(mailroom::sqlite::Database& db, bool pairs = true)
{
  CHECK(visibility_mismatches(db) == "0");
  CHECK(scalar(db, R"sql(
SELECT count(*) FROM (SELECT recipient FROM deliveries GROUP BY recipient) AS r
LEFT JOIN mailbox_counts AS c ON c.recipient = r.recipient
WHERE coalesce(c.total, 0) <> (SELECT count(*) FROM deliveries AS d WHERE d.recipient = r.recipient AND d.archived_at IS NULL)
   OR coalesce(c.unread, 0) <> (SELECT count(*) FROM deliveries AS d
                                WHERE d.recipient = r.recipient AND d.archived_at IS NULL AND d.read_at IS NULL))sql") ==
        "0");
  if (!pairs) {
    return;
  }
  CHECK(scalar(db, R"sql(
SELECT count(*) FROM (SELECT sender, recipient, max(created_at) AS sent, max(acked_at) AS acked
                      FROM deliveries GROUP BY sender, recipient) AS r
LEFT JOIN peer_pairs AS p ON p.sender = r.sender AND p.recipient = r.recipient
WHERE p.sender IS NULL OR p.last_sent_at IS NOT r.sent OR p.last_acked_at IS NOT r.acked)sql") == "0");
}

std::vector<mailroom::mail::Record> export_all(mailroom::providers::sqlstore::SqlStore& store)
{
  std::vector<mailroom::mail::Record> records;
  REQUIRE(store
              .export_records({},
                              [&](const mailroom::mail::Record& r) {
                                records.push_back(r);
                                return mailroom::Result<void>();
                              })
              .ok());
  return records;
}

mailroom::mail::ListQuery search(const std::string& viewer, const std::string& text)
{
  mailroom::mail::ListQuery query;
  query.mailbox = viewer;
  query.box = mailroom::mail::Box::search;
  query.search = text;
  return query;
}

bool scans_table(const std::string& line)
{
  return line.rfind("SCAN ", 0) == 0 && line.rfind("SCAN CONSTANT ROW", 0) != 0 &&
         line.find("subquery") == std::string::npos && line.find("VIRTUAL TABLE INDEX") == std::string::npos;
}

} // namespace

TEST_SUITE("mailroom::providers::beads views")
{
  TEST_CASE("search index and kept tables follow send, archive, reply, import and purge")
  {
    FixedClock clock;
    auto a = open_store(":memory:", clock);
    REQUIRE(mailroom::testing::reach(*a).add_agents({"ann", "ben", "cat"}).ok());
    auto task = message("ann", "ben", "kestrel task");
    task.type = "task_request";
    task.cc = {"cat"};
    const auto sent = a->send(task);
    REQUIRE(sent.ok());
    clock.advance(1000);
    REQUIRE(a->send(message("cat", "ann", "kestrel note")).ok());
    mailroom::mail::ReplyRequest reply;
    reply.from = "ben";
    reply.id = sent->message.id;
    reply.body = "kestrel done";
    REQUIRE(a->reply(reply).ok());
    REQUIRE(a->change(as("cat"), sent->message.id, Change::archive).ok());
    auto& adb = database_of(*a);
    check_search_index(adb);
    check_kept_tables(adb);

    // An imported delivery that was already acked counts in the pair's last ack, as a live ack does.
    const auto records = export_all(*a);
    auto b = open_store(":memory:", clock);
    mailroom::mail::VectorSource source(records);
    REQUIRE(mailroom::testing::reach(*b).import_records(source).ok());
    auto& bdb = database_of(*b);
    check_search_index(bdb);
    check_kept_tables(bdb);
    CHECK(scalar(bdb, "SELECT count(*) FROM peer_pairs WHERE last_acked_at IS NOT NULL") == "1");
    CHECK(b->list(search("ann", "kestrel"))->total == 3);

    // Purge: the index loses exactly the purged messages.
    REQUIRE(b->change(as("ann"), a->list(search("ann", "note"))->messages.front().message.id, Change::archive)
                .ok());
    clock.advance(10 * mailroom::mail::k_day_ms);
    mailroom::mail::PurgeRequest purge;
    purge.older_than = mailroom::mail::k_day_ms;
    const auto purged = mailroom::testing::reach(*b).purge(purge);
    REQUIRE(purged.ok());
    CHECK(purged->messages == 1);
    check_search_index(bdb);
    check_kept_tables(bdb, false);
    CHECK(b->list(search("ann", "kestrel"))->total == 2);
    auto dangling = bdb.prepare("PRAGMA foreign_key_check");
    REQUIRE(dangling.ok());
    CHECK_FALSE(dangling->step().value());
  }

  TEST_CASE("a malformed match expression is a usage error, not a store failure")
  {
    // The renderer never produces one; this is the guard behind it.
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    auto& db = database_of(*store);
    auto statement = db.prepare(mailroom::providers::beads::sqlite_queries().lists.search_hits);
    REQUIRE(statement.ok());
    const std::string bad = "\"unterminated";
    REQUIRE(statement
                ->bind("ann", std::int64_t{0}, std::int64_t{0}, std::int64_t{0}, std::nullopt, std::nullopt,
                       std::nullopt, std::nullopt, std::nullopt, std::nullopt, false, false, std::nullopt,
                       bad)
                .ok());
    const auto stepped = statement->step();
    REQUIRE_FALSE(stepped.ok());
    // FTS5's wording varies between SQLite versions ("fts5: syntax error near ...", "unterminated
    // string"); the store turns either into a usage error.
    CHECK_FALSE(stepped.error().message.empty());
  }

  TEST_CASE("the FTS5 rendering quotes every term")
  {
    using mailroom::mail::parse_search_query;
    using mailroom::providers::sqlstore::k_fts5_syntax;
    using mailroom::providers::sqlstore::render_search;
    const auto fts5 = [](std::string_view text) {
      return render_search(parse_search_query(text).value(), k_fts5_syntax);
    };
    CHECK(fts5("deploy") == "\"deploy\"");
    CHECK(fts5("deploy* \"build failed\"") == "(\"deploy\"* AND \"build failed\")");
    CHECK(fts5("a OR b NOT c") == "(\"a\" OR (\"b\" NOT \"c\"))");
    CHECK(fts5("subject:x NEAR(a b) ^c") == "(\"subject:x\" AND \"NEAR\" AND (\"a\" AND \"b\") AND \"^c\")");
    CHECK(fts5("say\"hi\"") == "(\"say\" AND \"hi\")");
  }

  TEST_CASE("list, search and transfer statements read their indexes")
  {
    TempDir dir;
    const auto settings = settings_for((dir.path / "plan.db").string());
    REQUIRE(mailroom::providers::beads::seed_bench_store(settings, 2000, 20, 0.1, 16).ok());
    auto opened = mailroom::sqlite::Database::open(settings.path);
    REQUIRE(opened.ok());
    auto& db = *opened;
    REQUIRE(mailroom::providers::beads::register_rank(db).ok());
    REQUIRE(mailroom::providers::beads::register_visibility(db).ok());
    const auto& sql = mailroom::providers::beads::sqlite_queries();
    const auto& visibility = mailroom::providers::beads::sqlite_visibility_queries();
    const std::vector<std::pair<const char*, std::string_view>> queries = {
        {"inbox", sql.lists.inbox},
        {"inbox count", sql.lists.inbox_count},
        {"inbox --archived", sql.lists.inbox_archived},
        {"inbox --archived count", sql.lists.inbox_archived_count},
        {"sent", sql.lists.sent},
        {"sent count", sql.lists.sent_count},
        {"sent summary", sql.lists.sent_summary},
        {"search", sql.lists.search_hits},
        {"search without filters", visibility.unfiltered_search},
        {"message by seq", sql.lists.message_by_seq},
        {"import: message", sql.transfer.message_seq},
        {"import: delivery", sql.transfer.delivery},
        {"import: key", sql.transfer.key},
        {"purge: keys", sql.transfer.release_keys},
        {"purge: deliveries", sql.transfer.delete_deliveries},
        {"purge: message", sql.transfer.delete_message},
        {"purge: clear visible", visibility.clear},
        {"purge: drop invisible", visibility.drop},
        {"send, import: mark visible", visibility.mark},
        {"export: deliveries", sql.transfer.deliveries},
        {"events after a seq", sql.events.after},
        {"events: prune", sql.events.prune},
    };
    // Without filters, who may see a match comes from the visibility bits, not a table per match.
    const auto unfiltered = db.query_plan(visibility.unfiltered_search);
    REQUIRE(unfiltered.ok());
    std::string unfiltered_text;
    for (const auto& line : *unfiltered) {
      unfiltered_text += line + "\n";
    }
    INFO(unfiltered_text);
    CHECK(unfiltered_text.find("VIRTUAL TABLE INDEX") != std::string::npos);
    CHECK(unfiltered_text.find("deliveries") == std::string::npos);
    CHECK(unfiltered_text.find("beads ") == std::string::npos);
    for (const auto& [name, query] : queries) {
      const auto plan = db.query_plan(query);
      REQUIRE_MESSAGE(plan.ok(), name, ": ", (plan.ok() ? "" : plan.error().message));
      for (const auto& line : *plan) {
        INFO(name << ": " << line);
        CHECK_FALSE(scans_table(line));
      }
    }
  }
}
