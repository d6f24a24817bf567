#pragma once

// The guard in front of toml++: TOML allows non-ASCII text only inside strings and comments, and
// toml++ 3.3 (Debian 12) reaches undefined behaviour (an "unreachable" branch of its whitespace
// table) for many non-ASCII code points elsewhere (upstream issues #190/#295, fixed after 3.4).

#include <string>
#include <string_view>

#include "base/result.hpp"

namespace mailroom::config {

// Refuses text with a non-ASCII byte outside a string or comment, before the parser sees it, with
// the path:line:column usage error (exit 2) the parser would have given; columns count code points.
Result<void> check_text_outside_strings(std::string_view text, const std::string& path);

} // namespace mailroom::config
