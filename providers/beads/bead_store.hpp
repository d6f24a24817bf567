#pragma once

// The bead store: mailroom's default provider, one SQLite file (or ":memory:"). The store logic is
// sqlstore::SqlStore; this folder holds what is SQLite's own: opening the file safely, the schema
// and its migrations, the SQL text, and change notification.

#include <memory>
#include <optional>
#include <string>

#include "base/result.hpp"
#include "beads/schema.hpp"
#include "mail/clock.hpp"
#include "mail/provider.hpp"
#include "mail/settings.hpp"
#include "sqlite/database.hpp"
#include "sqlstore/engine.hpp"
#include "sqlstore/store.hpp"

namespace mailroom::providers::beads {

// The SQLite engine of a bead store: a read-only connection for commands that only read, and a
// read-write one opened when the first write comes (at once for commands that write).
class SqliteEngine final : public sqlstore::Engine {
public:
  // Opens the store at `settings.path` for `settings.access` (see open_bead_store).
  static Result<std::unique_ptr<SqliteEngine>> open(const mail::StoreSettings& settings,
                                                    const mail::Clock& clock);

  Result<db::Connection*> reader() override;
  // Opens the read-write connection on first use; that closes the read-only one (their WAL-index
  // mappings cannot be shared), so a connection from reader() must not be used after writer().
  Result<db::Connection*> writer() override;
  Result<mail::UnixMillis> now() override;
  Result<std::unique_ptr<mail::ChangeSignal>> change_signal() override;
  std::string_view name() const override { return "bead store"; }
  // The visibility bits (visibility.hpp; sql_visibility.cpp).
  Result<void> mark_visible(db::Connection& writer, const std::string& who, std::int64_t seq) override;
  Result<void> forget_visible(db::Connection& writer, std::int64_t seq) override;
  std::optional<std::string_view> unfiltered_search() const override;

  // The connection writes go to (opened if needed), for tests and maintenance.
  Result<sqlite::Database*> database();
  // The resolved path of the store file (":memory:" for an in-memory store).
  const std::string& path() const { return m_path; }

  SqliteEngine(std::string path, sqlite::OpenOptions options, const mail::Clock& clock, RowRewrites rewrites);

private:
  std::string m_path;
  sqlite::OpenOptions m_options;
  const mail::Clock& m_clock;
  RowRewrites m_rewrites;
  std::optional<sqlite::Database> m_read_only;
  std::optional<sqlite::Database> m_read_write;
};

// Opens the bead store at `settings.path` (":memory:" for a private in-memory store):
//  - Access::create makes the directory (0700) and the file (0600) when missing; every other
//    access needs the file to exist (store_error "no store at <path> (run 'mailroom init')");
//  - Access::read opens read-only and writes nothing unless the schema must be migrated;
//  - a store that needs a migration rewriting rows is store_error "needs_migrate" ("run 'mailroom
//    migrate'") unless Access::create or Access::migrate, and nothing is written;
//  - refuses a network filesystem unless settings.allow_network_fs, and migrates the schema.
// Errors: store_error naming the path (missing, cannot open, not a database, newer schema, network
// filesystem), timeout.
Result<std::unique_ptr<sqlstore::SqlStore>> open_bead_store(const mail::StoreSettings& settings,
                                                            const mail::MailPolicy& policy,
                                                            const mail::Clock& clock);

} // namespace mailroom::providers::beads
