#include "testing/temp_dir.hpp"

#include <cstdlib>
#include <string>

#include <unistd.h>

namespace mailroom::testing {

std::filesystem::path test_root_dir()
{
  if (const char* set = std::getenv(k_test_tmpdir_env); set != nullptr && *set != '\0') {
    return set;
  }
  const char* tmpdir = std::getenv("TMPDIR");
  const std::filesystem::path base = tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
  return base / ("mailroom-unittest-" + std::to_string(::getpid()));
}

std::filesystem::path make_temp_dir(std::string_view name)
{
  const std::filesystem::path root = test_root_dir();
  std::filesystem::create_directories(root);
  // create_directory reports whether it made the directory, so probing suffixes needs no counter.
  for (int attempt = 1;; ++attempt) {
    std::string leaf(name);
    if (attempt > 1) {
      leaf += "-" + std::to_string(attempt);
    }
    const std::filesystem::path candidate = root / leaf;
    if (std::filesystem::create_directory(candidate)) {
      return candidate;
    }
  }
}

} // namespace mailroom::testing
