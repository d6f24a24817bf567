#include "sqlite/reader_vfs.hpp"

#include <cstddef>

#include <sqlite3.h>

namespace mailroom::sqlite::detail {

namespace {

constexpr const char* k_name = "mailroom-reader";
constexpr sqlite3_int64 k_wal_header_bytes = 32;

// A -wal opened through this VFS: our methods first, the default VFS's file after it, in the
// space SQLite allocates (szOsFile).
struct WalFile {
  sqlite3_file base;
  sqlite3_file* real;
};
constexpr std::size_t k_real_offset =
    (sizeof(WalFile) + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) * alignof(std::max_align_t);

sqlite3_file* real(sqlite3_file* file)
{
  return reinterpret_cast<WalFile*>(file)->real;
}

int wal_close(sqlite3_file* file)
{
  sqlite3_file* inner = real(file);
  return inner->pMethods->xClose(inner);
}

int wal_read(sqlite3_file* file, void* buffer, int amount, sqlite3_int64 offset)
{
  sqlite3_file* inner = real(file);
  return inner->pMethods->xRead(inner, buffer, amount, offset);
}

int wal_write(sqlite3_file* file, const void* buffer, int amount, sqlite3_int64 offset)
{
  sqlite3_file* inner = real(file);
  return inner->pMethods->xWrite(inner, buffer, amount, offset);
}

int wal_truncate(sqlite3_file* file, sqlite3_int64 size)
{
  sqlite3_file* inner = real(file);
  return inner->pMethods->xTruncate(inner, size);
}

int wal_sync(sqlite3_file* file, int flags)
{
  sqlite3_file* inner = real(file);
  return inner->pMethods->xSync(inner, flags);
}

// The one difference (reader_vfs.hpp): a WAL of exactly its header holds no frame, and is
// reported as the empty WAL it is in content.
int wal_file_size(sqlite3_file* file, sqlite3_int64* size)
{
  sqlite3_file* inner = real(file);
  const int rc = inner->pMethods->xFileSize(inner, size);
  if (rc == SQLITE_OK && *size == k_wal_header_bytes) {
    *size = 0;
  }
  return rc;
}

int wal_lock(sqlite3_file* file, int level)
{
  sqlite3_file* inner = real(file);
  return inner->pMethods->xLock(inner, level);
}

int wal_unlock(sqlite3_file* file, int level)
{
  sqlite3_file* inner = real(file);
  return inner->pMethods->xUnlock(inner, level);
}

int wal_check_reserved_lock(sqlite3_file* file, int* out)
{
  sqlite3_file* inner = real(file);
  return inner->pMethods->xCheckReservedLock(inner, out);
}

int wal_file_control(sqlite3_file* file, int op, void* arg)
{
  sqlite3_file* inner = real(file);
  return inner->pMethods->xFileControl(inner, op, arg);
}

int wal_sector_size(sqlite3_file* file)
{
  sqlite3_file* inner = real(file);
  return inner->pMethods->xSectorSize(inner);
}

int wal_device_characteristics(sqlite3_file* file)
{
  sqlite3_file* inner = real(file);
  return inner->pMethods->xDeviceCharacteristics(inner);
}

// The shared-memory and memory-map methods belong to the database file; SQLite never calls them
// on a WAL, but a VFS of version 3 must have them, so they pass through as well.
int wal_shm_map(sqlite3_file* file, int page, int page_size, int extend, void volatile** out)
{
  sqlite3_file* inner = real(file);
  return inner->pMethods->xShmMap(inner, page, page_size, extend, out);
}

int wal_shm_lock(sqlite3_file* file, int offset, int n, int flags)
{
  sqlite3_file* inner = real(file);
  return inner->pMethods->xShmLock(inner, offset, n, flags);
}

void wal_shm_barrier(sqlite3_file* file)
{
  sqlite3_file* inner = real(file);
  inner->pMethods->xShmBarrier(inner);
}

int wal_shm_unmap(sqlite3_file* file, int delete_flag)
{
  sqlite3_file* inner = real(file);
  return inner->pMethods->xShmUnmap(inner, delete_flag);
}

int wal_fetch(sqlite3_file* file, sqlite3_int64 offset, int amount, void** out)
{
  sqlite3_file* inner = real(file);
  return inner->pMethods->xFetch(inner, offset, amount, out);
}

int wal_unfetch(sqlite3_file* file, sqlite3_int64 offset, void* page)
{
  sqlite3_file* inner = real(file);
  return inner->pMethods->xUnfetch(inner, offset, page);
}

const sqlite3_io_methods k_wal_methods = {
    3,
    wal_close,
    wal_read,
    wal_write,
    wal_truncate,
    wal_sync,
    wal_file_size,
    wal_lock,
    wal_unlock,
    wal_check_reserved_lock,
    wal_file_control,
    wal_sector_size,
    wal_device_characteristics,
    wal_shm_map,
    wal_shm_lock,
    wal_shm_barrier,
    wal_shm_unmap,
    wal_fetch,
    wal_unfetch,
};

// The default VFS opens every file; a WAL gets the methods above in front of it. SQLite calls
// xClose when pMethods is set, even after a failed open, so it is set exactly when the default
// VFS set its own.
int reader_open(sqlite3_vfs* vfs, sqlite3_filename name, sqlite3_file* file, int flags, int* out_flags)
{
  auto* base = static_cast<sqlite3_vfs*>(vfs->pAppData);
  if ((flags & SQLITE_OPEN_WAL) == 0) {
    return base->xOpen(base, name, file, flags, out_flags);
  }
  auto* wal = reinterpret_cast<WalFile*>(file);
  sqlite3_file* inner = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(file) + k_real_offset);
  inner->pMethods = nullptr;
  const int rc = base->xOpen(base, name, inner, flags, out_flags);
  wal->real = inner;
  wal->base.pMethods = inner->pMethods != nullptr ? &k_wal_methods : nullptr;
  return rc;
}

sqlite3_vfs* make_reader_vfs()
{
  sqlite3_vfs* base = sqlite3_vfs_find(nullptr);
  if (base == nullptr) {
    return nullptr;
  }
  static sqlite3_vfs vfs = *base; // every other method is the default VFS's
  vfs.pNext = nullptr;
  vfs.zName = k_name;
  vfs.pAppData = base;
  vfs.szOsFile = static_cast<int>(k_real_offset) + base->szOsFile;
  vfs.xOpen = reader_open;
  if (sqlite3_vfs_register(&vfs, 0) != SQLITE_OK) {
    return nullptr;
  }
  return &vfs;
}

} // namespace

const char* reader_vfs()
{
  static const sqlite3_vfs* registered = make_reader_vfs();
  return registered != nullptr ? k_name : nullptr; // nullptr: the default VFS
}

} // namespace mailroom::sqlite::detail
