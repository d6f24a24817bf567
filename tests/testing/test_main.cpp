// The doctest main for mailroom_unittest: every test runs inside a fresh per-pid directory
// ($TMPDIR/mailroom-unittest-<pid>, exported as MAILROOM_TEST_TMPDIR and made the working
// directory), removed after a passing run and kept, with its path printed, after a failure.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "testing/temp_dir.hpp"

int main(int argc, char** argv)
{
  namespace fs = std::filesystem;
  // Ignore an inherited MAILROOM_TEST_TMPDIR so nested or repeated runs never share a directory.
  ::unsetenv(mailroom::testing::k_test_tmpdir_env);
  const fs::path root = mailroom::testing::test_root_dir();
  std::error_code error;
  fs::remove_all(root, error);
  fs::create_directories(root, error);
  if (error) {
    std::fprintf(stderr, "mailroom_unittest: cannot create %s: %s\n", root.c_str(), error.message().c_str());
    return 1;
  }
  ::setenv(mailroom::testing::k_test_tmpdir_env, root.c_str(), 1);
  const fs::path original = fs::current_path();
  fs::current_path(root);

  doctest::Context context(argc, argv);
  const int result = context.run();

  fs::current_path(original, error);
  if (result == 0) {
    fs::remove_all(root, error);
  } else {
    std::fprintf(stderr, "mailroom_unittest: kept test directory %s\n", root.c_str());
  }
  return result;
}
