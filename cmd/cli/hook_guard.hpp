#pragma once

// What keeps a hook line from ever failing or holding up the agent (contract "Hooks for coding
// agents", "What reaches an agent"): which invocations are hook lines, read from the raw words
// before anything can fail, and the output they get — the answer on stdout only when complete,
// at most one bounded line on stderr, exit 0.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "output.hpp"

namespace mailroom::cli {

class HookDeadline;

// What the raw command line says about a hook, decided before any parsing, configuration or
// store can fail.
struct HookWords {
  // `check --inject` or `check --hook-format …`, with or without Gas City's `mail` word before
  // `check`, with any global options (known, unknown or misspelt, `--opt VALUE` or `--opt=VALUE`)
  // before or after the command word.
  bool hook = false;
  bool json = false;                 // --json among the words (before a `--`)
  std::optional<std::string> budget; // the value of check's --budget, unchecked
};

// Reads `args` (without the program name). Never fails.
HookWords read_hook_words(const std::vector<std::string>& args);

// read_hook_words(args).hook.
bool is_hook_invocation(const std::vector<std::string>& args);

// The output of a hook invocation: standard output is held back until answer() (so nothing
// partial is ever written, and nothing at all after a failure), and only the first line written
// to standard error is kept, capped. With a deadline, answer() writes only when the deadline has
// not fired, and once the answer is out the deadline ends the process silently.
class HookOutput final : public Output {
public:
  HookOutput(Output& inner, HookDeadline* deadline) : m_inner(inner), m_deadline(deadline) {}
  Result<void> out(std::string_view text) override;
  void err(std::string_view text) override { m_err.append(text); }
  bool out_is_tty() const override { return m_inner.out_is_tty(); }

  // Writes what the command printed (when it succeeded: `succeeded`) and the first error line.
  // Called once the answer is known, before anything that might wait (the presence write); later
  // calls do nothing.
  void answer(bool succeeded);
  // True when an error line was written (the hook failed).
  bool failed() const { return !m_err.empty(); }

private:
  Output& m_inner;
  HookDeadline* m_deadline;
  std::string m_out;
  std::string m_err;
  bool m_answered = false;
};

} // namespace mailroom::cli
