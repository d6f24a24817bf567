#pragma once

// One exec-protocol script and the rules for running an operation on it (docs/exec-protocol.md:
// invocation, operations, wire formats, exit status): argv checks, ensure-running, the time limit, what exit
// 2 means for each op, and the mapping of exit codes and stderr markers to mailroom errors.
//
// Exit 2 is the protocol's "I do not know this operation". It means:
//  - for gc's list ops `inbox`, `check`, `thread` and `count`: nothing to list (stateless scripts
//    answer that way), unless the script's `capabilities` answer leaves the op out: unsupported;
//  - for every other op: unsupported (run), or "missing" for the caller to compose (run_optional).
// `capabilities` (a mailroom extension) is asked only to tell those two exit-2 cases apart, once
// per script version: its answer, and an `ensure-running` that answered exit 2, are kept in the
// FactsCache, so a script that has nothing to start and implements the op costs one process.

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "exec/facts.hpp"
#include "mail/settings.hpp"
#include "util/subprocess.hpp"

namespace mailroom::providers::exec {

struct ScriptOutput {
  std::string text;     // stdout with trailing '\n's removed; empty for an exit-2 list op
  bool already = false; // archive/delete: the script said "already archived"
};

class Script {
public:
  // `facts_file`: the FactsCache file ("" for none).
  Script(mail::ExecSettings settings, std::string identity, std::string facts_file);

  // Runs `script <op> [<arg>]` with `stdin_data` on stdin (an empty `arg` is left out of argv).
  // Before the first op, runs `ensure-running` (its result ignored) unless the script is known to
  // answer it with exit 2.
  // Errors: usage when `arg` starts with '-' (nothing is spawned); unsupported for an op the
  // script's known `capabilities` answer leaves out (nothing is spawned) or that exits 2 (gc's
  // list ops: see above); not_found when stderr holds "gc-mail-error:not-found" for an id op;
  // timeout past the limit; provider_error for any other failure, as
  // "exec mail provider <script> <op> <arg>: <stderr or status>".
  Result<ScriptOutput> run(std::string_view op, const std::string& arg, const std::string& stdin_data = {});

  // As run, but an op the script does not have (exit 2, or left out of its known capabilities)
  // is nullopt, for a caller that composes the answer from other ops. Never probes.
  Result<std::optional<ScriptOutput>> run_optional(std::string_view op, const std::string& arg);

  // Whether what is known about the script (the cached facts; never spawns) says it has no
  // mailroom extension op `op` (`unarchive`): its `capabilities` answer leaves `op` out, or it
  // declares nothing, as gc scripts do (gc has no such op). Unknown: false.
  bool lacks_extension(std::string_view op);

  // Asks `capabilities` unless its answer is known, and keeps the answer in the FactsCache. A
  // command asks only when an exit 2 must be told apart (above); the exec contract suite asks
  // first, so that the facets it sees are the script's.
  void probe();

  // Lowers the time limit of every later run to `limit` when it is shorter (the hook's refresh
  // keeps gc's 30 s whatever [exec] timeout_ms says).
  void limit_time(std::chrono::milliseconds limit)
  {
    m_settings.timeout = std::min(m_settings.timeout, limit);
  }

  // `exec mail provider <script> <op> <arg>`: the prefix of every error about that call.
  std::string describe(std::string_view op, const std::string& arg) const;

  // An error for `op`'s malformed output: provider_error "<describe>: <problem>".
  Error bad_output(std::string_view op, const std::string& arg, const Error& problem) const;

  // unsupported: `exec mail provider <script> does not support "<what>"`.
  Error unsupported(std::string_view what, std::string_view why = {}) const;

private:
  // Loads what is known about the script file, once.
  void load_facts();
  // Runs ensure-running once, unless the script is known to answer it with exit 2.
  void ensure_running();
  // False when the script's known capabilities answer leaves `op` out.
  bool allowed(std::string_view op) const;
  // Writes m_facts to the cache (best effort).
  void remember() const;
  Result<util::SubprocessResult> spawn(std::string_view op, const std::string& arg,
                                       const std::string& stdin_data) const;
  Result<std::optional<ScriptOutput>> run_with(std::string_view op, const std::string& arg,
                                               const std::string& stdin_data, bool optional);

  mail::ExecSettings m_settings;
  std::string m_identity;
  FactsCache m_cache;
  bool m_loaded = false;
  bool m_ensured = false;
  bool m_probed = false;          // capabilities asked by this instance (answered or not)
  std::optional<ScriptKey> m_key; // the script file's version; nullopt: unknown, nothing cached
  ScriptFacts m_facts;
  std::string m_startup_stderr; // a failing ensure-running's complaint, kept as a hint
};

} // namespace mailroom::providers::exec
