#include "testing/temp_dir.hpp"

#include <filesystem>

#include <doctest/doctest.h>

TEST_SUITE("mailroom::testing::temp_dir")
{
  TEST_CASE("tests run inside the per-run directory")
  {
    const auto root = mailroom::testing::test_root_dir();
    CHECK(std::filesystem::is_directory(root));
    CHECK(std::filesystem::equivalent(std::filesystem::current_path(), root));
  }

  TEST_CASE("make_temp_dir makes a fresh directory each call")
  {
    const auto first = mailroom::testing::make_temp_dir("scratch");
    const auto second = mailroom::testing::make_temp_dir("scratch");
    CHECK(first != second);
    CHECK(std::filesystem::is_directory(first));
    CHECK(std::filesystem::is_directory(second));
    CHECK(first.parent_path() == mailroom::testing::test_root_dir());
    CHECK(std::filesystem::is_empty(second));
  }
}
