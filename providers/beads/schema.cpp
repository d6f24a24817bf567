#include "beads/schema.hpp"

#include <algorithm>
#include <cstddef>

#include <fmt/format.h>

#include "beads/schema_sql.hpp"
#include "beads/schema_v6.hpp"

namespace mailroom::providers::beads {

namespace {

Result<int> user_version(sqlite::Database& db)
{
  TRY_ASSIGN(db::Statement * statement, db.cached("PRAGMA user_version"));
  TRY_ASSIGN(const bool has_row, statement->step());
  const int version = has_row ? statement->get<int>(0) : 0;
  statement->reset();
  return version;
}

Error too_new(const sqlite::Database& db, int version)
{
  Error error =
      make_error(ErrorCode::store_error,
                 fmt::format("store \"{}\" has schema version {}, newer than this mailroom understands ({})",
                             db.path(), version, k_schema_version),
                 "upgrade mailroom");
  error.reason = "newer_schema";
  return error;
}

Error needs_migrate(const sqlite::Database& db, int version)
{
  Error error = make_error(ErrorCode::store_error,
                           fmt::format("store \"{}\" has schema version {}; this mailroom needs {}, and the "
                                       "upgrade rewrites every message",
                                       db.path(), version, k_schema_version),
                           "run 'mailroom migrate'");
  error.reason = "needs_migrate";
  return error;
}

// Foreign keys off for the length of a rebuild (SQLite's own procedure for changing a table: the
// old table is dropped while other tables still reference it), and on again however it ends.
class ForeignKeysOff {
public:
  explicit ForeignKeysOff(sqlite::Database& db) : m_db(db) {}
  ForeignKeysOff(const ForeignKeysOff&) = delete;
  ForeignKeysOff& operator=(const ForeignKeysOff&) = delete;
  Result<void> start()
  {
    TRY(m_db.execute_script("PRAGMA foreign_keys=OFF"));
    m_off = true;
    return {};
  }
  ~ForeignKeysOff()
  {
    if (m_off) {
      (void)m_db.execute_script("PRAGMA foreign_keys=ON");
    }
  }

private:
  sqlite::Database& m_db;
  bool m_off = false;
};

Result<void> check_foreign_keys(sqlite::Database& db)
{
  TRY_ASSIGN(sqlite::Statement check, db.prepare("PRAGMA foreign_key_check"));
  TRY_ASSIGN(const bool broken, check.step());
  check.reset();
  if (broken) {
    return make_error(ErrorCode::store_error,
                      fmt::format("store \"{}\": a migration would break a reference between tables; "
                                  "nothing was changed",
                                  db.path()));
  }
  return {};
}

// Runs one version's script, then its procedure, in the caller's transaction (with foreign keys
// off when it rewrites rows: migrate()).
Result<void> run(sqlite::Database& db, const schema_sql::Migration& migration)
{
  if (!migration.script.empty()) {
    TRY(db.execute_script(migration.script));
  }
  switch (migration.then) {
  case schema_sql::Procedure::none:
    break;
  case schema_sql::Procedure::build_visibility:
    TRY(build_visibility(db, 0));
    break;
  case schema_sql::Procedure::rebuild_beads_v6:
    TRY(rebuild_beads_v6(db));
    break;
  }
  if (migration.rewrites_rows) {
    TRY(check_foreign_keys(db));
  }
  return {};
}

} // namespace

bool needs_row_rewrite(int version)
{
  return version > 0 && version < k_last_rewriting_version;
}

Result<void> migrate(sqlite::Database& db, RowRewrites rewrites)
{
  TRY_ASSIGN(int version, user_version(db));
  if (version == k_schema_version) {
    return {};
  }
  if (version > k_schema_version) {
    return too_new(db, version);
  }
  if (needs_row_rewrite(version) && rewrites == RowRewrites::refuse) {
    return needs_migrate(db, version);
  }
  ForeignKeysOff foreign_keys(db);
  if (version < k_last_rewriting_version) {
    TRY(foreign_keys.start()); // for the rebuild; outside the transaction (a no-op inside one)
  }
  TRY_ASSIGN(auto transaction, db::Transaction::begin(db, db::TransactionKind::write));
  // Another process may have migrated while this one waited for the lock.
  TRY_ASSIGN(version, user_version(db));
  if (version > k_schema_version) {
    return too_new(db, version);
  }
  if (version == k_schema_version) {
    return transaction.commit();
  }
  if (needs_row_rewrite(version) && rewrites == RowRewrites::refuse) {
    return needs_migrate(db, version);
  }
  // Version N is k_migrations[N - 1]: run every one after the store's.
  for (std::size_t index = static_cast<std::size_t>(std::max(version, 0));
       index < schema_sql::k_migrations.size(); ++index) {
    TRY(run(db, schema_sql::k_migrations[index]));
  }
  // PRAGMA takes no bound parameters; the version is a compile-time constant.
  TRY(db.execute_script(fmt::format("PRAGMA user_version = {}", k_schema_version)));
  return transaction.commit();
}

Result<void> build_visibility(sqlite::Database& db, std::int64_t after_seq)
{
  TRY_ASSIGN(db::Statement * build, db.cached(schema_sql::k_visibility_from_rows));
  TRY(build->bind(after_seq));
  TRY(build->exec());
  return {};
}

Result<int> schema_version(sqlite::Database& db)
{
  return user_version(db);
}

Result<bool> schema_is_current(sqlite::Database& db)
{
  TRY_ASSIGN(const int version, user_version(db));
  if (version > k_schema_version) {
    return too_new(db, version);
  }
  return version == k_schema_version;
}

} // namespace mailroom::providers::beads
