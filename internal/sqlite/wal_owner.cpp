#include "sqlite/wal_owner.hpp"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mailroom::sqlite {

namespace {

constexpr std::uint32_t k_wal_magic = 0x377f0682U;
constexpr std::uint32_t k_wal_version = 3007000U;
constexpr std::size_t k_wal_header_bytes = 32;
constexpr std::size_t k_frame_header_bytes = 24;
constexpr std::size_t k_index_header_bytes = 48;
constexpr std::string_view k_db_magic{"SQLite format 3\0", 16};

std::uint32_t big_endian_u32(std::string_view bytes, std::size_t at)
{
  const auto byte = [&](std::size_t i) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + i]));
  };
  return (byte(0) << 24U) | (byte(1) << 16U) | (byte(2) << 8U) | byte(3);
}

std::uint32_t little_endian_u32(std::string_view bytes, std::size_t at)
{
  const auto byte = [&](std::size_t i) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + i]));
  };
  return byte(0) | (byte(1) << 8U) | (byte(2) << 16U) | (byte(3) << 24U);
}

template <typename T> T host_order(std::string_view bytes, std::size_t at)
{
  T value{};
  std::memcpy(&value, bytes.data() + at, sizeof value);
  return value;
}

// SQLite's WAL checksum over `count` bytes (a multiple of 8), its words read by `word`.
template <typename Word>
std::array<std::uint32_t, 2> wal_checksum(std::string_view bytes, std::size_t count, Word word)
{
  std::uint32_t s1 = 0;
  std::uint32_t s2 = 0;
  for (std::size_t i = 0; i + 8 <= count; i += 8) {
    s1 += word(bytes, i) + s2;
    s2 += word(bytes, i + 4) + s1;
  }
  return {s1, s2};
}

bool valid_page_size(std::uint32_t size)
{
  return size >= 512 && size <= 65536 && (size & (size - 1)) == 0;
}

// The WAL header SQLite would replay, or false when it would ignore the file.
bool replayable(std::string_view wal, std::int64_t wal_size, std::uint32_t& page_size)
{
  if (wal.size() < k_wal_header_bytes) {
    return false;
  }
  const std::uint32_t magic = big_endian_u32(wal, 0);
  if ((magic & ~1U) != k_wal_magic || big_endian_u32(wal, 4) != k_wal_version) {
    return false;
  }
  page_size = big_endian_u32(wal, 8);
  if (!valid_page_size(page_size)) {
    return false;
  }
  const auto sum =
      (magic & 1U) != 0 ? wal_checksum(wal, 24, big_endian_u32) : wal_checksum(wal, 24, little_endian_u32);
  if (sum[0] != big_endian_u32(wal, 24) || sum[1] != big_endian_u32(wal, 28)) {
    return false;
  }
  // A header with no whole frame after it has nothing to replay.
  return wal_size >= static_cast<std::int64_t>(k_wal_header_bytes + k_frame_header_bytes + page_size);
}

// The first wal-index header of `shm` when it is initialised, whole and self-consistent.
bool usable_index(std::string_view shm)
{
  if (shm.size() < 2 * k_index_header_bytes) {
    return false;
  }
  const std::string_view first = shm.substr(0, k_index_header_bytes);
  if (first != shm.substr(k_index_header_bytes, k_index_header_bytes)) {
    return false; // a writer is between its two copies
  }
  if (host_order<std::uint32_t>(first, 0) != k_wal_version || first[12] == 0) {
    return false;
  }
  const auto sum = wal_checksum(
      first, 40, [](std::string_view b, std::size_t at) { return host_order<std::uint32_t>(b, at); });
  return sum[0] == host_order<std::uint32_t>(first, 40) && sum[1] == host_order<std::uint32_t>(first, 44);
}

std::uint32_t index_page_size(std::string_view shm)
{
  const auto stored = host_order<std::uint16_t>(shm, 14);
  return (stored & 0xfe00U) + ((stored & 1U) << 16U);
}

std::uint32_t db_page_size(std::string_view db)
{
  if (db.size() < 18 || db.substr(0, k_db_magic.size()) != k_db_magic) {
    return 0;
  }
  const std::uint32_t stored = (static_cast<std::uint32_t>(static_cast<unsigned char>(db[16])) << 8U) |
                               static_cast<unsigned char>(db[17]);
  return stored == 1 ? 65536 : stored;
}

// Up to `max` bytes from the start of `path`, and its size; empty and -1 when it cannot be read.
std::string read_head(const std::string& path, std::size_t max, std::int64_t* size = nullptr)
{
  std::string bytes;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (size != nullptr) {
    *size = -1;
  }
  if (fd < 0) {
    return bytes;
  }
  struct stat info {};
  if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) {
    if (size != nullptr) {
      *size = info.st_size;
    }
    bytes.resize(max);
    std::size_t got = 0;
    while (got < max) {
      const ssize_t n = ::pread(fd, bytes.data() + got, max - got, static_cast<off_t>(got));
      if (n < 0 && errno == EINTR) {
        continue;
      }
      if (n <= 0) {
        break;
      }
      got += static_cast<std::size_t>(n);
    }
    bytes.resize(got);
  }
  ::close(fd);
  return bytes;
}

// True when another process has the store open: SQLite's unix VFS holds a shared lock on the
// -shm's "DMS" byte (offset 128) for as long as a connection is open, and runs recovery (the only
// time a WAL is replayed from its own header) only when it can take that byte exclusively. While
// it is held the index is live and authoritative, and its headers move under a reader.
bool index_in_use(const std::string& shm_path)
{
  const int fd = ::open(shm_path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    return false;
  }
  struct flock probe {};
  probe.l_type = F_WRLCK;
  probe.l_whence = SEEK_SET;
  probe.l_start = 128;
  probe.l_len = 1;
  const bool held = ::fcntl(fd, F_GETLK, &probe) == 0 && probe.l_type != F_UNLCK;
  ::close(fd);
  return held;
}

} // namespace

WalVerdict judge_wal(std::string_view wal_header, std::int64_t wal_size, std::string_view shm_header,
                     std::string_view db_header)
{
  WalVerdict verdict;
  std::uint32_t page_size = 0;
  if (!replayable(wal_header, wal_size, page_size)) {
    return verdict;
  }
  const std::uint32_t db_page = db_page_size(db_header);
  if (db_page != 0 && db_page != page_size) {
    verdict.owner = WalOwner::foreign;
    verdict.why = fmt::format("its page size is {} bytes and the database's is {}", page_size, db_page);
    return verdict;
  }
  if (!usable_index(shm_header)) {
    verdict.owner = WalOwner::cannot_decide;
    return verdict;
  }
  if (index_page_size(shm_header) == 0) {
    // An index built from an empty WAL has never seen a WAL header: a first writer may be
    // appending frames (with salts of its own) that the index records only at commit.
    verdict.owner = WalOwner::cannot_decide;
    return verdict;
  }
  if (index_page_size(shm_header) != page_size) {
    verdict.owner = WalOwner::foreign;
    verdict.why = fmt::format("its page size is {} bytes and the WAL index's is {}", page_size,
                              index_page_size(shm_header));
    return verdict;
  }
  const std::string_view wal_salts = wal_header.substr(16, 8);
  const std::string_view index_salts = shm_header.substr(32, 8);
  // Salts equal, or the index one restart ahead (salt-1 + 1; the WAL header is rewritten by the
  // next write).
  if (wal_salts == index_salts || big_endian_u32(index_salts, 0) == big_endian_u32(wal_salts, 0) + 1) {
    verdict.owner = WalOwner::belongs;
    return verdict;
  }
  verdict.owner = WalOwner::foreign;
  verdict.why = "its salts are not the ones the WAL index (-shm) recorded for this database";
  return verdict;
}

bool open_in_this_process(const std::string& path)
{
  struct stat target {};
  if (::stat(path.c_str(), &target) != 0) {
    return false;
  }
  DIR* fds = ::opendir("/proc/self/fd");
  if (fds == nullptr) {
    return false;
  }
  const int own = ::dirfd(fds);
  bool found = false;
  while (const dirent* entry = ::readdir(fds)) {
    char* end = nullptr;
    const long fd = std::strtol(entry->d_name, &end, 10);
    struct stat info {};
    if (end == entry->d_name || *end != '\0' || fd == own || ::fstat(static_cast<int>(fd), &info) != 0) {
      continue;
    }
    if (info.st_dev == target.st_dev && info.st_ino == target.st_ino) {
      found = true;
      break;
    }
  }
  ::closedir(fds);
  return found;
}

WalVerdict check_wal_owner(const std::string& db_path)
{
  std::int64_t wal_size = -1;
  const std::string wal = read_head(db_path + "-wal", k_wal_header_bytes, &wal_size);
  if (wal.size() < k_wal_header_bytes) {
    return {};
  }
  if (index_in_use(db_path + "-shm")) {
    return WalVerdict{WalOwner::cannot_decide, {}}; // open elsewhere: nothing will be replayed
  }
  const std::string db = read_head(db_path, 100);
  // A live writer may restart the WAL between the reads: read the index before and after the
  // WAL, and judge only an index that did not move.
  WalVerdict verdict;
  for (int attempt = 0; attempt < 3; ++attempt) {
    const std::string before = read_head(db_path + "-shm", 2 * k_index_header_bytes);
    const std::string wal_now = read_head(db_path + "-wal", k_wal_header_bytes, &wal_size);
    const std::string after = read_head(db_path + "-shm", 2 * k_index_header_bytes);
    verdict = judge_wal(wal_now, wal_size, after, db);
    if (before == after) {
      return verdict;
    }
  }
  if (verdict.owner == WalOwner::foreign) {
    verdict = WalVerdict{WalOwner::cannot_decide, {}}; // the index kept moving: a live writer owns it
  }
  return verdict;
}

} // namespace mailroom::sqlite
