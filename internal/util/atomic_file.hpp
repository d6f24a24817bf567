#pragma once

// Replacing a small file whole or not at all, the one way every part of mailroom does it (tokens,
// the serve address file, settings files and their backups, caches): a reader sees the old file or
// the new one, never a part.

#include <string>
#include <string_view>

#include <sys/types.h>

#include "base/result.hpp"

namespace mailroom::util {

// Writes `content` to a new temporary file beside `path` (a random name, created exclusively, so
// no link is followed and no other writer's file is reused), sets its mode to `mode`, fsyncs and
// closes it, and renames it over `path`. The directory must exist. On any failure the temporary
// file is removed and `path` is as it was. Errors: store_error "cannot write \"<path>\": <cause>".
Result<void> write_file_atomically(const std::string& path, std::string_view content, mode_t mode = 0600);

} // namespace mailroom::util
