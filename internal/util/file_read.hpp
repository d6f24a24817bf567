#pragma once

// Reading a whole small file (a config file, the exec provider's facts cache) with read(2).
// std::ifstream would do it too, but brings its buffer and locale code onto the start-up path of
// every command, where each new 64 KiB of code touched costs a page fault (BENCHMARKS.md).

#include <cstddef>
#include <optional>
#include <string>

namespace mailroom::util {

// The bytes of the file at `path`; nullopt when it cannot be opened or read (errno says why) or
// holds more than `cap` bytes (errno EFBIG). Retries on EINTR.
std::optional<std::string> read_file(const std::string& path, std::size_t cap = 64U * 1024U * 1024U);

// The bytes from `fd`'s position to its end, for a caller that opened (and checked) the file
// itself; `fd` stays open. nullopt as read_file: a read error (errno) or more than `cap` (EFBIG).
std::optional<std::string> read_fd(int fd, std::size_t cap);

} // namespace mailroom::util
