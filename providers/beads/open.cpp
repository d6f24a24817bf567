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
  if (settings.create) {
    TRY(make_directories(dir));
  }
  std::array<char, PATH_MAX> resolved{};
  if (::realpath(dir.c_str(), resolved.data()) == nullptr) {
    const int error = errno;
    return store_error(fmt::format("cannot open store \"{}\": {}", settings.path, errno_text(error)),
                       settings.create ? std::string() : "create it with: mailroom init");
  }
  const std::string canonical_dir = resolved.data();
  const std::string path = (std::filesystem::path(canonical_dir) / requested.filename()).string();
  if (!settings.allow_network_fs) {
    TRY(check_filesystem(canonical_dir, path));
  }
  if (!settings.create && ::access(path.c_str(), F_OK) != 0) {
    return store_error(fmt::format("store \"{}\" does not exist", path), "create it with: mailroom init");
  }
  return path;
}

} // namespace

Result<std::unique_ptr<BeadStore>> BeadStore::open(const mail::StoreSettings& settings,
                                                         const mail::Clock& clock)
{
  std::string path = settings.path;
  if (path != ":memory:") {
    TRY_ASSIGN(path, prepare_path(settings));
  }
  sqlite::OpenOptions options;
  options.create = settings.create;
  options.busy_timeout = std::max(settings.busy_timeout, std::chrono::milliseconds(0));
  options.synchronous_full = settings.synchronous_full;
  TRY_ASSIGN(sqlite::Database db, sqlite::Database::open(path, options));
  TRY(migrate(db));
  return std::make_unique<BeadStore>(std::move(db), clock, settings.id_prefix);
}

Result<std::unique_ptr<mail::Provider>> open_bead_store(const mail::StoreSettings& settings,
                                                              const mail::Clock& clock)
{
  TRY_ASSIGN(std::unique_ptr<BeadStore> store, BeadStore::open(settings, clock));
  return std::unique_ptr<mail::Provider>(std::move(store));
}

} // namespace mailroom::providers::beads
