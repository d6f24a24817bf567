#include "settingsfile/json_edit.hpp"

#include <fmt/format.h>

#include "text/strings.hpp"

namespace mailroom::settingsfile {

namespace {

Error not_object(std::string_view file, const std::vector<std::string>& path, std::string_view what)
{
  return make_error(ErrorCode::usage,
                    fmt::format("{}: \"{}\" is not {}; left unchanged", file,
                                path.empty() ? std::string("the top level") : dotted(path), what),
                    "fix the file, or add the entry by hand");
}

// The value at `path` in `doc`, or nullptr.
Json* walk(Json& doc, const std::vector<std::string>& path)
{
  Json* at = &doc;
  for (const std::string& key : path) {
    if (!at->is_object() || !at->contains(key)) {
      return nullptr;
    }
    at = &(*at)[key];
  }
  return at;
}

} // namespace

std::string dotted(const std::vector<std::string>& path)
{
  return text::join(path, ".");
}

JsonEditor::JsonEditor(Json& doc, std::string file) : m_doc(doc), m_file(std::move(file))
{
  if (m_doc.is_null()) {
    m_doc = Json::object();
  }
}

Result<Json*> JsonEditor::object_at(const std::vector<std::string>& path)
{
  if (!m_doc.is_object()) {
    return not_object(m_file, {}, "a JSON object");
  }
  Json* at = &m_doc;
  std::vector<std::string> so_far;
  for (const std::string& key : path) {
    so_far.push_back(key);
    if (!at->contains(key)) {
      (*at)[key] = Json::object();
      m_edits.push_back(Edit{Edit::Kind::created_object, so_far, Json()});
    }
    at = &(*at)[key];
    if (!at->is_object()) {
      return not_object(m_file, so_far, "a JSON object");
    }
  }
  return at;
}

Result<Member> JsonEditor::set_member(const std::vector<std::string>& path, const Json& value)
{
  const std::vector<std::string> parent(path.begin(), path.end() - 1);
  TRY_ASSIGN(Json * object, object_at(parent));
  const std::string& key = path.back();
  if (object->contains(key)) {
    return (*object)[key] == value ? Member::already : Member::different;
  }
  (*object)[key] = value;
  m_edits.push_back(Edit{Edit::Kind::set_member, path, value});
  return Member::added;
}

Result<void> JsonEditor::append(const std::vector<std::string>& path, const Json& value)
{
  const std::vector<std::string> parent(path.begin(), path.end() - 1);
  TRY_ASSIGN(Json * object, object_at(parent));
  const std::string& key = path.back();
  if (!object->contains(key)) {
    (*object)[key] = Json::array();
    m_edits.push_back(Edit{Edit::Kind::created_object, path, Json()});
  } else if (!(*object)[key].is_array()) {
    return not_object(m_file, path, "a JSON array");
  }
  (*object)[key].push_back(value);
  m_edits.push_back(Edit{Edit::Kind::appended, path, value});
  return {};
}

const Json* JsonEditor::find(const std::vector<std::string>& path) const
{
  return walk(m_doc, path);
}

std::vector<Edit> undo_edits(Json& doc, const std::vector<Edit>& edits)
{
  std::vector<Edit> left;
  for (auto it = edits.rbegin(); it != edits.rend(); ++it) {
    const Edit& edit = *it;
    if (edit.path.empty() || edit.kind == Edit::Kind::toml_table) {
      continue;
    }
    const std::vector<std::string> parent_path(edit.path.begin(), edit.path.end() - 1);
    Json* parent = walk(doc, parent_path);
    const std::string& key = edit.path.back();
    Json* target =
        parent != nullptr && parent->is_object() && parent->contains(key) ? &(*parent)[key] : nullptr;
    switch (edit.kind) {
    case Edit::Kind::appended: {
      bool removed = false;
      if (target != nullptr && target->is_array()) {
        for (std::size_t i = target->size(); i-- > 0;) {
          if ((*target)[i] == edit.value) {
            target->erase(i);
            removed = true;
            break;
          }
        }
      }
      if (!removed) {
        left.push_back(edit);
      }
      break;
    }
    case Edit::Kind::set_member:
      if (target != nullptr && *target == edit.value) {
        parent->erase(key);
      } else if (target != nullptr) {
        left.push_back(edit);
      }
      break;
    case Edit::Kind::created_object:
      if (target != nullptr && target->empty() && (target->is_object() || target->is_array())) {
        parent->erase(key);
      }
      break;
    case Edit::Kind::toml_table:
      break;
    }
  }
  return left;
}

} // namespace mailroom::settingsfile
