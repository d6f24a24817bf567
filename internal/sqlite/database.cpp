#include "sqlite/database.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <thread>
#include <utility>

#include <fmt/format.h>
#include <sqlite3.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "sqlite/connection.hpp"
#include "sqlite/database_state.hpp"
#include "sqlite/failure.hpp"
#include "sqlite/reader_vfs.hpp"

namespace mailroom::sqlite {

namespace {

// Restores the previous umask on scope exit.
class UmaskGuard {
public:
  explicit UmaskGuard(bool active) : m_active(active)
  {
    if (m_active) {
      m_previous = ::umask(077);
    }
  }
  UmaskGuard(const UmaskGuard&) = delete;
  UmaskGuard& operator=(const UmaskGuard&) = delete;
  ~UmaskGuard()
  {
    if (m_active) {
      ::umask(m_previous);
    }
  }

private:
  bool m_active;
  mode_t m_previous = 0;
};

// `path` as a SQLite URI filename ("file:" + the path, percent-encoding every byte that is not
// unreserved), so that query parameters can follow.
std::string file_uri(const std::string& path)
{
  std::string uri = "file:";
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      uri.push_back(c);
    } else {
      uri += fmt::format("%{:02X}", byte);
    }
  }
  return uri;
}

Result<std::string> query_text(Database& db, std::string_view sql)
{
  TRY_ASSIGN(Statement statement, db.prepare(sql));
  TRY_ASSIGN(const bool has_row, statement.step());
  std::string value = has_row ? statement.get<std::string>(0) : std::string();
  statement.reset();
  return value;
}

Result<void> configure(Database& db, const OpenOptions& options)
{
  TRY(db.execute_script(options.synchronous_full ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL"));
  TRY(db.execute_script("PRAGMA foreign_keys=ON"));
  if (options.cache_kib) {
    // PRAGMA takes no bound parameters; the value is an integer.
    TRY(db.execute_script(
        fmt::format("PRAGMA cache_size=-{}", std::max<std::int64_t>(*options.cache_kib, 1))));
  }
  // 4 MiB: the WAL file is truncated back to this after a checkpoint.
  TRY(db.execute_script("PRAGMA journal_size_limit=4194304"));
  return {};
}

// Library-wide settings, applied before the process's first connection (sqlite3_config refuses
// them once the library is initialised; a process that initialised it another way keeps the
// defaults). Memory statistics off: with them on, every allocation SQLite makes takes a mutex, and
// a command prepares hundreds of statements' worth of them (BENCHMARKS.md, "Measurements behind
// the code").
void configure_library_once()
{
  static const bool configured = [] {
    (void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    return true;
  }();
  (void)configured;
}

} // namespace

Database::Database(std::unique_ptr<State> state) : m_state(std::move(state)) {}
Database::Database(Database&&) noexcept = default;
Database& Database::operator=(Database&&) noexcept = default;
Database::~Database() = default;

Result<Database> Database::open(const std::string& path, const OpenOptions& options)
{
  // A connection that saw the file before another process switched it to WAL cannot switch it
  // itself: it waits for an exclusive lock that the WAL connections' shared locks never release,
  // for the whole busy timeout (seen when several processes open a new store at once). So the
  // switch waits briefly, and on a busy lock the connection is closed and opened again: a new
  // connection reads the header afresh and finds WAL. All attempts share one deadline.
  constexpr auto k_switch_wait = std::chrono::milliseconds(100);
  const auto deadline = std::chrono::steady_clock::now() + options.busy_timeout;
  if (options.read_only) {
    // Nothing to check or set: a read-only connection cannot switch the journal mode, and the
    // write-side settings do not apply. Its first statement reads the file.
    return open_connection(path, options);
  }
  while (true) {
    TRY_ASSIGN(Database db, open_connection(path, options));
    detail::Connection& connection = db.m_state->connection;
    // The first read of the file: a corrupt or foreign file fails here with "file is not a
    // database". Checking needs no lock beyond a read; only a database not yet in WAL is switched.
    TRY_ASSIGN(std::string mode, query_text(db, "PRAGMA journal_mode"));
    if (mode != "wal" && mode != "memory") {
      const auto remaining =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      connection.busy_timeout = std::clamp(remaining, std::chrono::milliseconds(0), k_switch_wait);
      auto switched = query_text(db, "PRAGMA journal_mode=WAL");
      connection.busy_timeout = options.busy_timeout;
      if (!switched.ok()) {
        if (switched.error().code == ErrorCode::timeout && std::chrono::steady_clock::now() < deadline) {
          const auto pause = std::chrono::microseconds(
              500 + static_cast<std::int64_t>(detail::next_jitter(connection) % 1500U));
          std::this_thread::sleep_for(pause);
          continue; // db closes here; the next connection reads the header afresh
        }
        if (switched.error().code == ErrorCode::timeout) {
          return detail::connection_error(connection, SQLITE_BUSY); // names the full timeout
        }
        return switched.error();
      }
      mode = *switched;
      if (mode != "wal" && mode != "memory") {
        return make_error(ErrorCode::store_error,
                          fmt::format("cannot switch \"{}\" to WAL mode (journal mode is {})", path, mode));
      }
    }
    TRY(configure(db, options));
    return db;
  }
}

Result<Database> Database::open_connection(const std::string& path, const OpenOptions& options)
{
  auto state = std::make_unique<State>();
  state->connection.path = path;
  state->connection.busy_timeout = options.busy_timeout;
  state->connection.reader = options.read_only;
  state->read_only = options.read_only;
  state->in_memory = path == ":memory:";
  if (getrandom(&state->connection.jitter_state, sizeof state->connection.jitter_state, 0) !=
          static_cast<ssize_t>(sizeof state->connection.jitter_state) ||
      state->connection.jitter_state == 0) {
    state->connection.jitter_state = 0x9E3779B97F4A7C15ULL;
  }

  int flags = (options.read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOFOLLOW |
              SQLITE_OPEN_NOMUTEX;
  if (options.create && !options.read_only) {
    flags |= SQLITE_OPEN_CREATE;
  }
  std::string name = path;
  const char* vfs = nullptr; // the default
  configure_library_once();
  if (options.read_only && !state->in_memory) {
    // readonly_shm: map the WAL index read-only. With another process attached this reader uses
    // the shared index; with none, SQLite reads the WAL itself (empty after a writer's
    // checkpoint) instead of truncating and rebuilding the index file, so nothing is written.
    // The reader VFS reads past a WAL header that a killed writer left (reader_vfs.hpp).
    flags |= SQLITE_OPEN_URI;
    name = file_uri(path) + "?readonly_shm=1";
    vfs = detail::reader_vfs();
  }
  const UmaskGuard umask_guard(options.private_files && !options.read_only);
  const int rc = sqlite3_open_v2(name.c_str(), &state->connection.handle, flags, vfs);
  if (rc != SQLITE_OK) {
    return detail::connection_error(state->connection, rc);
  }
  sqlite3* handle = state->connection.handle;
  sqlite3_extended_result_codes(handle, 1);
  sqlite3_busy_handler(handle, &detail::busy_handler, &state->connection);
  sqlite3_db_config(handle, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  // No checkpoint on close: it would take the database's exclusive lock, and a reader starting at
  // that moment would wait for it (and the WAL and -shm would be deleted, so the next process
  // recreates them). Writers checkpoint after each write transaction instead (checkpoint()).
  sqlite3_db_config(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
  if (!options.read_only && !state->in_memory) {
    int persist = 1;
    sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
  }
  sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, static_cast<int>(options.max_length));
  return Database(std::move(state));
}

Result<db::Statement*> Database::cached(std::string_view sql)
{
  auto found = m_state->cache.find(sql);
  if (found != m_state->cache.end()) {
    found->second.reset();
    found->second.clear_bindings();
    return static_cast<db::Statement*>(&found->second);
  }
  TRY_ASSIGN(Statement statement, prepare(sql));
  auto inserted = m_state->cache.emplace(std::string(sql), std::move(statement));
  return static_cast<db::Statement*>(&inserted.first->second);
}

Result<Statement> Database::prepare(std::string_view sql)
{
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v2(m_state->connection.handle, sql.data(), static_cast<int>(sql.size()),
                                    &stmt, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return detail::connection_error(m_state->connection, rc);
  }
  return Statement(stmt, &m_state->connection);
}

Result<void> Database::execute_script(std::string_view sql)
{
  const std::string text(sql);
  const int rc = sqlite3_exec(m_state->connection.handle, text.c_str(), nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) {
    return detail::connection_error(m_state->connection, rc);
  }
  return {};
}

Result<std::vector<std::string>> Database::query_plan(std::string_view sql)
{
  // The only SQL this layer assembles: a fixed keyword before a constant of the caller's code,
  // never user data (which is always bound).
  std::string explain("EXPLAIN QUERY PLAN ");
  explain.append(sql);
  TRY_ASSIGN(Statement statement, prepare(explain));
  std::vector<std::string> lines;
  while (true) {
    TRY_ASSIGN(const bool has_row, statement.step());
    if (!has_row) {
      break;
    }
    lines.push_back(statement.get<std::string>(3));
  }
  return lines;
}

std::int64_t Database::last_insert_rowid() const
{
  return sqlite3_last_insert_rowid(m_state->connection.handle);
}

const std::string& Database::path() const
{
  return m_state->connection.path;
}

sqlite3* Database::handle() const
{
  return m_state->connection.handle;
}

Error Database::error(int rc) const
{
  return detail::connection_error(m_state->connection, rc);
}

std::string Database::describe() const
{
  return m_state->connection.path;
}

} // namespace mailroom::sqlite
