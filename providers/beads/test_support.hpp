#pragma once

// Shared by the bead store's tests: a temp directory, store openers on a test clock, and the
// SQLite connection behind a store.

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include <doctest/doctest.h>

#include "beads/bead_store.hpp"
#include "sqlite/test_support.hpp"
#include "testing/fixed_clock.hpp"

namespace mailroom::providers::beads::testing {

using mailroom::testing::FixedClock;

// A fresh directory under TMPDIR, removed on scope exit.
struct TempDir {
  std::filesystem::path path;
  TempDir()
  {
    std::string pattern = (std::filesystem::temp_directory_path() / "mailroom-beads-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir()
  {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

// Store settings for `path` with `access` (create by default, so a file store is made on first use).
inline mail::StoreSettings settings_for(const std::string& path, mail::Access access = mail::Access::create)
{
  mail::StoreSettings settings;
  settings.path = path;
  settings.access = access;
  return settings;
}

// Opens the bead store at `path` (":memory:" or a file, created when missing) on `clock`.
inline std::unique_ptr<sqlstore::SqlStore> open_store(const std::string& path, const mail::Clock& clock,
                                                      const mail::MailPolicy& policy = {},
                                                      mail::Access access = mail::Access::create)
{
  auto store = open_bead_store(settings_for(path, access), policy, clock);
  REQUIRE_MESSAGE(store.ok(), (store.ok() ? "" : store.error().message));
  return std::move(store).value();
}

// The SQLite connection writes of `store` go to.
inline sqlite::Database& database_of(sqlstore::SqlStore& store)
{
  auto* engine = dynamic_cast<SqliteEngine*>(&store.engine());
  REQUIRE(engine != nullptr);
  auto db = engine->database();
  REQUIRE_MESSAGE(db.ok(), (db.ok() ? "" : db.error().message));
  return **db;
}

// A one-line SQL query's first column as text; requires a row.
inline std::string scalar(sqlite::Database& db, std::string_view sql)
{
  return sqlite::test::scalar_text(db, sql);
}

// A message from `from` to the address `to`, with `body` as subject and body.
inline mail::SendRequest message(const std::string& from, const std::string& to, const std::string& body)
{
  mail::SendRequest request;
  request.from = from;
  request.seen_via = mail::SeenVia::command; // as the CLI sends
  request.to = {to};
  request.subject = body;
  request.body = body;
  return request;
}

// `mailbox` acting on its own deliveries.
inline mail::Actor as(const std::string& mailbox)
{
  return mail::Actor{mailbox, mailbox, mail::SeenVia::command};
}

// How many (mailbox, word) rows of the visibility table differ from a recount from the rows
// (visibility.hpp), in either direction; "0" when the triggers kept it exact.
inline std::string visibility_mismatches(sqlite::Database& db)
{
  return scalar(db, R"sql(
WITH expected AS (
  SELECT who, seq >> 6 AS word, sum(DISTINCT 1 << (seq & 63)) AS bits
  FROM (SELECT sender AS who, seq FROM beads UNION ALL SELECT recipient, message FROM deliveries)
  GROUP BY 1, 2)
SELECT (SELECT count(*) FROM expected AS e LEFT JOIN visibility AS v USING (who, word) WHERE v.bits IS NOT e.bits)
     + (SELECT count(*) FROM visibility AS v LEFT JOIN expected AS e USING (who, word) WHERE e.bits IS NOT v.bits))sql");
}

} // namespace mailroom::providers::beads::testing
