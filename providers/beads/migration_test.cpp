// Migrating a real store written by the previous release (schema v1, testdata/stores/v1.db) to
// this build's schema: every message and every per-recipient read/archived state survives, as the
// previous release printed them with `--json inbox --all` (testdata/stores/v1-expected.jsonl),
// traces are filled in and the counters are backfilled.

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "beads/schema.hpp"
#include "beads/test_support.hpp"
#include "mail/duration.hpp"
#include "mail/limits.hpp"
#include "testing/reach.hpp"

namespace {

using mailroom::mail::Access;
using mailroom::mail::Message;
using mailroom::providers::sqlstore::SqlStore;
using namespace mailroom::providers::beads::testing; // NOLINT: test helpers only

const std::string k_fixtures = std::string(MAILROOM_TESTDATA_DIR) + "/stores";

// The previous release's `--json inbox --all` per mailbox.
std::map<std::string, nlohmann::json> expected_inboxes()
{
  std::ifstream in(k_fixtures + "/v1-expected.jsonl");
  REQUIRE(in.good());
  std::map<std::string, nlohmann::json> out;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) {
      const auto doc = nlohmann::json::parse(line);
      out[doc.at("mailbox").get<std::string>()] = doc.at("messages");
    }
  }
  REQUIRE(out.size() == 4);
  return out;
}

// A private copy of the v1 store in `dir`.
std::string copy_v1(const TempDir& dir)
{
  const auto path = dir.path / "mail.db";
  std::filesystem::copy_file(k_fixtures + "/v1.db", path);
  return path.string();
}

std::vector<std::string> strings(const nlohmann::json& list)
{
  return list.get<std::vector<std::string>>();
}

bool is_lower_hex(const std::string& text, std::size_t size)
{
  return text.size() == size && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::vector<Message> inbox_all(SqlStore& store, const std::string& mailbox)
{
  mailroom::mail::ListQuery query;
  query.mailbox = mailbox;
  query.include_read = true;
  auto listed = store.list(query);
  REQUIRE(listed.ok());
  std::vector<Message> messages;
  for (auto& entry : listed->messages) {
    messages.push_back(std::move(entry.message));
  }
  return messages;
}

// Checks every message and per-recipient state of `store` against the previous release's output.
void check_survived(SqlStore& store)
{
  const auto expected = expected_inboxes();
  std::map<std::string, nlohmann::json> by_id; // every message any mailbox listed
  for (const auto& [mailbox, messages] : expected) {
    INFO("mailbox ", mailbox);
    const auto listed = inbox_all(store, mailbox);
    REQUIRE(listed.size() == messages.size());
    std::int64_t unread = 0;
    for (std::size_t i = 0; i < listed.size(); ++i) {
      const nlohmann::json& want = messages[i];
      const Message& got = listed[i];
      INFO("message ", i, ": ", want.dump());
      CHECK(got.id == want.at("id").get<std::string>());
      CHECK(got.from == want.at("from").get<std::string>());
      CHECK(got.to == strings(want.at("to")));
      CHECK(got.cc == strings(want.at("cc")));
      CHECK(got.subject == want.at("subject").get<std::string>());
      CHECK(got.body == want.at("body").get<std::string>());
      CHECK(got.thread_id == want.at("thread_id").get<std::string>());
      CHECK(got.reply_to == (want.at("reply_to").is_null()
                                 ? std::nullopt
                                 : std::optional(want.at("reply_to").get<std::string>())));
      CHECK(static_cast<int>(got.priority) == want.at("priority").get<int>());
      CHECK(got.type == want.at("type").get<std::string>());
      // The previous release printed whole seconds.
      const auto created = mailroom::mail::parse_rfc3339(want.at("created_at").get<std::string>());
      REQUIRE(created.has_value());
      CHECK(got.created_at / 1000 == *created / 1000);
      REQUIRE(got.state.has_value());
      CHECK(got.state->read == want.at("read").get<bool>());
      CHECK(got.state->archived == want.at("archived").get<bool>());
      CHECK_FALSE(got.expired);
      // Addresses as written were not kept by v1: the recipients stand in for them.
      std::vector<std::string> everyone = got.to;
      everyone.insert(everyone.end(), got.cc.begin(), got.cc.end());
      CHECK(got.addressed_to == everyone);
      unread += want.at("read").get<bool>() ? 0 : 1;
      by_id[got.id] = want;
    }
    const auto counts = store.count(mailbox);
    REQUIRE(counts.ok());
    CHECK(counts->total == static_cast<std::int64_t>(messages.size()));
    CHECK(counts->unread == unread);
  }
  // A recipient whose `inbox --all` lacked a message it received had archived it.
  for (const auto& [id, want] : by_id) {
    auto status = store.status(id);
    REQUIRE(status.ok());
    std::set<std::string> recipients;
    for (const auto& row : status->deliveries) {
      INFO("message ", id, ", recipient ", row.recipient);
      recipients.insert(row.recipient);
      REQUIRE(expected.count(row.recipient) == 1);
      const auto& listed = expected.at(row.recipient);
      const auto entry = std::find_if(listed.begin(), listed.end(),
                                      [&](const nlohmann::json& m) { return m.at("id") == id; });
      const bool archived = entry == listed.end();
      CHECK(row.archived_at.has_value() == archived);
      if (!archived) {
        CHECK(row.read_at.has_value() == entry->at("read").get<bool>());
      }
      CHECK(row.ack_state == mailroom::mail::AckState::none);
      const auto seen = store.get(row.recipient, id);
      REQUIRE(seen.ok());
      REQUIRE(seen->state.has_value());
      CHECK(seen->state->archived == archived);
    }
    std::set<std::string> named;
    for (const char* kind : {"to", "cc"}) {
      for (const std::string& name : strings(want.at(kind))) {
        named.insert(name);
      }
    }
    CHECK(recipients == named);
  }
}

} // namespace

TEST_SUITE("mailroom::providers::beads::migration")
{
  TEST_CASE("the schema version is the migration list's length, and a new store records it")
  {
    namespace beads = mailroom::providers::beads;
    CHECK(beads::k_schema_version == static_cast<int>(beads::schema_sql::k_migrations.size()));
    // v6 (the rebuild of `beads` by procedure) rewrites rows, and v11 (the rebuild that places
    // dedup_key before body, by script) is the newest version that does.
    CHECK(beads::k_last_rewriting_version == 11);
    CHECK(beads::schema_sql::k_migrations[5].then == beads::schema_sql::Procedure::rebuild_beads_v6);
    CHECK(beads::schema_sql::k_migrations[5].rewrites_rows);
    CHECK(beads::schema_sql::k_migrations[10].rewrites_rows);
    TempDir dir;
    FixedClock clock;
    auto store = open_store((dir.path / "new.db").string(), clock, {}, Access::create);
    CHECK(scalar(database_of(*store), "PRAGMA user_version") ==
          std::to_string(beads::schema_sql::k_migrations.size()));
  }

  TEST_CASE("a v1 store opened for writing is migrated with every message and state intact")
  {
    TempDir dir;
    FixedClock clock;
    const std::string path = copy_v1(dir);
    {
      auto v1 = mailroom::sqlite::Database::open(path);
      REQUIRE(v1.ok());
      REQUIRE(scalar(*v1, "PRAGMA user_version") == "1");
    }
    auto store = open_store(path, clock, {}, Access::migrate);
    auto& db = database_of(*store);
    CHECK(scalar(db, "PRAGMA user_version") == std::to_string(mailroom::providers::beads::k_schema_version));
    CHECK(scalar(db, "PRAGMA foreign_keys") == "1"); // on again after the rebuild
    CHECK(scalar(db, "SELECT count(*) FROM pragma_foreign_key_check") == "0");
    // v6: every body has its size and preview (these bodies are short: the preview is the body),
    // and the body is the last column.
    CHECK(
        scalar(
            db,
            "SELECT count(*) FROM beads WHERE body_bytes <> length(CAST(body AS BLOB)) OR preview <> body") ==
        "0");
    CHECK(scalar(db, "SELECT name FROM pragma_table_info('beads') ORDER BY cid DESC LIMIT 1") == "body");
    CHECK(scalar(db, "PRAGMA integrity_check") == "ok");
    check_survived(*store);

    // Traces were filled in: one new root trace per message.
    std::set<std::string> traces;
    for (const std::string id : {"mr-60ec44", "mr-449e92", "mr-51d811", "mr-d33301"}) {
      INFO("message ", id);
      const auto message = store->get("nobody", id);
      REQUIRE(message.ok());
      CHECK(is_lower_hex(message->trace.trace_id, 32));
      CHECK(is_lower_hex(message->trace.span_id, 16));
      CHECK_FALSE(message->trace.parent_span_id.has_value());
      CHECK(message->trace.trace_id != std::string(32, '0'));
      traces.insert(message->trace.trace_id);
      auto trace = mailroom::testing::reach(*store).trace("nobody", id);
      REQUIRE(trace.ok());
      CHECK(trace->messages.size() == 1);
    }
    CHECK(traces.size() == 4);
    // The counters were backfilled: the table holds what the rows say.
    CHECK(scalar(db, "SELECT count(*) FROM mailbox_counts") == "4");
    CHECK(scalar(db, R"sql(
SELECT count(*) FROM mailbox_counts AS c
WHERE c.total <> (SELECT count(*) FROM deliveries AS d WHERE d.recipient = c.recipient AND d.archived_at IS NULL)
   OR c.unread <> (SELECT count(*) FROM deliveries AS d
                   WHERE d.recipient = c.recipient AND d.archived_at IS NULL AND d.read_at IS NULL))sql") ==
          "0");
    CHECK(scalar(db, "SELECT count(*) FROM deliveries WHERE sender = ''") == "0");
    // Who may see what was built from the rows (v4).
    CHECK(scalar(db, "SELECT count(*) FROM visibility") != "0");
    CHECK(visibility_mismatches(db) == "0");

    // Opening again migrates nothing.
    {
      auto again = open_store(path, clock, {}, Access::write);
      check_survived(*again);
    }

    // The registry and the old mail keep working with new mail.
    const auto agents = mailroom::testing::reach(*store).agents();
    REQUIRE(agents.ok());
    CHECK(agents->size() == 4);
    mailroom::mail::ReplyRequest reply;
    reply.from = "mayor";
    reply.id = "mr-51d811";
    reply.body = "thanks";
    auto replied = store->reply(reply);
    REQUIRE(replied.ok());
    CHECK(replied->message.thread_id == "thread-56865b6db692");
    CHECK(store->count("mayor")->unread == 0);
    CHECK(store->count("polecat")->unread == 3);
    CHECK(mailroom::testing::reach(*store).resolve_id("mr-d333").value() == "mr-d33301");
  }

  TEST_CASE("only migrate and init upgrade a store whose migration rewrites rows; others change nothing")
  {
    TempDir dir;
    FixedClock clock;
    const std::string path = copy_v1(dir);
    auto blocker = mailroom::sqlite::Database::open(path);
    REQUIRE(blocker.ok());
    {
      // Refused at once, without the write lock: a hook on such a store never waits for it.
      auto lock = mailroom::db::Transaction::begin(*blocker, mailroom::db::TransactionKind::write);
      REQUIRE(lock.ok());
      for (const Access access : {Access::read, Access::write}) {
        auto settings = settings_for(path, access);
        settings.busy_timeout = std::chrono::milliseconds(50);
        auto refused = mailroom::providers::beads::open_bead_store(settings, {}, clock);
        REQUIRE_FALSE(refused.ok());
        CHECK(refused.error().code == mailroom::ErrorCode::store_error);
        CHECK(refused.error().reason == "needs_migrate");
        CHECK(refused.error().hint == "run 'mailroom migrate'");
        CHECK(refused.error().message.find(path) != std::string::npos);
      }
    }
    CHECK(scalar(*blocker, "PRAGMA user_version") == "1");
    CHECK(scalar(*blocker, "SELECT count(*) FROM pragma_table_info('beads') WHERE name = 'preview'") == "0");
    {
      auto store = open_store(path, clock, {}, Access::migrate);
      check_survived(*store);
    }
    CHECK(scalar(*blocker, "PRAGMA user_version") ==
          std::to_string(mailroom::providers::beads::k_schema_version));
    // Once migrated, a read-only open needs no write lock at all, and every command may open it.
    auto lock = mailroom::db::Transaction::begin(*blocker, mailroom::db::TransactionKind::write);
    REQUIRE(lock.ok());
    auto impatient = settings_for(path, Access::read);
    impatient.busy_timeout = std::chrono::milliseconds(50);
    auto reader = mailroom::providers::beads::open_bead_store(impatient, {}, clock);
    REQUIRE_MESSAGE(reader.ok(), (reader.ok() ? "" : reader.error().message));
    check_survived(**reader);
  }

  TEST_CASE("init (create access) upgrades an existing older store too")
  {
    TempDir dir;
    FixedClock clock;
    const std::string path = copy_v1(dir);
    auto store = open_store(path, clock, {}, Access::create);
    CHECK(scalar(database_of(*store), "PRAGMA user_version") ==
          std::to_string(mailroom::providers::beads::k_schema_version));
    check_survived(*store);
  }

  TEST_CASE(
      "the v6 rebuild cuts each preview at a character boundary and keeps bodies, search and references")
  {
    TempDir dir;
    FixedClock clock;
    const std::string path = copy_v1(dir);
    // A long body in the old layout (body in the middle of the row), with a 3-byte character across
    // the 4 KiB line, and a body of 4,094 newlines: written as v1 rows beside the release's own.
    std::string long_body = std::string(4095, 'a') + "\xE2\x82\xAC" + std::string(20000, 'b') + " zebraword";
    const std::string newlines = std::string(4094, '\n') + "Approve the deploy";
    {
      auto v1 = mailroom::sqlite::Database::open(path);
      REQUIRE(v1.ok());
      auto insert = v1->prepare(R"sql(
INSERT INTO beads (id, sender, to_list, subject, body, created_at, thread_id, priority, type, sender_uid, sender_host)
VALUES (?1, 'mayor', 'polecat', 'big', ?2, 1700000000000, ?1, 2, 'message', 0, 'host'))sql");
      REQUIRE(insert.ok());
      for (const auto& [id, body] : {std::pair<std::string, const std::string*>{"mr-b16b16", &long_body},
                                     std::pair<std::string, const std::string*>{"mr-4e4e4e", &newlines}}) {
        REQUIRE(insert->bind(id, mailroom::db::Blob{*body}).ok());
        REQUIRE(insert->exec().ok());
        auto deliver = v1->prepare(R"sql(
INSERT INTO deliveries (message, recipient, kind, priority, created_at, delivered_at)
SELECT seq, 'polecat', 'to', 2, created_at, created_at FROM beads WHERE id = ?1)sql");
        REQUIRE(deliver.ok());
        REQUIRE(deliver->bind(id).ok());
        REQUIRE(deliver->exec().ok());
      }
    }
    auto store = open_store(path, clock, {}, Access::migrate);
    auto& db = database_of(*store);
    CHECK(scalar(db, "PRAGMA integrity_check") == "ok");
    CHECK(scalar(db, "SELECT body_bytes FROM beads WHERE id = 'mr-b16b16'") ==
          std::to_string(long_body.size()));
    CHECK(scalar(db, "SELECT length(preview) FROM beads WHERE id = 'mr-b16b16'") ==
          "4095"); // not inside the euro
    CHECK(scalar(db, "SELECT length(preview) FROM beads WHERE id = 'mr-4e4e4e'") == "4096");
    CHECK(scalar(db, "SELECT body_bytes FROM beads WHERE id = 'mr-4e4e4e'") ==
          std::to_string(newlines.size()));
    // Whole bodies for read; previews for lists, which say they are cut.
    auto whole = store->get("polecat", "mr-b16b16");
    REQUIRE(whole.ok());
    CHECK(whole->body == long_body);
    CHECK(whole->body_complete);
    auto checked = store->check("polecat", 10, mailroom::mail::k_preview_bytes);
    REQUIRE(checked.ok());
    bool seen = false;
    for (const Message& m : checked->messages) {
      if (m.id == "mr-4e4e4e") {
        seen = true;
        CHECK_FALSE(m.body_complete);
        CHECK(m.body == newlines.substr(0, 4096));
        CHECK(m.body_bytes() == newlines.size());
      }
    }
    CHECK(seen);
    // The FTS index still finds the rebuilt rows (same rowids), and purge-style deletes keep it whole.
    mailroom::mail::ListQuery search;
    search.mailbox = "polecat";
    search.box = mailroom::mail::Box::search;
    search.search = "zebraword";
    auto found = store->list(search);
    REQUIRE(found.ok());
    REQUIRE(found->messages.size() == 1);
    CHECK(found->messages[0].message.id == "mr-b16b16");
    CHECK(db.execute_script("INSERT INTO beads_fts (beads_fts) VALUES ('integrity-check')").ok());
  }
}
