#pragma once

// File plumbing for the agents' settings files: reading, strict JSON parsing with a position in
// errors, and atomic replacement.

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"

namespace mailroom::settingsfile {

struct FileContent {
  std::string text;
  mode_t mode = 0644; // permission bits
};

// The path to write for `path`: the final target when `path` is a symlink, else `path`.
// Errors: store_error when a symlink cannot be resolved (dangling, loop).
Result<std::string> resolve_symlink(const std::string& path);

// The file's bytes and permission bits; nullopt when it does not exist. Errors: store_error when
// it cannot be read or is not a regular file; usage when it is over 16 MiB.
Result<std::optional<FileContent>> read_settings_file(const std::string& path);

// `text` as JSON; an all-blank text is {}. Errors: usage `<file>:<line>:<column>: not valid JSON
// (<reason>)`, or `<file>: has comments, which rewriting it would lose` for JSON with comments.
Result<nlohmann::ordered_json> parse_settings(std::string_view text, std::string_view file);

// Removes the file at `path`. Errors: store_error naming it.
Result<void> remove_file(const std::string& path);

// Creates the directory holding `path` (and its parents) when missing. Errors: store_error.
Result<void> make_parent_directory(const std::string& path);
// The directories make_parent_directory(path) would create, outermost first.
std::vector<std::string> missing_parents(const std::string& path);
// Removes each of `dirs` that is empty, innermost first (after the file they held was removed).
void remove_empty_dirs(const std::vector<std::string>& dirs);

// 0666 less the process umask: the mode a new file would get from open(2).
mode_t new_file_mode();

} // namespace mailroom::settingsfile
