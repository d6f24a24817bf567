#pragma once

// The VFS of read-only connections (docs/store.md, "A writer killed at the wrong moment").
//
// A writer whose WAL is empty writes the WAL header (32 bytes, with new salts) and then its
// frames. Killed between the two (SIGKILL, a crash), it leaves a -wal of exactly 32 bytes: a
// header and no frame, so nothing committed. A writer that opens the store next recovers the
// WAL index and writes on. A read-only connection (readonly_shm) with no other process attached
// cannot write the index, so SQLite rebuilds it in the reader's own memory from the WAL, and
// from a WAL of no more than its header it records no salts; it then checks that the WAL's
// salts are still the ones it indexed (to notice a writer that came and went), finds them
// different, builds the index again, and after about a hundred tries (10 s) fails with
// SQLITE_PROTOCOL ("locking protocol"). Every read-only command failed so until someone wrote.
//
// This VFS is SQLite's default one with one difference: a -wal of exactly its header reports a
// size of 0 bytes. For a WAL with no frame that is the truth about its content (SQLite reads
// only the database then, as it does for an empty WAL), so the reader reads past the state at
// once, without writing, creating or truncating a file. Every other file, and every other
// operation, is the default VFS's own.

namespace mailroom::sqlite::detail {

// The name to pass to sqlite3_open_v2 for a read-only connection; registers the VFS (not as the
// default) on first use.
const char* reader_vfs();

} // namespace mailroom::sqlite::detail
