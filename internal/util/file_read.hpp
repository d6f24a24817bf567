#pragma once

// Reading a whole small file (a config file, the exec provider's facts cache) with read(2).
// iostreams would do it too, but their locale and buffer machinery was a fifth of the code a
// command pages in on its way to its first real work (BENCHMARKS.md, "Start-up order").

#include <cstddef>
#include <optional>
#include <string>

namespace mailroom::util {

// The bytes of the file at `path`; nullopt when it cannot be opened or read (errno says why) or
// holds more than `cap` bytes (errno EFBIG). Retries on EINTR.
std::optional<std::string> read_file(const std::string& path, std::size_t cap = 64U * 1024U * 1024U);

} // namespace mailroom::util
