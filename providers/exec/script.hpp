#pragma once

// One exec-protocol script and the rules for running an operation on it (gc-mail.md §7.1–7.4):
// argv checks, the once-per-instance ensure-running and capability discovery, the time limit, and
// the mapping of exit codes and stderr markers to mailroom errors.

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "mail/settings.hpp"

namespace mailroom::providers::exec {

struct ScriptOutput {
  std::string text;      // stdout with trailing '\n's removed; empty for an exit-2 list op
  bool already = false;  // archive/delete: the script said "already archived"
};

class Script {
public:
  Script(mail::ExecSettings settings, std::string identity);

  // Runs `script <op> [<arg>]` with `stdin_data` on stdin (an empty `arg` is left out of argv).
  // Before the first call, runs `ensure-running` (result ignored) and `capabilities` (an answer
  // {"protocol":1,"ops":[…]} limits the ops; anything else allows all).
  // Errors: usage when `arg` starts with '-' (nothing is spawned); unsupported for an op the script
  // did not list or that exits 2 (lists and count exit 2 as empty output instead); not_found when
  // stderr holds "gc-mail-error:not-found" for an id op; timeout past the limit; provider_error
  // for any other failure, as "exec mail provider <script> <op> <arg>: <stderr or status>".
  Result<ScriptOutput> run(std::string_view op, const std::string& arg, const std::string& stdin_data = {});

  // `exec mail provider <script> <op> <arg>`: the prefix of every error about that call.
  std::string describe(std::string_view op, const std::string& arg) const;

  // An error for `op`'s malformed output: provider_error "<describe>: <problem>".
  Error bad_output(std::string_view op, const std::string& arg, const Error& problem) const;

  // unsupported: `exec mail provider <script> does not support "<what>"`.
  Error unsupported(std::string_view what) const;

private:
  void start();

  mail::ExecSettings m_settings;
  std::string m_identity;
  bool m_started = false;
  std::optional<std::set<std::string, std::less<>>> m_ops; // nullopt: every op allowed
  std::string m_startup_stderr; // a failing ensure-running's complaint, kept as a hint
};

} // namespace mailroom::providers::exec
