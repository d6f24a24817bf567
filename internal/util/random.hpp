#pragma once

// Random bytes from the kernel (getrandom), for ids that must not collide across stores and hosts.

#include <cstddef>
#include <string>

namespace mailroom::util {

// `count` bytes from getrandom(2), retried on EINTR and short reads. Never derived from time.
std::string random_bytes(std::size_t count);

} // namespace mailroom::util
