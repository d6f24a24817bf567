#pragma once

// Scratch directories for tests, all inside the per-run directory the test main creates.

#include <filesystem>
#include <string_view>

namespace mailroom::testing {

// The environment variable naming the per-run directory (set by the test main).
inline constexpr const char* k_test_tmpdir_env = "MAILROOM_TEST_TMPDIR";

// The per-run directory: $MAILROOM_TEST_TMPDIR when set, else $TMPDIR (or /tmp) plus
// "mailroom-unittest-<pid>". Does not create it.
std::filesystem::path test_root_dir();

// Creates and returns a new, empty directory under test_root_dir() named `name`, or `name-2`,
// `name-3`... when that exists. The test main removes it with the rest after a passing run.
// Throws std::filesystem::filesystem_error when it cannot be created (tests only).
std::filesystem::path make_temp_dir(std::string_view name);

} // namespace mailroom::testing
