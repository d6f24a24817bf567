// Opening the bead store: the directory, the filesystem check, the connection and the schema.

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "beads/bead_store.hpp"
#include "beads/create_lock.hpp"
#include "beads/fts5_rank.hpp"
#include "beads/schema.hpp"
#include "beads/signal.hpp"
#include "beads/sql.hpp"
#include "beads/store_path.hpp"
#include "beads/visibility.hpp"
#include "sqlite/failure.hpp"
#include "sqlite/wal_owner.hpp"

namespace mailroom::providers::beads {

namespace {

// user_version 0: an empty database (a store only `init` may create) or someone else's.
Result<void> check_unversioned(sqlite::Database& db, bool create)
{
  TRY_ASSIGN(sqlite::Statement tables, db.prepare("SELECT count(*) FROM sqlite_schema"));
  TRY_ASSIGN(const bool has_row, tables.step());
  const std::int64_t count = has_row ? tables.get<std::int64_t>(0) : 0;
  tables.reset();
  if (count > 0) {
    return file_error(fmt::format("\"{}\" is a SQLite database but not a mailroom store", db.path()),
                      "check the store path (--db, MAILROOM_DB or [store] path)", "not_a_database");
  }
  if (!create) {
    return file_error(fmt::format("store \"{}\" is an empty database, not a mailroom store", db.path()),
                      "run 'mailroom init' to create the store there", "empty_store");
  }
  return {};
}

// A connection with the store's own SQL functions (fts5_rank.hpp, visibility.hpp).
Result<sqlite::Database> open_connection(const std::string& path, const sqlite::OpenOptions& options)
{
  TRY_ASSIGN(sqlite::Database db, sqlite::Database::open(path, options));
  TRY(register_rank(db));
  TRY(register_visibility(db));
  return db;
}

// Opens `path` read-write and migrates it (creating the schema when `create`).
Result<sqlite::Database> open_writer(const std::string& path, const sqlite::OpenOptions& options, bool create,
                                     RowRewrites rewrites)
{
  TRY_ASSIGN(sqlite::Database db, open_connection(path, options));
  TRY_ASSIGN(const int version, schema_version(db));
  if (version == 0) {
    TRY(check_unversioned(db, create));
  }
  TRY(migrate(db, rewrites));
  return db;
}

// init and migrate may rewrite rows to migrate; every other command refuses such a store.
RowRewrites rewrites_for(mail::Access access)
{
  return access == mail::Access::create || access == mail::Access::migrate ? RowRewrites::allow
                                                                           : RowRewrites::refuse;
}

// A read-only connection needs the -wal and -shm files (readonly_shm cannot create the index).
// A store last closed by an older mailroom or the sqlite3 shell has neither: a read-write
// connection creates them once (and migrates an older schema), and they persist.
bool has_wal_files(const std::string& path)
{
  return ::access((path + "-wal").c_str(), F_OK) == 0 && ::access((path + "-shm").c_str(), F_OK) == 0;
}

} // namespace

SqliteEngine::SqliteEngine(std::string path, sqlite::OpenOptions options, const mail::Clock& clock,
                           RowRewrites rewrites)
    : m_path(std::move(path)), m_options(options), m_clock(clock), m_rewrites(rewrites)
{
}

Result<std::unique_ptr<SqliteEngine>> SqliteEngine::open(const mail::StoreSettings& settings,
                                                         const mail::Clock& clock)
{
  std::string path = settings.path;
  std::optional<CreateLock> creating; // held until the store is made (open_writer below)
  if (path != ":memory:") {
    TRY_ASSIGN(path, prepare_path(settings, creating));
  }
  sqlite::OpenOptions options;
  options.create = settings.access == mail::Access::create;
  options.busy_timeout = std::max(settings.busy_timeout, std::chrono::milliseconds(0));
  options.synchronous_full = settings.synchronous_full;
  options.cache_kib = settings.cache_kib;
  const RowRewrites rewrites = rewrites_for(settings.access);
  auto engine = std::make_unique<SqliteEngine>(path, options, clock, rewrites);
  if (settings.access == mail::Access::read && path != ":memory:") {
    sqlite::OpenOptions read_only = options;
    read_only.read_only = true;
    if (!has_wal_files(path)) {
      TRY(open_writer(path, options, false, rewrites)); // closed at once: the files stay
    }
    TRY_ASSIGN(sqlite::Database db, open_connection(path, read_only));
    TRY_ASSIGN(const int version, schema_version(db)); // the first read of the file
    if (version == k_schema_version) {
      engine->m_read_only.emplace(std::move(db));
      return engine;
    }
    if (version == 0) {
      TRY(check_unversioned(db, false));
    }
    if (version > k_schema_version || needs_row_rewrite(version)) {
      TRY(migrate(db, rewrites)); // refuses a newer schema, or one only `migrate` may upgrade
    }
    // An older store: migrate it once, under the write lock, and read through that connection.
  }
  // An in-memory database is always new: every open creates it.
  const bool create = settings.access == mail::Access::create || path == ":memory:";
  TRY_ASSIGN(sqlite::Database db, open_writer(path, options, create, rewrites));
  engine->m_read_write.emplace(std::move(db));
  return engine;
}

Result<db::Connection*> SqliteEngine::reader()
{
  if (m_read_only) {
    return static_cast<db::Connection*>(&*m_read_only);
  }
  return writer();
}

Result<db::Connection*> SqliteEngine::writer()
{
  TRY_ASSIGN(sqlite::Database * db, database());
  return static_cast<db::Connection*>(db);
}

Result<sqlite::Database*> SqliteEngine::database()
{
  if (!m_read_write) {
    // SQLite shares one WAL-index mapping among the connections of a process; the read-only
    // connection's is read-only (readonly_shm), and a writer attached to it could not write. So
    // the reader is closed first, and reads go through the writer from now on.
    const bool had_reader = m_read_only.has_value();
    m_read_only.reset();
    sqlite::OpenOptions options = m_options;
    options.create = false;
    auto db = open_writer(m_path, options, false, m_rewrites);
    if (!db.ok()) {
      if (had_reader) {
        // The write cannot happen (e.g. presence on a store this user may only read); reads
        // still can, through a read-only connection again.
        options.read_only = true;
        if (auto again = open_connection(m_path, options); again.ok()) {
          m_read_only.emplace(std::move(again).value());
        }
      }
      return std::move(db).error();
    }
    m_read_write.emplace(std::move(db).value());
  }
  return &*m_read_write;
}

Result<mail::UnixMillis> SqliteEngine::now()
{
  return m_clock.now();
}

Result<std::unique_ptr<mail::ChangeSignal>> SqliteEngine::change_signal()
{
  if (m_path == ":memory:") {
    return std::unique_ptr<mail::ChangeSignal>(); // private to this connection: nobody else writes
  }
  return open_change_signal(m_path, m_options); // signal.cpp
}

Result<std::unique_ptr<sqlstore::SqlStore>>
open_bead_store(const mail::StoreSettings& settings, const mail::MailPolicy& policy, const mail::Clock& clock)
{
  TRY_ASSIGN(std::unique_ptr<SqliteEngine> engine, SqliteEngine::open(settings, clock));
  return std::make_unique<sqlstore::SqlStore>(std::move(engine), sqlite_queries(), policy,
                                              sqlstore::current_origin());
}

} // namespace mailroom::providers::beads
