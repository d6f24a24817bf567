#include "util/file_read.hpp"

#include <cerrno>
#include <fstream>
#include <string>

#include <fcntl.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include "testing/temp_dir.hpp"

namespace mailroom::util {
namespace {

std::string make_file(const std::string& name, const std::string& bytes)
{
  const auto path = testing::make_temp_dir("file_read") / name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

TEST_CASE("read_file returns every byte of a file, NULs and a missing final newline included")
{
  std::string bytes = "[mail]\nprovider = \"beads\"";
  bytes.push_back('\0');
  bytes += std::string(20000, 'x'); // more than one read(2) of its buffer
  const auto text = read_file(make_file("a.toml", bytes));
  REQUIRE(text.has_value());
  CHECK(*text == bytes);
}

TEST_CASE("read_file reads an empty file as empty, and a missing one as nothing with ENOENT")
{
  const auto empty = read_file(make_file("empty", ""));
  REQUIRE(empty.has_value());
  CHECK(empty->empty());
  errno = 0;
  CHECK_FALSE(read_file(make_file("x", "") + ".missing").has_value());
  CHECK(errno == ENOENT);
}

TEST_CASE("read_file refuses a file over its cap with EFBIG and reads one exactly at it")
{
  const std::string path = make_file("big", std::string(100, 'y'));
  errno = 0;
  CHECK_FALSE(read_file(path, 99).has_value());
  CHECK(errno == EFBIG);
  const auto exact = read_file(path, 100);
  REQUIRE(exact.has_value());
  CHECK(exact->size() == 100);
}

TEST_CASE("read_file fails on a directory instead of returning nothing read")
{
  const auto dir = testing::make_temp_dir("file_read_dir");
  errno = 0;
  CHECK_FALSE(read_file(dir.string()).has_value());
  CHECK(errno == EISDIR);
}

TEST_CASE("read_fd reads from the descriptor's position to the end and leaves it open")
{
  const int fd = ::open(make_file("fd", "skip:rest of it").c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  REQUIRE(::lseek(fd, 5, SEEK_SET) == 5);
  const auto text = read_fd(fd, 100);
  REQUIRE(text.has_value());
  CHECK(*text == "rest of it");
  CHECK(::lseek(fd, 0, SEEK_SET) == 0); // still open
  errno = 0;
  CHECK_FALSE(read_fd(fd, 9).has_value());
  CHECK(errno == EFBIG);
  ::close(fd);
}

} // namespace
} // namespace mailroom::util
