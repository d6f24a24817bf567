#include "sqlite/failure.hpp"

#include <array>
#include <cstdio>
#include <fstream>
#include <optional>

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace mailroom::sqlite {

namespace {

std::string directory_of(const std::string& path)
{
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) {
    return ".";
  }
  return slash == 0 ? std::string("/") : path.substr(0, slash);
}

// "owned by alice (uid 1001), mode 0600"
std::string owner_and_mode(const struct stat& info)
{
  return fmt::format("owned by {} (uid {}), mode {:04o}", user_name(info.st_uid), info.st_uid,
                     info.st_mode & 07777U);
}

std::string whoami()
{
  const uid_t me = ::geteuid();
  return fmt::format("mailroom runs as {} (uid {})", user_name(me), me);
}

// The first of the store's files (and then its directory) that `access` says this process cannot
// use as needed, with its stat; the database file when none can be singled out.
struct Culprit {
  std::string path;
  struct stat info {};
  bool is_directory = false;
};

std::optional<Culprit> find_culprit(const std::string& path, bool write)
{
  const int need = write ? (R_OK | W_OK) : R_OK;
  const std::string dir = directory_of(path);
  Culprit culprit;
  // The directory first: without search permission nothing inside can even be inspected.
  if (::stat(dir.c_str(), &culprit.info) == 0 && ::access(dir.c_str(), X_OK) != 0) {
    culprit.path = dir;
    culprit.is_directory = true;
    return culprit;
  }
  // The -wal and -shm files are opened read-write even by readers that write nothing.
  const std::array<std::pair<std::string, int>, 3> files = {{
      {path, need},
      {path + "-wal", R_OK | W_OK},
      {path + "-shm", R_OK | W_OK},
  }};
  for (const auto& [file, mode] : files) {
    if (::stat(file.c_str(), &culprit.info) == 0 && ::access(file.c_str(), mode) != 0) {
      culprit.path = file;
      return culprit;
    }
  }
  // A missing -wal or -shm must be created in the directory.
  if (::stat(dir.c_str(), &culprit.info) == 0 && ::access(dir.c_str(), W_OK | X_OK) != 0) {
    culprit.path = dir;
    culprit.is_directory = true;
    return culprit;
  }
  if (::stat(path.c_str(), &culprit.info) == 0) {
    culprit.path = path;
    return culprit;
  }
  return std::nullopt;
}

// The mount point holding `path`: the last directory up the tree on the same device.
std::string mount_point_of(const std::string& path)
{
  std::string current = directory_of(path);
  struct stat info {};
  if (::stat(current.c_str(), &info) != 0) {
    return current;
  }
  const dev_t device = info.st_dev;
  while (current != "/") {
    const std::string parent = directory_of(current);
    struct stat up {};
    if (::stat(parent.c_str(), &up) != 0 || up.st_dev != device) {
      break;
    }
    current = parent;
  }
  return current;
}

std::string human_bytes(unsigned long long bytes)
{
  if (bytes < 10ULL * 1024) {
    return fmt::format("{} bytes", bytes);
  }
  if (bytes < 10ULL * 1024 * 1024) {
    return fmt::format("{} KiB", bytes / 1024);
  }
  return fmt::format("{} MiB", bytes / (1024ULL * 1024));
}

} // namespace

std::string user_name(unsigned uid)
{
  // name:password:uid:... one entry per line.
  std::ifstream passwd("/etc/passwd");
  std::string line;
  while (std::getline(passwd, line)) {
    const auto first = line.find(':');
    const auto second = first == std::string::npos ? first : line.find(':', first + 1);
    const auto third = second == std::string::npos ? second : line.find(':', second + 1);
    if (third == std::string::npos) {
      continue;
    }
    if (line.compare(second + 1, third - second - 1, std::to_string(uid)) == 0) {
      return line.substr(0, first);
    }
  }
  return fmt::format("uid {}", uid);
}

Error permission_error(const std::string& path, bool write)
{
  struct statvfs fs {};
  if (write && ::statvfs(directory_of(path).c_str(), &fs) == 0 && (fs.f_flag & ST_RDONLY) != 0) {
    Error error =
        make_error(ErrorCode::store_error, fmt::format("store \"{}\" is on a read-only filesystem", path),
                   "reading still works; writing needs the filesystem mounted read-write");
    error.reason = "read_only";
    return error;
  }
  const auto culprit = find_culprit(path, write);
  std::string message;
  if (!culprit) {
    message = fmt::format("permission denied on store \"{}\" ({})", path, whoami());
  } else if (culprit->is_directory) {
    message = fmt::format("permission denied on store directory \"{}\" ({}; {})", culprit->path,
                          owner_and_mode(culprit->info), whoami());
  } else if (culprit->path == path && write && ::access(path.c_str(), R_OK) == 0) {
    message = fmt::format("store \"{}\" is read-only for you ({}; {})", path, owner_and_mode(culprit->info),
                          whoami());
  } else {
    message =
        fmt::format("permission denied on {} \"{}\" ({}; {})", culprit->path == path ? "store" : "store file",
                    culprit->path, owner_and_mode(culprit->info), whoami());
  }
  Error error = make_error(ErrorCode::store_error, std::move(message),
                           "every agent sharing a store must run as the user who owns it");
  error.reason = "permission";
  return error;
}

Error no_space_error(const std::string& path, std::string_view outcome)
{
  const std::string mount = mount_point_of(path);
  std::string free_text = "no free space";
  struct statvfs fs {};
  if (::statvfs(directory_of(path).c_str(), &fs) == 0) {
    free_text = human_bytes(static_cast<unsigned long long>(fs.f_bavail) * fs.f_frsize) + " free";
  }
  std::string message =
      fmt::format("no space left on device for store \"{}\" ({} has {})", path, mount, free_text);
  if (!outcome.empty()) {
    message += "; ";
    message += outcome;
  }
  Error error = make_error(ErrorCode::store_error, std::move(message),
                           "free some space there; commands that only read keep working");
  error.reason = "no_space";
  return error;
}

} // namespace mailroom::sqlite
