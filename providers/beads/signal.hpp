#pragma once

// The bead store's change signal (mail/signal.hpp): inotify on the store's directory as the hint,
// PRAGMA data_version on a connection of its own as the truth, and a slow poll as the fallback.
//
//  - A commit by another connection shows as IN_MODIFY on `<db>-wal` (on `<db>` itself at a
//    checkpoint, or when the store is not in WAL mode). The -wal and -shm files may be deleted
//    and recreated, so the directory is watched, not the files.
//  - SQLite writes a commit's frames to the WAL (and syncs it) before it publishes the commit in
//    the shared index, which inotify cannot see (it is mmap'ed): an IN_MODIFY usually comes
//    before data_version moves. After one, data_version is asked again at 1, 2, 4, 4 … ms for up
//    to k_settle_ms before the signal goes back to sleep.
//  - A process that wrote and ends (a `send`) closes the WAL after publishing its commit: that
//    IN_CLOSE_WRITE is asked about at once, so a waiter sees a command-line send as soon as the
//    sender is done. Readers close the WAL too (SQLite opens it read-write); each such event
//    costs one data_version read.
//  - Every k_fallback_poll_ms data_version is asked anyway, for filesystems without inotify
//    events (network filesystems, some FUSE and container mounts) and for missed events.
//  - data_version changes when any other connection commits, the store's own writer included, so
//    a process that waits on this signal also wakes for its own writes; the caller re-reads.

#include <chrono>
#include <memory>
#include <string>

#include "base/result.hpp"
#include "mail/signal.hpp"
#include "sqlite/database.hpp"

namespace mailroom::providers::beads {

inline constexpr std::chrono::milliseconds k_fallback_poll_ms{1000};
inline constexpr std::chrono::milliseconds k_settle_ms{250};

// A change signal for the store file at `path` (an existing file store), armed now: its own
// read-only connection with `options`, and an inotify watch on the directory (when inotify cannot
// be used, the signal still works on the fallback poll alone). Errors: store_error, timeout.
Result<std::unique_ptr<mail::ChangeSignal>> open_change_signal(const std::string& path,
                                                               const sqlite::OpenOptions& options);

} // namespace mailroom::providers::beads
