#include "util/atomic_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/stat.h>

#include <doctest/doctest.h>

#include "testing/temp_dir.hpp"

namespace mailroom::util {
namespace {

std::string contents(const std::filesystem::path& path)
{
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_CASE("write_file_atomically replaces a file whole, with its mode, and leaves no temporary file")
{
  const auto dir = testing::make_temp_dir("atomic_file");
  const auto path = dir / "token";
  REQUIRE(write_file_atomically(path.string(), "first\n", 0600).ok());
  REQUIRE(write_file_atomically(path.string(), "second\n", 0640).ok());
  CHECK(contents(path) == "second\n");
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0640);
  CHECK(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()) == 1);
}

TEST_CASE("write_file_atomically fails naming the file when its directory is missing, and changes nothing")
{
  const auto dir = testing::make_temp_dir("atomic_file");
  const auto written = write_file_atomically((dir / "no" / "file").string(), "x", 0600);
  REQUIRE_FALSE(written.ok());
  CHECK(written.error().code == ErrorCode::store_error);
  CHECK(written.error().message.find("/no/file\"") != std::string::npos);
  CHECK(std::filesystem::is_empty(dir));
}

} // namespace
} // namespace mailroom::util
