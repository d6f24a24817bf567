#include "transfer.hpp"

#include <cerrno>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errors.hpp"
#include "render/json.hpp"
#include "render/transfer.hpp"
#include "schema.hpp"
#include "text/strings.hpp"

namespace mailroom::ops {

namespace {

// The longest line accepted: a message at the body cap in base64, with room for the rest.
constexpr std::size_t k_max_line_bytes = 64U * 1024U * 1024U;

// The records of an export, one line at a time, from a chunk reader. Errors name the line.
class ExportReader final : public mail::RecordSource {
public:
  using ReadFn = ImportRead;

  ExportReader(ReadFn read, std::string name) : m_read(std::move(read)), m_name(std::move(name)) {}

  Result<std::optional<mail::Record>> next() override
  {
    for (;;) {
      TRY_ASSIGN(const bool more, next_line());
      if (!more) {
        if (m_line == 0) {
          return fail("the input is empty (an export starts with its header line)");
        }
        return std::optional<mail::Record>();
      }
      if (text::trim_view(m_text).empty() && m_line > 1) {
        continue;
      }
      auto decoded = render::decode_line(m_text);
      if (!decoded.ok()) {
        return fail(decoded.error().message, decoded.error().hint);
      }
      if (m_line == 1) {
        if (!std::holds_alternative<render::ExportHeader>(*decoded)) {
          return fail("expected the header line ({\"kind\":\"header\",...})");
        }
        continue;
      }
      if (std::holds_alternative<render::ExportHeader>(*decoded)) {
        return fail("a second header line");
      }
      return std::optional<mail::Record>(std::get<mail::Record>(std::move(decoded).value()));
    }
  }

  // "<name>:<line>: " for the record returned last.
  std::string where() const { return fmt::format("{}:{}: ", m_name, m_line); }
  // True when this reader's own error ended the import (its message already says where).
  bool failed() const { return m_failed; }
  std::int64_t line() const { return m_line; }

private:
  Error fail(std::string message, std::string hint = {})
  {
    m_failed = true;
    return make_error(ErrorCode::usage, where() + message,
                      hint.empty() ? std::string("nothing was imported") : std::move(hint));
  }

  // The next line into m_text (without '\n' or a final '\r'); false at the end.
  Result<bool> next_line()
  {
    m_text.clear();
    bool any = false;
    for (;;) {
      if (m_pos == m_end) {
        if (m_eof) {
          break;
        }
        TRY_ASSIGN(const std::size_t n, m_read(m_buffer.data(), m_buffer.size()));
        m_pos = 0;
        m_end = n;
        if (n == 0) {
          m_eof = true;
          break;
        }
      }
      any = true;
      const char* start = m_buffer.data() + m_pos;
      const auto* newline = static_cast<const char*>(std::memchr(start, '\n', m_end - m_pos));
      const std::size_t take = newline != nullptr ? static_cast<std::size_t>(newline - start) : m_end - m_pos;
      if (m_text.size() + take > k_max_line_bytes) {
        ++m_line;
        return fail(fmt::format("the line is longer than {} bytes", k_max_line_bytes));
      }
      m_text.append(start, take);
      m_pos += take;
      if (newline != nullptr) {
        ++m_pos;
        ++m_line;
        if (!m_text.empty() && m_text.back() == '\r') {
          m_text.pop_back();
        }
        return true;
      }
    }
    if (!any) {
      return false;
    }
    ++m_line; // a last line without '\n'
    return true;
  }

  ReadFn m_read;
  std::string m_name;
  std::vector<char> m_buffer = std::vector<char>(1U << 16U);
  std::size_t m_pos = 0;
  std::size_t m_end = 0;
  bool m_eof = false;
  std::string m_text;
  std::int64_t m_line = 0;
  bool m_failed = false;
};

// An export file opened for reading, closed with it. Refuses what is not a file's bytes: a
// directory is a usage error naming its cause (exit 2), like a file that cannot be opened.
class InputFile {
public:
  InputFile() = default;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile()
  {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
  }

  Result<void> open(const std::string& name)
  {
    m_name = name;
    m_fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (m_fd < 0) {
      return usage_error(
          fmt::format("cannot read \"{}\": {}", text::cap_for_echo(name), std::strerror(errno)));
    }
    struct stat info {};
    if (::fstat(m_fd, &info) != 0) {
      return usage_error(
          fmt::format("cannot read \"{}\": {}", text::cap_for_echo(name), std::strerror(errno)));
    }
    if (S_ISDIR(info.st_mode)) {
      return usage_error(
          fmt::format("cannot read \"{}\": it is a directory, not an export file", text::cap_for_echo(name)),
          "give the file that 'mailroom export' wrote, or - for standard input");
    }
    return {};
  }

  Result<std::size_t> read_some(char* buffer, std::size_t size) const
  {
    for (;;) {
      const ssize_t n = ::read(m_fd, buffer, size);
      if (n >= 0) {
        return static_cast<std::size_t>(n);
      }
      if (errno != EINTR) {
        return make_error(
            ErrorCode::store_error,
            fmt::format("cannot read \"{}\": {}", text::cap_for_echo(m_name), std::strerror(errno)));
      }
    }
  }

private:
  int m_fd = -1;
  std::string m_name;
};

} // namespace

Result<ImportResult> import_mail(Session& session, const ImportRequest& request)
{
  const bool from_stdin = !request.file || *request.file == "-";
  InputFile file;
  ExportReader::ReadFn read;
  std::string name = "stdin";
  if (from_stdin) {
    read = request.read_stdin;
  } else {
    name = *request.file;
    TRY(file.open(name));
    read = [&file](char* buffer, std::size_t size) { return file.read_some(buffer, size); };
  }
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  ExportReader reader(std::move(read), name);
  TRY_ASSIGN(mail::Transfer * transfer, mail::need(provider->facets().transfer, "import"));
  auto imported = transfer->import_records(reader);
  if (!imported.ok()) {
    Error error = std::move(imported).error();
    if (!reader.failed() && reader.line() > 0 &&
        (error.code == ErrorCode::usage || error.code == ErrorCode::conflict)) {
      error.message = reader.where() + error.message; // the record the store refused
    }
    return error;
  }
  return ImportResult{std::move(imported).value()};
}

nlohmann::json to_json(const ImportResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["ok"] = true;
  doc["added"] = result.report.added;       // kept: a number here, an array in hooks install
  doc["added_count"] = result.report.added; // the consistent name (contract "Promises kept")
  doc["messages"] = result.report.messages;
  doc["skipped"] = result.report.skipped;
  return doc;
}

text::DisplayText to_text(const ImportResult& result, const render::Style& /*style*/)
{
  return text::DisplayText::format("Imported {} record(s) ({} message(s)); {} already in the store\n",
                                   result.report.added, result.report.messages, result.report.skipped);
}

nlohmann::json import_output_schema()
{
  using namespace schema;
  return document({{"ok", boolean()},
                   {"added", integer()},
                   {"added_count", integer()},
                   {"messages", integer()},
                   {"skipped", integer()}});
}

} // namespace mailroom::ops
