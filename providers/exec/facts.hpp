#pragma once

// What mailroom has learned about one version of an exec script from the script's own answers,
// and the small cache file that keeps it between commands (docs/exec-protocol.md, "What mailroom
// remembers"). A version is the resolved path, size and modification time of the script file;
// any change to the file forgets everything learned about it. The cache is never required:
// a file that cannot be read, parsed or written is the same as an empty one, silently, and costs
// at most one extra run of the script.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/environment.hpp"

namespace mailroom::providers::exec {

// One version of a script file.
struct ScriptKey {
  std::string path; // absolute, symlinks resolved
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;

  bool operator==(const ScriptKey&) const = default;
};

struct ScriptFacts {
  // `ensure-running` answered exit 2: the script has nothing to start, so it is not run again.
  bool ensure_running_absent = false;
  // `capabilities` was asked (its answer below is then known).
  bool probed = false;
  // The ops a `capabilities` answer {"protocol":1,"ops":[…]} listed; nullopt when the script
  // declares nothing (every gc script: it answers exit 2).
  std::optional<std::vector<std::string>> ops;
  // Ops that answered exit 2 ("I do not have it") where mailroom has a fallback: only `delete`
  // (archive instead), so a script without it costs no extra run after the first time.
  std::vector<std::string> absent_ops;

  bool operator==(const ScriptFacts&) const = default;
};

// The file `command` runs, found as execvp finds it (a name without '/' is searched in $PATH of
// `env`, one with '/' is relative to env.cwd()); nullopt when there is no such regular file.
std::optional<ScriptKey> identify_script(const std::string& command, const util::Environment& env);

// Writes `text` to a fresh file (mode 0600) beside `file` and renames it over `file`, creating its
// directory (mode 0700) when missing. Best effort: any failure leaves `file` as it was.
void replace_private_file(const std::string& file, const std::string& text);

// The default cache file: $XDG_CACHE_HOME/mailroom/exec-capabilities.json, else
// $HOME/.cache/mailroom/exec-capabilities.json; empty (no cache) when neither is set.
std::string default_facts_path(const util::Environment& env);

// The cache file: a JSON object {"version":1,"scripts":{"<path>":{"size","mtime_ns",
// "learned_at","ensure_running_absent","capabilities"}}} ("capabilities" is missing when never
// asked, null when the script declares nothing, else the op list). Keeps the most recently
// learned k_max_facts_entries scripts.
class FactsCache {
public:
  static constexpr std::size_t k_max_facts_entries = 64;

  // `file` empty: no cache (load finds nothing, store does nothing).
  explicit FactsCache(std::string file);

  // The facts kept for `key`; empty facts when the file is missing, unreadable, malformed, or
  // holds another version of the script.
  ScriptFacts load(const ScriptKey& key) const;

  // Records `facts` for `key`, replacing what was kept for that path. Best effort: creates the
  // directory (mode 0700) when missing, writes a temporary file beside the cache and renames it
  // over, so a reader sees the old file or the new one; any failure is ignored. Two commands
  // storing at once may lose one entry, which is learned again later.
  void store(const ScriptKey& key, const ScriptFacts& facts) const;

  const std::string& file() const { return m_file; }

private:
  std::string m_file;
};

} // namespace mailroom::providers::exec
