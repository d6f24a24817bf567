#pragma once

// What keeps a hook line from ever failing the agent (contract "Hooks for coding agents"): which
// invocations are hook lines, and the one-line stderr they get.

#include <string>
#include <string_view>
#include <vector>

#include "output.hpp"

namespace mailroom::cli {

// True when `args` run `check --inject` or `check --hook-format …`: a hook line, which must never
// fail the agent (contract "Hooks for coding agents").
bool is_hook_invocation(const std::vector<std::string>& args);

// Passes standard output through and keeps only the first line written to standard error, for a
// hook invocation: whatever failed is one bounded line, and the agent never sees an exit code.
class OneLineErrors final : public Output {
public:
  explicit OneLineErrors(Output& inner) : m_inner(inner) {}
  Result<void> out(std::string_view text) override { return m_inner.out(text); }
  void err(std::string_view text) override { m_text.append(text); }
  bool out_is_tty() const override { return m_inner.out_is_tty(); }

  // Writes the first error line, capped, to the real standard error.
  void flush();

private:
  Output& m_inner;
  std::string m_text;
};

} // namespace mailroom::cli
