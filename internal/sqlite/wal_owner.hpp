#pragma once

// Does the -wal file beside a database belong to it? (docs/store.md, "A -wal from elsewhere")
//
// SQLite replays whatever `<db>-wal` holds into `<db>` when the first connection opens it, as long
// as the WAL is consistent with itself: a -wal copied from another database (a restored backup, a
// file manager, a `cp` of the wrong directory) is replayed silently, and its pages corrupt the
// store. A foreign WAL is self-consistent, so it cannot be told from its own frames; the witness is
// the wal-index (`<db>-shm`), which keeps a copy of the salts of the WAL it indexed. This check
// reads the headers only (never through SQLite) and runs before SQLite opens the database.
//
// File formats (sqlite.org/fileformat2.html "WAL File Format", sqlite.org/walformat.html, and
// SQLite's src/wal.c): the WAL header is 32 bytes of big-endian u32s: magic 0x377f0682 or
// 0x377f0683 (the low bit gives the checksum byte order), format 3007000, page size, checkpoint
// sequence, salt-1, salt-2, and a checksum of the first 24 bytes. A frame is a 24-byte header and
// one page. The -shm starts with two copies of the 48-byte wal-index header in the host's byte
// order: version (3007000) at 0, isInit at 12, page size at 14 (u16; 1 means 65536), the salts at
// 32 (the 8 bytes of the WAL header's salts as written), and a checksum of bytes 0..39 at 40.
// After a checkpoint restarts the WAL, the index holds salt-1 + 1 and a new salt-2 until the next
// write rewrites the WAL header.

#include <cstdint>
#include <string>
#include <string_view>

namespace mailroom::sqlite {

enum class WalOwner {
  nothing_to_replay, // no -wal, or one SQLite would not replay (too short, no frame, bad header)
  cannot_decide,     // no usable -shm (absent, not initialised, being rebuilt), or one a live process holds
  belongs,           // the -shm's salts are the WAL's (or one restart ahead of them)
  foreign,           // the salts or the page size say it came from another database
};

struct WalVerdict {
  WalOwner owner = WalOwner::nothing_to_replay;
  std::string why; // for `foreign`: what differs, e.g. "its salts are not the ones <db>-shm indexed"
};

// The verdict from the bytes of the three files: up to the first 32 bytes of the -wal with the
// -wal's size, up to the first 96 bytes of the -shm (empty when absent), and up to the first 100
// bytes of the database (its page size, when it has a header).
WalVerdict judge_wal(std::string_view wal_header, std::int64_t wal_size, std::string_view shm_header,
                     std::string_view db_header);

// Reads the files beside `db_path` and judges them. A file that cannot be read counts as absent
// (SQLite reports its own errors when it opens them). Never call it in a process that already has
// the database open (see open_in_this_process): closing a descriptor of a file releases every POSIX
// lock the process holds on it, SQLite's included (the -shm's DMS lock, the database's), and
// another process would then rebuild a -shm this process still maps (SIGBUS).
WalVerdict check_wal_owner(const std::string& db_path);

// Whether this process has a descriptor open on the file at `path` (same device and inode).
bool open_in_this_process(const std::string& path);

} // namespace mailroom::sqlite
