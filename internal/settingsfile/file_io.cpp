#include "settingsfile/file_io.hpp"

#include "text/sanitize.hpp"
#include "text/strings.hpp"
#include "util/file_read.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace mailroom::settingsfile {

namespace {

using Json = nlohmann::ordered_json;

constexpr std::size_t k_max_settings_bytes = std::size_t{16} << 20;

Error io_error(std::string_view what, std::string_view path, int error)
{
  return make_error(ErrorCode::store_error,
                    fmt::format("cannot {} \"{}\": {}", what, path, std::strerror(error)));
}

// Accepts everything and records the first syntax error, so a bad file can be reported with its
// position without exceptions.
class ErrorProbe final : public nlohmann::json_sax<Json> {
public:
  std::size_t position = 0;
  std::string reason;

  bool null() override { return true; }
  bool boolean(bool /*value*/) override { return true; }
  bool number_integer(number_integer_t /*value*/) override { return true; }
  bool number_unsigned(number_unsigned_t /*value*/) override { return true; }
  bool number_float(number_float_t /*value*/, const string_t& /*raw*/) override { return true; }
  bool string(string_t& /*value*/) override { return true; }
  bool binary(binary_t& /*value*/) override { return true; }
  bool start_object(std::size_t /*elements*/) override { return true; }
  bool key(string_t& /*name*/) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t /*elements*/) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t where, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& ex) override
  {
    position = where;
    // nlohmann's text is "[json.exception.parse_error.101] parse error at line 1, column 2:
    // <reason>"; the position is printed separately, so keep only the reason.
    const std::string what = ex.what();
    const auto column = what.find("column ");
    const auto colon = what.find(": ", column == std::string::npos ? 0 : column);
    reason = colon == std::string::npos ? what : what.substr(colon + 2);
    return false;
  }
};

// Line and column (1-based) of the byte at 1-based `position`.
std::pair<std::size_t, std::size_t> line_column(std::string_view text, std::size_t position)
{
  const std::size_t index = std::min(position == 0 ? 0 : position - 1, text.size());
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < index; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return {line, index - line_start + 1};
}

} // namespace

Result<std::string> resolve_symlink(const std::string& path)
{
  std::error_code ec;
  if (!std::filesystem::is_symlink(path, ec)) {
    return path;
  }
  auto target = std::filesystem::canonical(path, ec);
  if (ec) {
    return make_error(ErrorCode::store_error,
                      fmt::format("cannot follow the symlink \"{}\": {}", path, ec.message()));
  }
  return target.string();
}

Result<std::optional<FileContent>> read_settings_file(const std::string& path)
{
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) {
      return std::optional<FileContent>{};
    }
    return io_error("read", path, errno);
  }
  FileContent content;
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    const int error = errno;
    ::close(fd);
    return io_error("read", path, error);
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd);
    return io_error("read", path, S_ISDIR(info.st_mode) ? EISDIR : EINVAL);
  }
  content.mode = info.st_mode & 07777;
  std::optional<std::string> text = util::read_fd(fd, k_max_settings_bytes);
  const int error = errno;
  ::close(fd);
  if (!text) {
    if (error == EFBIG) {
      return make_error(ErrorCode::usage, fmt::format("{}: larger than 16 MiB; left unchanged", path));
    }
    return io_error("read", path, error);
  }
  content.text = std::move(*text);
  return std::optional<FileContent>{std::move(content)};
}

Result<nlohmann::ordered_json> parse_settings(std::string_view text, std::string_view file)
{
  if (text::trim_view(text).empty()) {
    return Json::object();
  }
  Json doc = Json::parse(text.begin(), text.end(), nullptr, false);
  if (!doc.is_discarded()) {
    return doc;
  }
  const Json lenient = Json::parse(text.begin(), text.end(), nullptr, false, true);
  if (!lenient.is_discarded()) {
    return make_error(ErrorCode::usage,
                      fmt::format("{}: has comments, which rewriting it would lose; left unchanged", file),
                      "add the entry by hand (see 'mailroom hooks show' or 'mailroom mcp show')");
  }
  ErrorProbe probe;
  (void)Json::sax_parse(text.begin(), text.end(), &probe);
  const auto [line, column] = line_column(text, probe.position);
  return make_error(
      ErrorCode::usage,
      fmt::format("{}:{}:{}: not valid JSON ({}); left unchanged", file, line, column,
                  text::truncate_line(probe.reason, 160)),
      "fix the file, or add the entry by hand (see 'mailroom hooks show' or 'mailroom mcp show')");
}

Result<void> remove_file(const std::string& path)
{
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return io_error("remove", path, errno);
  }
  return {};
}

Result<void> make_parent_directory(const std::string& path)
{
  const auto parent = std::filesystem::path(path).parent_path();
  if (parent.empty()) {
    return {};
  }
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  if (ec) {
    return make_error(ErrorCode::store_error,
                      fmt::format("cannot create directory \"{}\": {}", parent.string(), ec.message()));
  }
  return {};
}

std::vector<std::string> missing_parents(const std::string& path)
{
  std::vector<std::string> missing;
  std::error_code ec;
  for (auto dir = std::filesystem::path(path).parent_path(); !dir.empty() && dir != dir.parent_path();
       dir = dir.parent_path()) {
    if (std::filesystem::exists(dir, ec) || ec) {
      break;
    }
    missing.insert(missing.begin(), dir.string());
  }
  return missing;
}

void remove_empty_dirs(const std::vector<std::string>& dirs)
{
  for (auto it = dirs.rbegin(); it != dirs.rend(); ++it) {
    // rmdir(2) removes only an empty directory; a directory the user has filled since stays.
    if (::rmdir(it->c_str()) != 0) {
      return;
    }
  }
}

mode_t new_file_mode()
{
  // umask(2) can only be read by setting it; it is set straight back (the CLI is single-threaded).
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

} // namespace mailroom::settingsfile
