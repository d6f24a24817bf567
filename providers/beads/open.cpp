// Opening the bead store: the directory, the filesystem check, the connection and the schema.

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "beads/bead_store.hpp"
#include "beads/schema.hpp"
#include "beads/signal.hpp"
#include "beads/sql.hpp"

namespace mailroom::providers::beads {

namespace {

struct NetworkFs {
  unsigned long magic;
  std::string_view name;
};

// From <linux/magic.h> and statfs(2); SQLite's locking cannot be trusted on any of them.
constexpr std::array<NetworkFs, 5> k_network_filesystems = {{
    {0x6969UL, "nfs"},
    {0x517BUL, "smb"},
    {0xFF534D42UL, "cifs"},
    {0xFE534D42UL, "smb2"},
    {0x65735546UL, "fuse"},
}};

Error store_error(std::string message, std::string hint = {})
{
  return make_error(ErrorCode::store_error, std::move(message), std::move(hint));
}

// A missing store is never created behind the user's back: only `init` creates one.
Error no_store(const std::string& path)
{
  Error error = store_error(fmt::format("no store at {} (run 'mailroom init')", path));
  error.reason = "no_store";
  return error;
}

std::string errno_text(int error)
{
  return std::strerror(error);
}

// mkdir -p with mode 0700 for every directory it creates.
Result<void> make_directories(const std::filesystem::path& dir)
{
  std::filesystem::path partial;
  for (const auto& part : dir) {
    partial /= part;
    if (::mkdir(partial.c_str(), 0700) != 0 && errno != EEXIST) {
      const int error = errno;
      return store_error(fmt::format("cannot create store directory \"{}\": {}", dir.string(),
                                     errno_text(error)));
    }
  }
  struct stat info {};
  if (::stat(dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    return store_error(fmt::format("store directory \"{}\" is not a directory", dir.string()));
  }
  return {};
}

Result<void> check_filesystem(const std::string& dir, const std::string& path)
{
  struct statfs info {};
  if (::statfs(dir.c_str(), &info) != 0) {
    const int error = errno;
    return store_error(fmt::format("cannot inspect store directory \"{}\": {}", dir, errno_text(error)));
  }
  const auto magic = static_cast<unsigned long>(info.f_type) & 0xFFFFFFFFUL;
  for (const auto& fs : k_network_filesystems) {
    if (magic == fs.magic) {
      return store_error(
          fmt::format("store \"{}\" is on a network filesystem ({}); SQLite locking is not safe there",
                      path, fs.name),
          "move the store to a local disk, or set allow_network_fs = true at your own risk");
    }
  }
  return {};
}

// The database path with its directory made canonical (realpath), created when allowed.
Result<std::string> prepare_path(const mail::StoreSettings& settings)
{
  const std::filesystem::path requested(settings.path);
  std::filesystem::path dir = requested.parent_path();
  if (dir.empty()) {
    dir = ".";
  }
  if (requested.filename().empty()) {
    return store_error(fmt::format("store path \"{}\" names a directory, not a file", settings.path));
  }
  const bool create = settings.access == mail::Access::create;
  if (create) {
    TRY(make_directories(dir));
  }
  std::array<char, PATH_MAX> resolved{};
  if (::realpath(dir.c_str(), resolved.data()) == nullptr) {
    const int error = errno;
    if (!create && error == ENOENT) {
      return no_store(settings.path);
    }
    return store_error(fmt::format("cannot open store \"{}\": {}", settings.path, errno_text(error)));
  }
  const std::string canonical_dir = resolved.data();
  const std::string path = (std::filesystem::path(canonical_dir) / requested.filename()).string();
  if (!settings.allow_network_fs) {
    TRY(check_filesystem(canonical_dir, path));
  }
  if (!create && ::access(path.c_str(), F_OK) != 0) {
    return no_store(path);
  }
  return path;
}

} // namespace

SqliteEngine::SqliteEngine(std::string path, sqlite::OpenOptions options, const mail::Clock& clock)
    : m_path(std::move(path)), m_options(options), m_clock(clock)
{
}

Result<std::unique_ptr<SqliteEngine>> SqliteEngine::open(const mail::StoreSettings& settings,
                                                         const mail::Clock& clock)
{
  std::string path = settings.path;
  if (path != ":memory:") {
    TRY_ASSIGN(path, prepare_path(settings));
  }
  sqlite::OpenOptions options;
  options.create = settings.access == mail::Access::create;
  options.busy_timeout = std::max(settings.busy_timeout, std::chrono::milliseconds(0));
  options.synchronous_full = settings.synchronous_full;
  auto engine = std::make_unique<SqliteEngine>(path, options, clock);
  if (settings.access == mail::Access::read && path != ":memory:") {
    sqlite::OpenOptions read_only = options;
    read_only.read_only = true;
    TRY_ASSIGN(sqlite::Database db, sqlite::Database::open(path, read_only));
    TRY_ASSIGN(const bool current, schema_is_current(db));
    if (current) {
      engine->m_read_only.emplace(std::move(db));
      return engine;
    }
    // An older store: migrate it once, under the write lock, whichever command opens it.
  }
  TRY_ASSIGN(sqlite::Database db, sqlite::Database::open(path, options));
  TRY(migrate(db));
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
    sqlite::OpenOptions options = m_options;
    options.create = false;
    TRY_ASSIGN(sqlite::Database db, sqlite::Database::open(m_path, options));
    TRY(migrate(db));
    m_read_write.emplace(std::move(db));
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

Result<std::unique_ptr<sqlstore::SqlStore>> open_bead_store(const mail::StoreSettings& settings,
                                                            const mail::MailPolicy& policy,
                                                            const mail::Clock& clock)
{
  TRY_ASSIGN(std::unique_ptr<SqliteEngine> engine, SqliteEngine::open(settings, clock));
  return std::make_unique<sqlstore::SqlStore>(std::move(engine), sqlite_queries(), policy,
                                              sqlstore::current_origin());
}

} // namespace mailroom::providers::beads
