// The bead store's change signal: inotify as the hint, PRAGMA data_version as the truth (signal.hpp).

#include "beads/signal.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>

#include <fmt/format.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mail/retry.hpp"

namespace mailroom::providers::beads {

namespace {

using Clock = std::chrono::steady_clock;

// A commit is published a sync after its WAL write: a few milliseconds on most disks, so the
// settle polls stay that close together.
constexpr std::chrono::milliseconds k_settle_step_max{4};
// The directory events that may mean a commit (signal.hpp).
constexpr std::uint32_t k_commit_events = IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE;
// The events that may mean the store file is gone from its path (deleted, renamed, its directory
// moved or deleted): its identity is checked at once.
constexpr std::uint32_t k_gone_events = IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF;
constexpr std::uint32_t k_events = k_commit_events | k_gone_events;

// Which file a path names: its device and inode.
struct FileId {
  dev_t device = 0;
  ino_t inode = 0;
  bool operator==(const FileId&) const = default;
};

// The file at `path` now; nullopt when there is none (or it cannot be seen).
std::optional<FileId> file_id(const std::string& path)
{
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    return std::nullopt;
  }
  return FileId{info.st_dev, info.st_ino};
}

int poll_ms(Clock::duration left)
{
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return static_cast<int>(std::clamp<long long>(ms, 0, 3600LL * 1000));
}

class SqliteChangeSignal final : public mail::ChangeSignal {
public:
  SqliteChangeSignal(sqlite::Database db, int inotify_fd, int watch, std::string path, std::string dir,
                     std::string file_name)
      : m_db(std::move(db)), m_inotify(inotify_fd), m_watch(watch), m_path(std::move(path)),
        m_dir(std::move(dir)), m_file(std::move(file_name)), m_wal(m_file + "-wal")
  {
  }
  SqliteChangeSignal(const SqliteChangeSignal&) = delete;
  SqliteChangeSignal& operator=(const SqliteChangeSignal&) = delete;
  ~SqliteChangeSignal() override
  {
    if (m_inotify >= 0) {
      ::close(m_inotify);
    }
  }

  // Reads the version the later waits compare with. `before_open` is the file at the path just
  // before the connection opened; a different file (or none) there now means the connection may
  // read a file that is no longer the store, so the store counts as replaced from the start.
  Result<void> arm(std::optional<FileId> before_open)
  {
    TRY_ASSIGN(m_version, data_version());
    const auto id = file_id(m_path);
    if (!id || !before_open) {
      return replaced("was deleted or moved away");
    }
    if (*id != *before_open) {
      return replaced("was replaced by another file");
    }
    m_file_id = *id;
    return {};
  }

  Result<mail::WakeReason> wait(Clock::time_point deadline, int interrupt_fd) override
  {
    // The watch is taken down between waits (see release_watch) and put back here, before the
    // version is read: a commit in between is in the version.
    if (m_inotify >= 0 && m_watch < 0) {
      m_watch = ::inotify_add_watch(m_inotify, m_dir.c_str(), k_events);
    }
    TRY_ASSIGN(const mail::WakeReason why, wait_watched(deadline, interrupt_fd));
    release_watch();
    return why;
  }

private:
  // Closing an inotify descriptor that still has a watch blocks until the kernel has retired the
  // watch (an SRCU grace period, milliseconds: BENCHMARKS.md), and a waiter closes it right when it
  // has found its message. Removing the watch as soon as a wait ends lets the kernel retire it
  // in the background while the caller reads and prints; the close is then quick.
  void release_watch()
  {
    if (m_watch >= 0) {
      ::inotify_rm_watch(m_inotify, m_watch);
      m_watch = -1;
    }
  }

  Result<mail::WakeReason> wait_watched(Clock::time_point deadline, int interrupt_fd)
  {
    Clock::time_point settle_until = Clock::time_point::min();
    std::chrono::milliseconds step{1};
    while (true) {
      TRY(still_there());
      TRY_ASSIGN(const std::int64_t version, data_version());
      if (version != m_version) {
        m_version = version;
        return mail::WakeReason::changed;
      }
      const auto now = Clock::now();
      if (now >= deadline) {
        return mail::WakeReason::timeout;
      }
      auto next = now + k_fallback_poll_ms;
      if (now < settle_until) {
        next = std::min(next, now + step);
        step = std::min(step * 2, k_settle_step_max);
      }
      next = std::min(next, deadline);
      std::array<pollfd, 2> fds{};
      nfds_t count = 0;
      if (m_inotify >= 0) {
        fds[count++] = pollfd{m_inotify, POLLIN, 0};
      }
      if (interrupt_fd >= 0) {
        fds[count++] = pollfd{interrupt_fd, POLLIN, 0};
      }
      if (::poll(fds.data(), count, poll_ms(next - now)) <= 0) {
        continue; // a step, the fallback poll, the deadline or EINTR: ask data_version
      }
      for (nfds_t i = 0; i < count; ++i) {
        if (fds[i].revents == 0) {
          continue;
        }
        if (fds[i].fd == interrupt_fd) {
          return mail::WakeReason::interrupted;
        }
        if (drain_events()) {
          settle_until = Clock::now() + k_settle_ms;
          step = std::chrono::milliseconds(1);
        }
      }
    }
  }

  // The connection keeps reading the file it opened, even once another file is at its path or
  // none is: nothing committed there would ever wake this signal. That ends the wait.
  Result<void> still_there()
  {
    const auto id = file_id(m_path);
    if (!id) {
      return replaced("was deleted or moved away");
    }
    if (*id != m_file_id) {
      return replaced("was replaced by another file");
    }
    return {};
  }

  Error replaced(std::string_view what) const
  {
    Error error =
        make_error(ErrorCode::store_error, fmt::format("the store at {} {} while waiting", m_path, what),
                   "run the command again to use the store now at that path");
    error.reason = std::string(mail::k_store_replaced);
    return error;
  }

  Result<std::int64_t> data_version()
  {
    TRY_ASSIGN(db::Statement * statement, m_db.cached("PRAGMA data_version"));
    TRY_ASSIGN(const bool has_row, statement->step());
    const std::int64_t version = has_row ? statement->get<std::int64_t>(0) : 0;
    statement->reset();
    return version;
  }

  // Reads every queued event; true when one may be a commit (a write to the store or its WAL, a
  // file put in their place, or a queue overflow that may have hidden one).
  bool drain_events()
  {
    bool relevant = false;
    alignas(inotify_event) std::array<char, 4096> buffer{};
    while (true) {
      const ssize_t n = ::read(m_inotify, buffer.data(), buffer.size());
      if (n <= 0) {
        return relevant; // EAGAIN: drained
      }
      for (ssize_t at = 0; at < n;) {
        const auto* event = reinterpret_cast<const inotify_event*>(buffer.data() + at);
        const std::string_view name = event->len > 0 ? std::string_view(event->name) : std::string_view();
        if ((event->mask & (IN_Q_OVERFLOW | IN_DELETE_SELF | IN_MOVE_SELF)) != 0 ||
            ((event->mask & k_events) != 0 && (name == m_file || name == m_wal))) {
          relevant = true;
        }
        at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
      }
    }
  }

  sqlite::Database m_db;
  int m_inotify = -1;
  int m_watch = -1; // the directory's watch while a wait runs; -1 between waits
  std::string m_path;
  FileId m_file_id; // the store file the connection reads
  std::string m_dir;
  std::string m_file;
  std::string m_wal;
  std::int64_t m_version = 0;
};

} // namespace

Result<std::unique_ptr<mail::ChangeSignal>> open_change_signal(const std::string& path,
                                                               const sqlite::OpenOptions& options)
{
  const std::filesystem::path file(path);
  std::string dir = file.parent_path().string();
  if (dir.empty()) {
    dir = ".";
  }
  // The watch goes on before the version is read: a commit between the two is then either in the
  // version or an event, never lost.
  int inotify_fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  int watch = inotify_fd >= 0 ? ::inotify_add_watch(inotify_fd, dir.c_str(), k_events) : -1;
  if (inotify_fd >= 0 && watch < 0) {
    ::close(inotify_fd);
    inotify_fd = -1; // no inotify here (or no watches left): the fallback poll alone
  }
  sqlite::OpenOptions read_only = options;
  read_only.read_only = true;
  read_only.create = false;
  const std::optional<FileId> before_open = file_id(path);
  auto db = sqlite::Database::open(path, read_only);
  if (!db.ok()) {
    if (inotify_fd >= 0) {
      ::close(inotify_fd);
    }
    return std::move(db).error();
  }
  auto signal = std::make_unique<SqliteChangeSignal>(std::move(db).value(), inotify_fd, watch, path, dir,
                                                     file.filename().string());
  TRY(signal->arm(before_open));
  return std::unique_ptr<mail::ChangeSignal>(std::move(signal));
}

} // namespace mailroom::providers::beads
