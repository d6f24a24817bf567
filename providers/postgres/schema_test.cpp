// The PostgreSQL store's schema management: init creates, other commands need a schema, the
// version is recorded, a newer schema is refused or used as it says, two hosts migrating at once.

#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "mail/limits.hpp"
#include "postgres/postgres_store.hpp"
#include "postgres/schema.hpp"
#include "testing/pg_server.hpp"
#include "testing/reach.hpp"

namespace {

using namespace mailroom;
using providers::postgres::k_schema_version;

mail::StoreSettings settings_for(const std::string& url, mail::Access access)
{
  mail::StoreSettings settings;
  settings.path = url;
  settings.access = access;
  return settings;
}

Result<std::unique_ptr<providers::sqlstore::SqlStore>> open(const std::string& url, mail::Access access)
{
  static const mail::SystemClock clock;
  return providers::postgres::open_postgres_store(settings_for(url, access), {}, clock);
}

std::int64_t scalar(pg::Connection& connection, std::string_view sql)
{
  auto statement = connection.cached(sql);
  REQUIRE(statement.ok());
  auto row = statement.value()->step();
  REQUIRE(row.ok());
  REQUIRE(row.value());
  const std::int64_t value = statement.value()->get<std::int64_t>(0);
  statement.value()->reset();
  return value;
}

} // namespace

TEST_SUITE("mailroom::providers::postgres schema")
{
  TEST_CASE("the schema version is the migration list's length, and a new store records it")
  {
    const auto& migrations = providers::postgres::schema_sql::k_migrations;
    CHECK(k_schema_version == static_cast<int>(migrations.size()));
    for (const std::string_view script : migrations) {
      CHECK_FALSE(script.empty());
    }
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    REQUIRE(open(db->url, mail::Access::create).ok());
    pg::Connection connection = testing::pg_connect(db->url);
    CHECK(scalar(connection, "SELECT version FROM mailroom_schema") ==
          static_cast<std::int64_t>(migrations.size()));
  }

  TEST_CASE("only init creates the schema; other commands say there is no store, without the password")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    const std::string url = db->url + "&password=s3cret";
    for (const mail::Access access : {mail::Access::read, mail::Access::write}) {
      auto store = open(url, access);
      REQUIRE_FALSE(store.ok());
      CHECK(store.error().code == ErrorCode::store_error);
      CHECK(store.error().reason == "no_store");
      CHECK(store.error().message.find("no store at postgresql:///") == 0);
      CHECK(store.error().message.find("run 'mailroom init --db") != std::string::npos);
      CHECK(store.error().message.find("s3cret") == std::string::npos);
    }
    pg::Connection connection = testing::pg_connect(db->url);
    CHECK(scalar(connection, "SELECT count(*) FROM pg_tables WHERE tablename = 'beads'") == 0);

    REQUIRE(open(url, mail::Access::create).ok());
    CHECK(scalar(connection, "SELECT version FROM mailroom_schema") == k_schema_version);
    CHECK(scalar(connection, "SELECT min_version FROM mailroom_schema") ==
          providers::postgres::k_schema_compat);
    // Again: nothing to do, and every other access opens it.
    REQUIRE(open(url, mail::Access::create).ok());
    CHECK(scalar(connection, "SELECT count(*) FROM mailroom_schema") == 1);
    CHECK(open(url, mail::Access::read).ok());
    CHECK(open(url, mail::Access::write).ok());
  }

  TEST_CASE("a newer schema is used when it says this build can, and refused when it cannot")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    REQUIRE(open(db->url, mail::Access::create).ok());
    pg::Connection connection = testing::pg_connect(db->url);
    // An additive migration by a later mailroom: still usable here, and not migrated "back".
    testing::pg_exec(connection, "UPDATE mailroom_schema SET version = version + 1");
    CHECK(open(db->url, mail::Access::write).ok());
    CHECK(open(db->url, mail::Access::create).ok());
    CHECK(scalar(connection, "SELECT version FROM mailroom_schema") == k_schema_version + 1);
    // One that older binaries cannot use.
    testing::pg_exec(connection,
                     "UPDATE mailroom_schema SET version = 99, min_version = 99, min_mailroom = '9.0.0'");
    for (const mail::Access access : {mail::Access::read, mail::Access::write, mail::Access::create}) {
      auto store = open(db->url, access);
      REQUIRE_FALSE(store.ok());
      CHECK(store.error().code == ErrorCode::store_error);
      CHECK(store.error().message.find("schema version 99") != std::string::npos);
      CHECK(store.error().message.find("needs mailroom 9.0.0 or newer") != std::string::npos);
      CHECK(store.error().hint == "upgrade mailroom on this host");
    }
  }

  TEST_CASE("v2 adds previews additively: any command migrates a v1 store, and rows an older binary writes "
            "are read")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    REQUIRE(open(db->url, mail::Access::create).ok());
    pg::Connection connection = testing::pg_connect(db->url);
    // Back to what a v1 mailroom made, with a message it wrote (no size, no preview).
    testing::pg_exec(connection, "ALTER TABLE beads DROP COLUMN body_bytes, DROP COLUMN preview");
    testing::pg_exec(connection, "UPDATE mailroom_schema SET version = 1");
    {
      auto store = open(db->url, mail::Access::write);
      REQUIRE(store.ok());
      REQUIRE(mailroom::testing::reach(**store).add_agents({"alice", "bob"}).ok());
    }
    CHECK(scalar(connection, "SELECT version FROM mailroom_schema") == k_schema_version);
    CHECK(scalar(connection, "SELECT min_version FROM mailroom_schema") == 1); // older binaries keep working
    const std::string body = std::string(5000, 'o') + "!";
    testing::pg_exec(connection, R"sql(
INSERT INTO beads (id, sender, to_list, addressed_to, subject, body, created_at, thread_id, priority, type,
                   sender_uid, sender_host, trace_id, span_id)
VALUES ('mr-01d01d', 'alice', 'bob', 'bob', 'old', convert_to(repeat('o', 5000) || '!', 'UTF8'), 1, 't-old', 2,
        'message', 0, 'old', repeat('1', 32), repeat('2', 16));
INSERT INTO deliveries (message, recipient, kind, priority, created_at, delivered_at, sender)
SELECT seq, 'bob', 'to', 2, 1, 1, 'alice' FROM beads WHERE id = 'mr-01d01d')sql");
    auto store = open(db->url, mail::Access::read);
    REQUIRE(store.ok());
    auto checked = (*store)->check("bob", 3, mail::k_preview_bytes);
    REQUIRE(checked.ok());
    REQUIRE(checked->messages.size() == 1);
    CHECK(checked->messages[0].body == body.substr(0, mail::k_preview_bytes));
    CHECK_FALSE(checked->messages[0].body_complete);
    CHECK(checked->messages[0].body_bytes() == body.size());
    auto whole = (*store)->get("bob", "mr-01d01d");
    REQUIRE(whole.ok());
    CHECK(whole->body == body);
  }

  TEST_CASE("two hosts initialising one database at once create the schema once")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    constexpr int k_hosts = 4;
    std::vector<std::string> failures(k_hosts);
    std::vector<std::thread> hosts;
    for (int i = 0; i < k_hosts; ++i) {
      hosts.emplace_back([&, i]() {
        auto store = open(db->url, mail::Access::create);
        if (!store.ok()) {
          failures[static_cast<std::size_t>(i)] = store.error().message;
        }
      });
    }
    for (std::thread& host : hosts) {
      host.join();
    }
    for (const std::string& failure : failures) {
      CHECK(failure == "");
    }
    pg::Connection connection = testing::pg_connect(db->url);
    CHECK(scalar(connection, "SELECT count(*) FROM mailroom_schema") == 1);
    CHECK(scalar(connection, "SELECT version FROM mailroom_schema") == k_schema_version);
  }

  TEST_CASE("the schema compares and orders text bytewise whatever the database collation")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    REQUIRE(open(db->url, mail::Access::create).ok());
    pg::Connection connection = testing::pg_connect(db->url);
    // Every text column of the store's tables is COLLATE "C".
    CHECK(scalar(connection, R"sql(
SELECT count(*) FROM information_schema.columns
WHERE table_schema = current_schema() AND data_type = 'text' AND coalesce(collation_name, '') <> 'C')sql") ==
          0);
    testing::pg_exec(
        connection,
        "INSERT INTO mailboxes (name, registered_at) VALUES ('b', 0), ('B', 0), ('a', 0), ('_x', 0)");
    auto names = connection.cached("SELECT string_agg(name, ',' ORDER BY name) FROM mailboxes");
    REQUIRE(names.ok());
    REQUIRE(names.value()->step().value());
    CHECK(names.value()->get<std::string>(0) == "B,_x,a,b");
    names.value()->reset();
  }
}
