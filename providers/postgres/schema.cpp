#include "postgres/schema.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <string_view>

#include <fmt/format.h>
#include <unistd.h>

#include "db/connection.hpp"

namespace mailroom::providers::postgres {

namespace {

// pg_advisory_xact_lock key for schema changes: "mailroom" in ASCII, as a bigint.
constexpr std::string_view k_lock_sql = "SELECT pg_advisory_xact_lock(7812726566843215981)";

constexpr std::string_view k_select_schema = "SELECT version, min_version, min_mailroom FROM mailroom_schema";
constexpr std::string_view k_schema_present = "SELECT to_regclass('mailroom_schema') IS NOT NULL AS present";
constexpr std::string_view k_undefined_table = "42P01";

std::string host_name()
{
  std::array<char, 256> host{};
  if (::gethostname(host.data(), host.size() - 1) != 0) {
    return "unknown host";
  }
  return host.data();
}

Result<std::optional<SchemaState>> select_schema(pg::Connection& connection)
{
  TRY_ASSIGN(db::Statement * select, connection.cached(k_select_schema));
  TRY_ASSIGN(const bool found, select->step());
  if (!found) {
    return std::optional<SchemaState>();
  }
  db::ResetGuard reset(*select);
  SchemaState state;
  state.version = select->get<int>("version");
  state.min_version = select->get<int>("min_version");
  state.min_mailroom = select->get<std::string>("min_mailroom");
  return std::optional<SchemaState>(std::move(state));
}

} // namespace

Result<std::optional<SchemaState>> read_schema(pg::Connection& connection)
{
  auto state = select_schema(connection);
  if (!state.ok() && connection.last_sqlstate() == k_undefined_table) {
    return std::optional<SchemaState>();
  }
  return state;
}

std::optional<Error> refuse_newer(const SchemaState& state, const std::string& where)
{
  if (state.min_version <= k_schema_version) {
    return std::nullopt;
  }
  return make_error(
      ErrorCode::store_error,
      fmt::format("postgresql store at \"{}\" has schema version {}, which needs mailroom {} or "
                  "newer (this is mailroom {}, schema version {})",
                  where, state.version, state.min_mailroom, MAILROOM_VERSION, k_schema_version),
      "upgrade mailroom on this host");
}

Result<bool> migrate(pg::Connection& connection, bool create, const std::string& where)
{
  TRY_ASSIGN(std::optional<SchemaState> state, read_schema(connection));
  if (state) {
    if (auto refused = refuse_newer(*state, where)) {
      return std::move(*refused);
    }
    if (state->version >= k_schema_version) {
      return true;
    }
  } else if (!create) {
    return false;
  }

  TRY_ASSIGN(db::Transaction transaction, db::Transaction::begin(connection, db::TransactionKind::write));
  // READ COMMITTED, so that what the statements after the lock see includes whatever another host
  // committed while this one waited for it (a SERIALIZABLE snapshot would be taken before).
  TRY(connection.execute_script("SET TRANSACTION ISOLATION LEVEL READ COMMITTED"));
  TRY(connection.execute_script(k_lock_sql));
  // Under the lock, read again: another host may have migrated while this one waited. (A failed
  // SELECT would abort the transaction, so ask the catalogue whether the table exists first.)
  TRY_ASSIGN(db::Statement * present, connection.cached(k_schema_present));
  TRY_ASSIGN(const bool has_row, present->step());
  const bool exists = has_row && present->get<bool>("present");
  present->reset();
  state.reset();
  if (exists) {
    TRY_ASSIGN(state, select_schema(connection));
  }
  if (state) {
    if (auto refused = refuse_newer(*state, where)) {
      return std::move(*refused);
    }
    if (state->version >= k_schema_version) {
      return true; // another host migrated while this one waited
    }
  }
  // Version N is k_migrations[N - 1]: run every one after the store's.
  const int from = state ? std::max(state->version, 0) : 0;
  for (std::size_t index = static_cast<std::size_t>(from); index < schema_sql::k_migrations.size(); ++index) {
    TRY(connection.execute_script(schema_sql::k_migrations[index]));
  }
  std::string min_mailroom = state ? state->min_mailroom : std::string(MAILROOM_VERSION);
  if (!state || state->min_version < k_schema_compat) {
    min_mailroom = MAILROOM_VERSION; // this build is the oldest known to read the new schema
  }
  const std::string by = fmt::format("mailroom {} on {}", MAILROOM_VERSION, host_name());
  TRY_ASSIGN(db::Statement * record, connection.cached(R"sql(
INSERT INTO mailroom_schema (singleton, version, min_version, min_mailroom, migrated_by)
VALUES (true, ?1, ?2, ?3, ?4)
ON CONFLICT (singleton) DO UPDATE
  SET version = excluded.version, min_version = excluded.min_version, min_mailroom = excluded.min_mailroom,
      migrated_at = clock_timestamp(), migrated_by = excluded.migrated_by)sql"));
  TRY(record->bind(k_schema_version, k_schema_compat, min_mailroom, by));
  TRY(record->exec());
  TRY(transaction.commit());
  return true;
}

} // namespace mailroom::providers::postgres
