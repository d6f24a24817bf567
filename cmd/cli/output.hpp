#pragma once

// Where commands write. Only cli::run picks the real streams; tests use StringOutput.

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.hpp"
#include "util/terminal.hpp"

namespace mailroom::cli {

// The Error::reason of a write to standard output that failed because its reader went away
// (EPIPE): a command that changed nothing then exits 0 quietly (contract "Closed pipes").
inline constexpr std::string_view k_closed_pipe = "closed_pipe";

// True when `error` is a closed standard output and nothing else.
bool is_closed_pipe(const Error& error);

class Output {
public:
  virtual ~Output() = default;
  // Writes `text` to standard output. Errors: store_error when the write fails (e.g. EPIPE, with
  // reason k_closed_pipe), so a caller such as `read` can keep the message unread.
  virtual Result<void> out(std::string_view text) = 0;
  // Writes `text` to standard error. Failures are ignored: there is nowhere left to report them.
  virtual void err(std::string_view text) = 0;
  // True when standard output is a terminal.
  virtual bool out_is_tty() const = 0;
  // The terminal's width in columns when standard output is a terminal, else nullopt.
  virtual std::optional<std::size_t> terminal_width() const { return std::nullopt; }
};

// File descriptors 1 and 2, written with write(2) so failures are seen at once.
class FdOutput final : public Output {
public:
  Result<void> out(std::string_view text) override;
  void err(std::string_view text) override;
  bool out_is_tty() const override;
  std::optional<std::size_t> terminal_width() const override;
};

// Sends standard output through a pager that starts at the first write (so a command that fails
// before printing never flashes an empty pager). When the pager cannot be started, writes go to
// `inner` unchanged. Waits for the pager in finish() (and the destructor).
class PagerOutput final : public Output {
public:
  PagerOutput(Output& inner, std::vector<std::string> argv, util::EnvPairs env)
      : m_inner(inner), m_argv(std::move(argv)), m_env(std::move(env))
  {
  }
  ~PagerOutput() override { finish(); }
  PagerOutput(const PagerOutput&) = delete;
  PagerOutput& operator=(const PagerOutput&) = delete;

  Result<void> out(std::string_view text) override;
  void err(std::string_view text) override { m_inner.err(text); }
  bool out_is_tty() const override { return m_inner.out_is_tty(); }
  std::optional<std::size_t> terminal_width() const override { return m_inner.terminal_width(); }
  // Closes the pager's input and waits until the person quits it.
  void finish();

private:
  Output& m_inner;
  std::vector<std::string> m_argv;
  util::EnvPairs m_env;
  std::optional<util::PipedChild> m_pager;
  bool m_tried = false;
};

// Drops standard output text (-q on a command whose output only confirms an action); standard
// error goes through.
class QuietOutput final : public Output {
public:
  explicit QuietOutput(Output& inner) : m_inner(inner) {}
  Result<void> out(std::string_view) override { return {}; }
  void err(std::string_view text) override { m_inner.err(text); }
  bool out_is_tty() const override { return m_inner.out_is_tty(); }
  std::optional<std::size_t> terminal_width() const override { return m_inner.terminal_width(); }

private:
  Output& m_inner;
};

// Collects both streams in memory, for tests. `fail_out` makes every out() fail like a closed pipe.
class StringOutput final : public Output {
public:
  Result<void> out(std::string_view text) override;
  void err(std::string_view text) override { m_err.append(text); }
  bool out_is_tty() const override { return m_tty; }

  const std::string& out_text() const { return m_out; }
  const std::string& err_text() const { return m_err; }
  // Every out() fails with `error` (EPIPE: a closed pipe; EIO, ENOSPC: a real failure).
  void set_fail_out(bool fail, int error = 32 /* EPIPE */)
  {
    m_fail_out = fail;
    m_fail_errno = error;
  }
  void set_tty(bool tty) { m_tty = tty; }
  std::optional<std::size_t> terminal_width() const override { return m_width; }
  void set_width(std::optional<std::size_t> width) { m_width = width; }

private:
  std::string m_out;
  std::string m_err;
  bool m_fail_out = false;
  int m_fail_errno = 0;
  bool m_tty = false;
  std::optional<std::size_t> m_width;
};

// Where commands read standard input from (send --stdin, a body of "-").
class Input {
public:
  virtual ~Input() = default;
  // Everything on standard input, failing with usage when it exceeds `cap` bytes and store_error
  // when it cannot be read.
  virtual Result<std::string> read_all(std::size_t cap) = 0;
  // Up to `size` bytes into `buffer`; 0 at the end. For input too large to hold (import).
  // Errors: store_error when it cannot be read.
  virtual Result<std::size_t> read_some(char* buffer, std::size_t size) = 0;
  // True when standard input is a terminal.
  virtual bool is_tty() const = 0;
  // True when standard input is a pipe or a regular file (not a terminal, not a character device
  // such as /dev/null, not a socket) and bytes are readable within `wait`. Consumes nothing.
  virtual bool offers_data(std::chrono::milliseconds wait) = 0;
};

// File descriptor 0.
class FdInput final : public Input {
public:
  Result<std::string> read_all(std::size_t cap) override;
  Result<std::size_t> read_some(char* buffer, std::size_t size) override;
  bool is_tty() const override;
  bool offers_data(std::chrono::milliseconds wait) override;
};

// A fixed text, for tests.
class StringInput final : public Input {
public:
  explicit StringInput(std::string text = {}, bool tty = false) : m_text(std::move(text)), m_tty(tty) {}
  Result<std::string> read_all(std::size_t cap) override;
  Result<std::size_t> read_some(char* buffer, std::size_t size) override;
  bool is_tty() const override { return m_tty; }
  // As a pipe would: unread text is data, whatever the wait.
  bool offers_data(std::chrono::milliseconds) override { return !m_tty && m_read < m_text.size(); }

private:
  std::string m_text;
  std::size_t m_read = 0; // read_some's position
  bool m_tty = false;
};

} // namespace mailroom::cli
