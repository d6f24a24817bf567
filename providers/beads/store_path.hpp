#pragma once

// Where a bead store may be opened (store_path.cpp): the checks made before SQLite opens a file.

#include <optional>
#include <string>

#include "base/result.hpp"
#include "beads/create_lock.hpp"
#include "mail/settings.hpp"

namespace mailroom::providers::beads {

// The database path with its directory made canonical (realpath), created when
// settings.access is create, and the directory, its filesystem (unless allow_network_fs), the file
// and its WAL checked. Creating, `lock` holds the directory's CreateLock from before the file is
// checked until the caller has made the store. Errors: store_error with a reason and a hint.
Result<std::string> prepare_path(const mail::StoreSettings& settings, std::optional<CreateLock>& lock);

// A store_error about the store file, with `reason` (the contract's machine-readable cause).
Error file_error(std::string message, std::string hint, std::string reason);

} // namespace mailroom::providers::beads
