#pragma once

// One-line descriptions of why a database file cannot be used, each
// naming the path and the fact a user needs to fix it (who owns it and its mode for a permission
// problem, the free space for a full disk). docs/store.md lists every message.

#include <string>
#include <string_view>

#include "base/result.hpp"

namespace mailroom::sqlite {

// The Error for a refused open, read or write of `path` (the database file; its -wal and -shm files
// and its directory are inspected too): "permission denied on store "<path>" (owned by alice
// (uid 1001), mode 0600; mailroom runs as bob (uid 1000))", or for a file that opened read-only,
// "store "<path>" is read-only for you (...)" / "... is on a read-only filesystem".
// `write` says whether the operation that failed needed to write. reason "permission"/"read_only".
Error permission_error(const std::string& path, bool write);

// The Error for a full disk (ENOSPC, EDQUOT, SQLITE_FULL) while writing `path`: "no space left on
// device for store "<path>" (<mount point> has N KiB free)", followed by `outcome` when not empty.
// reason "no_space".
Error no_space_error(const std::string& path, std::string_view outcome);

// "alice" for `uid` (from /etc/passwd, read directly so a static binary needs no NSS), else "uid N".
std::string user_name(unsigned uid);

} // namespace mailroom::sqlite
