#include "output.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mailroom::cli {

namespace {

// Writes everything, retrying short writes and EINTR; returns errno on failure (0 on success).
int write_all(int fd, std::string_view text)
{
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return errno;
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

Error write_error(int error)
{
  Error e = make_error(ErrorCode::store_error,
                       fmt::format("cannot write to standard output: {}", std::strerror(error)));
  if (error == EPIPE) {
    e.reason = std::string(k_closed_pipe);
  }
  return e;
}

} // namespace

bool is_closed_pipe(const Error& error)
{
  return error.reason == k_closed_pipe;
}

Result<void> FdOutput::out(std::string_view text)
{
  const int error = write_all(STDOUT_FILENO, text);
  if (error != 0) {
    return write_error(error);
  }
  return {};
}

std::optional<std::size_t> FdOutput::terminal_width() const
{
  struct winsize size {};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    return static_cast<std::size_t>(size.ws_col);
  }
  return std::nullopt;
}

Result<void> PagerOutput::out(std::string_view text)
{
  if (!m_tried) {
    m_tried = true;
    auto started = util::PipedChild::start(m_argv, m_env);
    if (started.ok()) {
      m_pager.emplace(std::move(started).value());
    }
  }
  if (!m_pager) {
    return m_inner.out(text);
  }
  const int error = write_all(m_pager->fd(), text);
  if (error != 0) {
    return write_error(error);
  }
  return {};
}

void PagerOutput::finish()
{
  if (m_pager) {
    m_pager->finish();
    m_pager.reset();
  }
}

void FdOutput::err(std::string_view text)
{
  (void)write_all(STDERR_FILENO, text);
}

bool FdOutput::out_is_tty() const
{
  return ::isatty(STDOUT_FILENO) == 1;
}

bool FdInput::is_tty() const
{
  return ::isatty(STDIN_FILENO) == 1;
}

bool FdInput::offers_data(std::chrono::milliseconds wait)
{
  struct stat st {};
  if (::fstat(STDIN_FILENO, &st) != 0) {
    return false;
  }
  if (S_ISREG(st.st_mode)) {
    // A file always polls readable: it has data when the offset is before its end.
    const off_t at = ::lseek(STDIN_FILENO, 0, SEEK_CUR);
    return at >= 0 && at < st.st_size;
  }
  if (!S_ISFIFO(st.st_mode)) {
    return false;
  }
  // A pipe polls POLLIN only with bytes in it; at EOF (writers gone, empty) it is POLLHUP alone.
  const auto deadline = std::chrono::steady_clock::now() + wait;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd fd{STDIN_FILENO, POLLIN, 0};
    const int ready = ::poll(&fd, 1, static_cast<int>(std::max<std::int64_t>(left.count(), 0)));
    if (ready < 0 && errno == EINTR) {
      continue;
    }
    return ready > 0 && (fd.revents & POLLIN) != 0;
  }
}

Result<void> StringOutput::out(std::string_view text)
{
  if (m_fail_out) {
    return write_error(m_fail_errno);
  }
  m_out.append(text);
  return {};
}

namespace {

Error too_large(std::size_t cap)
{
  return make_error(ErrorCode::usage, fmt::format("standard input is larger than the {} byte limit", cap));
}

} // namespace

Result<std::string> FdInput::read_all(std::size_t cap)
{
  std::string text;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return make_error(ErrorCode::store_error,
                        fmt::format("cannot read standard input: {}", std::strerror(errno)));
    }
    if (n == 0) {
      return text;
    }
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > cap) {
      return too_large(cap);
    }
  }
}

Result<std::size_t> FdInput::read_some(char* buffer, std::size_t size)
{
  for (;;) {
    const ssize_t n = ::read(STDIN_FILENO, buffer, size);
    if (n >= 0) {
      return static_cast<std::size_t>(n);
    }
    if (errno != EINTR) {
      return make_error(ErrorCode::store_error,
                        fmt::format("cannot read standard input: {}", std::strerror(errno)));
    }
  }
}

Result<std::size_t> StringInput::read_some(char* buffer, std::size_t size)
{
  const std::size_t n = std::min(size, m_text.size() - m_read);
  m_text.copy(buffer, n, m_read);
  m_read += n;
  return n;
}

Result<std::string> StringInput::read_all(std::size_t cap)
{
  if (m_text.size() > cap) {
    return too_large(cap);
  }
  return m_text;
}

} // namespace mailroom::cli
