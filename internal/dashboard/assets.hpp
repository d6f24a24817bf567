#pragma once

// The dashboard page (docs/dashboard.md), built into the binary: hand-written HTML, CSS and ES
// modules from internal/dashboard/, turned into bytes at compile time by cmake/EmbedAssets.cmake.
// `mailroom serve` answers GET for these paths and nothing else of the page.

#include <string_view>

namespace mailroom::dashboard {

struct Asset {
  std::string_view content_type; // e.g. "text/javascript; charset=utf-8"
  std::string_view body;         // the file's bytes, alive for the whole program
};

// The asset at `path`: "/" (index.html), "/login" (login.html) or "/assets/<file>" for the
// stylesheet and the modules; nullptr for any other path (no query string, no trailing slash).
const Asset* find_asset(std::string_view path);

} // namespace mailroom::dashboard
