#pragma once

// The environment a child process gets: the caller's, with additions.

#include <string>
#include <utility>
#include <vector>

namespace mailroom::util {

// The caller's whole environment with `extra` added as NAME=VALUE; a caller variable of the same
// name is replaced, nothing else is removed or renamed. Reads `environ`; changes nothing.
std::vector<std::string> build_environment(const std::vector<std::pair<std::string, std::string>>& extra);

} // namespace mailroom::util
