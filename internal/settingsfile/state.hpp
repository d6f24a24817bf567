#pragma once

// Where the settings module keeps what it must never leave beside a settings file: backups of the
// files it changed ($XDG_STATE_HOME/mailroom/backups/) and the record of what each install added
// ($XDG_STATE_HOME/mailroom/installs/), so an uninstall removes exactly that.

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "util/environment.hpp"

namespace mailroom::settingsfile {

// What every install and uninstall needs from outside: the environment (XDG_STATE_HOME, HOME, the
// cwd) and the time a backup is named after (injected so tests control it).
struct Surroundings {
  const util::Environment& env;
  std::chrono::system_clock::time_point now;
};

// $XDG_STATE_HOME/mailroom (default ~/.local/state/mailroom). Errors: usage when neither
// XDG_STATE_HOME nor HOME is set.
Result<std::string> state_dir(const util::Environment& env);

// Saves `text` (the content of `path` before a change) as
// <state_dir>/backups/<UTC time>-<path with '/' written as '%'> (a "-N" suffix when that name is
// taken), with `mode`; the directories are created 0700. Returns the backup's path.
// Errors: usage (no state directory), store_error (cannot write).
Result<std::string> save_backup(const std::string& path, std::string_view text, mode_t mode,
                                const Surroundings& around);

// One change an install made to a settings file, as recorded for its uninstall.
struct Edit {
  enum class Kind {
    created_object, // an object member made to hold what was added (removed again when empty)
    set_member,     // a member set to `value`
    appended,       // `value` appended to the array at `path`
    toml_table,     // the TOML table `path[0]` appended with the text `value`
  };
  Kind kind = Kind::set_member;
  std::vector<std::string> path; // object keys from the top (for toml_table: the table's name)
  nlohmann::ordered_json value;
};

// What one owner ("hooks", "mcp") added to one file.
struct Record {
  std::string path;
  bool created_file = false; // the install created the file
  // The directories the install created to hold the file, outermost first: an uninstall that
  // removes the file removes those of them it left empty.
  std::vector<std::string> created_dirs;
  std::vector<Edit> edits; // oldest first
};

// The record of `owner`'s installs into `path` (the file's real path); nullopt when none (never
// installed from this account, or the state was removed). A record that cannot be read counts as
// none. Errors: usage when there is no state directory.
Result<std::optional<Record>> load_record(const std::string& path, std::string_view owner,
                                          const util::Environment& env);

// Writes (or, with no edits and no created file, removes) the record. Errors: usage, store_error.
Result<void> save_record(const Record& record, std::string_view owner, const util::Environment& env);

} // namespace mailroom::settingsfile
