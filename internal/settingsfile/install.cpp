#include "settingsfile/install.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "settingsfile/file_io.hpp"
#include "text/strings.hpp"
#include "util/atomic_file.hpp"

namespace mailroom::settingsfile {

namespace {

std::string serialise(const Json& doc)
{
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace

Result<FileReport> install_json(const std::string& path, std::string_view owner, const JsonChange& change,
                                const Surroundings& around)
{
  FileReport report;
  TRY_ASSIGN(report.path, resolve_symlink(path));
  TRY_ASSIGN(std::optional<FileContent> existing, read_settings_file(report.path));
  report.created = !existing.has_value();
  Json doc = Json::object();
  if (existing) {
    TRY_ASSIGN(doc, parse_settings(existing->text, report.path));
  }
  if (!doc.is_object()) {
    return make_error(ErrorCode::usage,
                      fmt::format("{}: the top level is not a JSON object; left unchanged", report.path),
                      "fix the file, or add the entry by hand");
  }
  JsonEditor editor(doc, report.path);
  TRY(change(editor));
  report.edits = editor.edits();
  if (report.edits.empty()) {
    return report;
  }
  // The record comes first: a file changed without one could not be uninstalled exactly.
  TRY_ASSIGN(std::optional<Record> record, load_record(report.path, owner, around.env));
  Record next = record.value_or(Record{report.path, report.created, {}, {}});
  next.created_file = next.created_file || report.created;
  if (report.created) {
    next.created_dirs = missing_parents(report.path);
  }
  next.edits.insert(next.edits.end(), report.edits.begin(), report.edits.end());
  TRY(save_record(next, owner, around.env));
  if (existing) {
    TRY_ASSIGN(std::string backup, save_backup(report.path, existing->text, existing->mode, around));
    report.backup = std::move(backup);
    TRY(util::write_file_atomically(report.path, serialise(doc), existing->mode));
  } else {
    TRY(make_parent_directory(report.path));
    TRY(util::write_file_atomically(report.path, serialise(doc), new_file_mode()));
  }
  report.changed = true;
  return report;
}

Result<FileReport> uninstall_json(const std::string& path, std::string_view owner, const JsonGuess& guess,
                                  const Surroundings& around)
{
  FileReport report;
  TRY_ASSIGN(report.path, resolve_symlink(path));
  TRY_ASSIGN(std::optional<FileContent> existing, read_settings_file(report.path));
  TRY_ASSIGN(std::optional<Record> record, load_record(report.path, owner, around.env));
  if (!existing) {
    if (record) {
      TRY(save_record(Record{report.path, false, {}, {}}, owner, around.env));
    }
    return report;
  }
  TRY_ASSIGN(Json doc, parse_settings(existing->text, report.path));
  if (!doc.is_object()) {
    return make_error(ErrorCode::usage,
                      fmt::format("{}: the top level is not a JSON object; left unchanged", report.path));
  }
  const std::vector<Edit> edits = record ? record->edits : guess(doc);
  const Json before = doc;
  report.left = undo_edits(doc, edits);
  for (const Edit& edit : edits) {
    const bool left = std::any_of(report.left.begin(), report.left.end(), [&](const Edit& l) {
      return l.kind == edit.kind && l.path == edit.path && l.value == edit.value;
    });
    if (!left && edit.kind != Edit::Kind::created_object) {
      report.edits.push_back(edit);
    }
  }
  if (doc == before) {
    if (record) {
      TRY(save_record(Record{report.path, false, {}, {}}, owner, around.env));
    }
    return report;
  }
  TRY_ASSIGN(std::string backup, save_backup(report.path, existing->text, existing->mode, around));
  report.backup = std::move(backup);
  if (record && record->created_file && doc.empty()) {
    TRY(remove_file(report.path));
    remove_empty_dirs(record->created_dirs);
    report.removed = true;
  } else {
    TRY(util::write_file_atomically(report.path, serialise(doc), existing->mode));
  }
  report.changed = true;
  TRY(save_record(Record{report.path, false, {}, {}}, owner, around.env));
  return report;
}

} // namespace mailroom::settingsfile
