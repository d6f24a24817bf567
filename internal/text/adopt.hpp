#pragma once

// Private to internal/text/: wraps text that a text/ function has just sanitised. Including this
// header anywhere else defeats the output gate (docs/output-safety.md).

#include <string>

#include "text/display.hpp"

namespace mailroom::text {

// `text` as display text, with truncated() = `truncated`. `text` must already be safe to show.
DisplayText adopt_sanitised(std::string text, bool truncated);

} // namespace mailroom::text
