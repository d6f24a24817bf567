#pragma once

// The one settings-file module behind `hooks install|uninstall` and `mcp install|uninstall`:
// merge into an agent's JSON settings file or append a table to Codex's TOML, idempotently,
// keeping every other key, with the previous content backed up under
// $XDG_STATE_HOME/mailroom/backups/ (never beside the file) and a record of exactly what was added,
// so that uninstall removes that and nothing else.
//
// Writes go to a temporary file beside the target that is renamed over it, with the file's mode;
// a symlinked settings file is written through to its target; nothing is written when nothing
// changes. A file that cannot be parsed is exit 2 (usage, `path:line:column`) and left untouched.
// `owner` ("hooks", "mcp") keeps two installs into one file (Gemini's settings.json holds both)
// apart.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "settingsfile/json_edit.hpp"
#include "settingsfile/state.hpp"

namespace mailroom::settingsfile {

struct FileReport {
  std::string path;                  // the file (a symlink's target)
  bool created = false;              // install: there was no file
  bool changed = false;              // the file was written (or removed)
  bool removed = false;              // uninstall: the file the install had created was removed
  std::optional<std::string> backup; // the previous content, under $XDG_STATE_HOME/mailroom/backups/
  std::vector<Edit> edits;           // install: what was added; uninstall: what was removed
  std::vector<Edit> left;            // uninstall: recorded additions changed since, left alone
};

// Changes the document through the editor (which records every change). An error leaves the
// file untouched.
using JsonChange = std::function<Result<void>(JsonEditor&)>;

// Reads `path` (missing or all-blank: {}), applies `change`, and when it changed something writes
// the file (creating it and its directory when missing), backs up the old content and adds the
// edits to `owner`'s record. Errors: usage (unparseable, comments, wrong shape, no state
// directory), store_error (cannot read or write).
Result<FileReport> install_json(const std::string& path, std::string_view owner, const JsonChange& change,
                                const Surroundings& around);

// Finds the additions to remove when there is no record (the file was installed on another
// machine or the state was removed): the edits `owner`'s install would have made, as found in
// `doc`.
using JsonGuess = std::function<std::vector<Edit>(const Json& doc)>;

// Removes what `owner` added to `path`: the recorded edits, else those `guess` finds. A file the
// install created that is left as {} is removed. A missing file changes nothing.
Result<FileReport> uninstall_json(const std::string& path, std::string_view owner, const JsonGuess& guess,
                                  const Surroundings& around);

// How a TOML table stands in a file.
struct TomlTableState {
  bool present = false;
  bool same = false;    // its content is `body` (blank lines and comments aside)
  std::size_t line = 0; // its header's line (1-based) when present
};

// Whether the table `[name]` is in `text`, and whether it holds `body`. Errors: usage
// `<file>:<line>:<column>: <what>` when `text` is not valid TOML.
Result<TomlTableState> find_toml_table(std::string_view text, std::string_view name, std::string_view body,
                                       std::string_view file);

// A table's string and string-array members by key (a string as a list of one).
using TomlStrings = std::map<std::string, std::vector<std::string>>;

// The members of the table at the dotted path `name` in `text` (what `hooks status` reads of an
// installed entry); nullopt when there is none. Errors: usage as find_toml_table's.
Result<std::optional<TomlStrings>> read_toml_strings(std::string_view text, std::string_view name,
                                                     std::string_view file);

// Appends `[name]` with `body` (TOML key = value lines) to `path` when the table is absent; the
// same table already there changes nothing. Errors: usage `<path>:<line>: [name] is already there
// with other values` (exit 2), an unparseable file, no state directory; store_error.
Result<FileReport> install_toml_table(const std::string& path, std::string_view owner, std::string_view name,
                                      std::string_view body, const Surroundings& around);

// Removes the table `[name]` (its header through the line before the next table header) when it
// holds `body`; a file the install created that is left blank is removed. An absent table changes
// nothing. Errors: usage naming the line when the table holds other values (left alone).
Result<FileReport> uninstall_toml_table(const std::string& path, std::string_view owner,
                                        std::string_view name, std::string_view body,
                                        const Surroundings& around);

} // namespace mailroom::settingsfile
