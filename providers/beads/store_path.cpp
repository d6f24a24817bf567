// Where a bead store may be opened: its path made canonical, its directory created when allowed,
// and the directory, its filesystem, the file and its WAL checked before SQLite opens anything.

#include "beads/store_path.hpp"

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

#include "sqlite/failure.hpp"
#include "sqlite/wal_owner.hpp"

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

// How long a creator waits at least for another one in the same directory.
constexpr std::chrono::milliseconds k_min_create_wait{5000};

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
      return store_error(
          fmt::format("cannot create store directory \"{}\": {}", dir.string(), errno_text(error)));
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
          fmt::format("store \"{}\" is on a network filesystem ({}); SQLite locking is not safe there", path,
                      fs.name),
          "move the store to a local disk, or set allow_network_fs = true at your own risk");
    }
  }
  return {};
}

// Refuses a store directory that other users may write: they could replace the store or plant a
// -wal file that SQLite would replay into it. The store's files are private to one user (0600).
Result<void> check_directory(const std::string& dir)
{
  struct stat info {};
  if (::stat(dir.c_str(), &info) != 0) {
    const int error = errno;
    if (error == EACCES) {
      return sqlite::permission_error(dir + "/.", false);
    }
    return store_error(fmt::format("cannot inspect store directory \"{}\": {}", dir, errno_text(error)));
  }
  if ((info.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    Error error = store_error(
        fmt::format("store directory \"{}\" is writable by {} (mode {:04o}); a store there could be "
                    "replaced by another user",
                    dir, (info.st_mode & S_IWOTH) != 0 ? "everyone" : "its group", info.st_mode & 07777U),
        fmt::format("chmod go-w \"{}\", or keep the store in a directory only you can write", dir));
    error.reason = "insecure_directory";
    return error;
  }
  return {};
}

// What is at `path` must be a regular, non-empty file (or nothing, when `create`). A zero-length
// file is a truncated store, never a new one, unless its WAL still holds the data.
Result<void> check_store_file(const std::string& path, bool create)
{
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) {
    const int error = errno;
    if (error == ENOENT) {
      return create ? Result<void>() : Result<void>(no_store(path));
    }
    if (error == EACCES) {
      return sqlite::permission_error(path, false);
    }
    return store_error(fmt::format("cannot inspect store \"{}\": {}", path, errno_text(error)));
  }
  if (S_ISLNK(info.st_mode)) {
    std::array<char, PATH_MAX> target{};
    const ssize_t length = ::readlink(path.c_str(), target.data(), target.size() - 1);
    const std::string to = length > 0 ? std::string(target.data(), static_cast<std::size_t>(length)) : "?";
    return file_error(fmt::format("store \"{}\" is a symbolic link (to \"{}\"); mailroom opens only a "
                                  "regular file",
                                  path, to),
                      "point --db, MAILROOM_DB or [store] path at the file itself", "symlink");
  }
  if (S_ISDIR(info.st_mode)) {
    return file_error(fmt::format("store \"{}\" is a directory, not a store file", path),
                      "the store path names the database file, e.g. .mailroom/mail.db", "not_a_file");
  }
  if (!S_ISREG(info.st_mode)) {
    return file_error(fmt::format("store \"{}\" is not a regular file", path),
                      "the store path names the database file, e.g. .mailroom/mail.db", "not_a_file");
  }
  if (info.st_size == 0) {
    // A store whose pages are all still in its WAL is empty on disk but not empty.
    struct stat wal {};
    const std::string wal_path = path + "-wal";
    if (::stat(wal_path.c_str(), &wal) != 0 || wal.st_size <= 32) {
      return file_error(fmt::format("store \"{}\" is an empty file (0 bytes), not a mailroom store; it "
                                    "may have been truncated",
                                    path),
                        "restore it from a backup, or move it aside and run 'mailroom init'", "empty_store");
    }
  }
  return {};
}

// Refuses a -wal that another database wrote (sqlite/wal_owner.hpp): SQLite would replay its pages
// into this store. Runs before SQLite opens anything, so nothing is read or replayed; only at the
// first open of the store in this process.
Result<void> check_wal(const std::string& path)
{
  // A process that has the store open already (a server's next pooled connection, a firer's) made
  // the check at its first open, and reading the files now would drop SQLite's locks on them.
  if (sqlite::open_in_this_process(path) || sqlite::open_in_this_process(path + "-shm")) {
    return {};
  }
  const sqlite::WalVerdict verdict = sqlite::check_wal_owner(path);
  if (verdict.owner != sqlite::WalOwner::foreign) {
    return {};
  }
  return file_error(
      fmt::format("\"{}-wal\" does not belong to the store \"{}\": {}; nothing was opened", path, path,
                  verdict.why),
      fmt::format(
          "move \"{0}-wal\" aside if it came from elsewhere; if it is this store's own (after a power "
          "loss), remove \"{0}-shm\" instead and SQLite rebuilds it",
          path),
      "foreign_wal");
}

} // namespace

Error file_error(std::string message, std::string hint, std::string reason)
{
  Error error = store_error(std::move(message), std::move(hint));
  error.reason = std::move(reason);
  return error;
}

// The database path with its directory made canonical (realpath), created when allowed, and the
// directory and the file checked. Creating, `lock` holds the directory's CreateLock from before
// the file is checked until the caller has made the store.
Result<std::string> prepare_path(const mail::StoreSettings& settings, std::optional<CreateLock>& lock)
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
    if (error == EACCES) {
      return sqlite::permission_error(settings.path, false);
    }
    return store_error(fmt::format("cannot open store \"{}\": {}", settings.path, errno_text(error)));
  }
  const std::string canonical_dir = resolved.data();
  const std::string path = (std::filesystem::path(canonical_dir) / requested.filename()).string();
  if (!settings.allow_network_fs) {
    TRY(check_filesystem(canonical_dir, path));
  }
  TRY(check_directory(canonical_dir));
  if (create) {
    TRY_ASSIGN(CreateLock taken,
               CreateLock::take(canonical_dir, std::max(settings.busy_timeout, k_min_create_wait)));
    lock.emplace(std::move(taken));
  }
  TRY(check_store_file(path, create));
  TRY(check_wal(path));
  return path;
}

} // namespace mailroom::providers::beads
