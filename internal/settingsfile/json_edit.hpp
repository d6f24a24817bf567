#pragma once

// Changing a JSON settings document so that the change can be undone exactly: every member an
// install sets, every element it appends and every object it creates to hold them is recorded as
// an Edit, and undo_edits removes exactly those (when they are still what was written).

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "settingsfile/state.hpp"

namespace mailroom::settingsfile {

using Json = nlohmann::ordered_json;

// How set_member found the member.
enum class Member {
  added,     // it was absent and is now `value`
  already,   // it was `value` already
  different, // it holds another value, left alone
};

class JsonEditor {
public:
  // `doc` must be an object (or null, which becomes {}); `file` names it in errors.
  JsonEditor(Json& doc, std::string file);

  // The object at `path` (keys from the top), created, and recorded, where missing.
  // Errors: usage `<file>: "<a.b>" is not a JSON object; left unchanged`.
  Result<Json*> object_at(const std::vector<std::string>& path);

  // Sets the member `path` (its last key, in the object the others lead to) to `value` when it is
  // absent. Errors: as object_at.
  Result<Member> set_member(const std::vector<std::string>& path, const Json& value);

  // Appends `value` to the array at `path`, creating the array where missing. Errors: usage when
  // the member exists and is not an array, or the way to it is not objects.
  Result<void> append(const std::vector<std::string>& path, const Json& value);

  // The member at `path`, or nullptr.
  const Json* find(const std::vector<std::string>& path) const;

  const std::vector<Edit>& edits() const { return m_edits; }
  const std::string& file() const { return m_file; }

private:
  Json& m_doc;
  std::string m_file;
  std::vector<Edit> m_edits;
};

// "a.b.c" for the path {"a","b","c"}.
std::string dotted(const std::vector<std::string>& path);

// Undoes `edits` in `doc`, newest first: an appended element is removed where an equal element is
// still in its array, a member still equal to what was set is removed, an object made by the
// install is removed when it is empty again. Returns the edits that could not be undone because
// the file changed since (left as they are).
std::vector<Edit> undo_edits(Json& doc, const std::vector<Edit>& edits);

} // namespace mailroom::settingsfile
