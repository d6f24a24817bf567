#pragma once

// Where commands write. Only cli::run picks the real streams; tests use StringOutput.

#include <string>
#include <string_view>
#include <utility>
#include <cstddef>

#include "base/result.hpp"

namespace mailroom::cli {

class Output {
public:
  virtual ~Output() = default;
  // Writes `text` to standard output. Errors: store_error when the write fails (e.g. EPIPE), so a
  // caller such as `read` can keep the message unread.
  virtual Result<void> out(std::string_view text) = 0;
  // Writes `text` to standard error. Failures are ignored: there is nowhere left to report them.
  virtual void err(std::string_view text) = 0;
  // True when standard output is a terminal.
  virtual bool out_is_tty() const = 0;
};

// File descriptors 1 and 2, written with write(2) so failures are seen at once.
class FdOutput final : public Output {
public:
  Result<void> out(std::string_view text) override;
  void err(std::string_view text) override;
  bool out_is_tty() const override;
};

// Collects both streams in memory, for tests. `fail_out` makes every out() fail like a closed pipe.
class StringOutput final : public Output {
public:
  Result<void> out(std::string_view text) override;
  void err(std::string_view text) override { m_err.append(text); }
  bool out_is_tty() const override { return m_tty; }

  const std::string& out_text() const { return m_out; }
  const std::string& err_text() const { return m_err; }
  void set_fail_out(bool fail) { m_fail_out = fail; }
  void set_tty(bool tty) { m_tty = tty; }

private:
  std::string m_out;
  std::string m_err;
  bool m_fail_out = false;
  bool m_tty = false;
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
};

// File descriptor 0.
class FdInput final : public Input {
public:
  Result<std::string> read_all(std::size_t cap) override;
  Result<std::size_t> read_some(char* buffer, std::size_t size) override;
};

// A fixed text, for tests.
class StringInput final : public Input {
public:
  explicit StringInput(std::string text = {}) : m_text(std::move(text)) {}
  Result<std::string> read_all(std::size_t cap) override;
  Result<std::size_t> read_some(char* buffer, std::size_t size) override;

private:
  std::string m_text;
  std::size_t m_read = 0; // read_some's position
};

} // namespace mailroom::cli
