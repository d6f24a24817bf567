// The TOML half of install.hpp: one table appended to (or removed from) Codex's config.toml as
// text, so every other line, comment and format in the file stays exactly as it was.

#include <fmt/format.h>
#include <toml++/toml.h>

#include "config/toml_guard.hpp"
#include "settingsfile/file_io.hpp"
#include "settingsfile/install.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"
#include "util/atomic_file.hpp"

namespace mailroom::settingsfile {

namespace {

std::vector<std::string> split_lines(std::string_view text)
{
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    lines.emplace_back(text.substr(start, end == std::string_view::npos ? text.size() - start : end - start));
    if (end == std::string_view::npos) {
      break;
    }
    start = end + 1;
  }
  return lines;
}

// The header's table name ("a.b" for "[a.b]" or "[ a . b ]"; "[[x]]" gives "[x]"), or "" for a
// line that is no header.
std::string header_name(const std::string& line)
{
  const std::string trimmed = text::trim(line);
  if (trimmed.empty() || trimmed[0] != '[') {
    return {};
  }
  const bool array = text::starts_with(trimmed, "[[");
  const std::size_t close = trimmed.find(array ? "]]" : "]");
  if (close == std::string::npos) {
    return {};
  }
  std::string name;
  for (const char c : trimmed.substr(array ? 2 : 1, close - (array ? 2 : 1))) {
    if (c != ' ' && c != '\t') {
      name += c;
    }
  }
  return array ? "[" + name + "]" : name;
}

// Meaningful lines: trimmed, without blank and comment lines.
std::vector<std::string> meaningful(const std::vector<std::string>& lines)
{
  std::vector<std::string> out;
  for (const std::string& line : lines) {
    const std::string trimmed = text::trim(line);
    if (!trimmed.empty() && trimmed[0] != '#') {
      out.push_back(trimmed);
    }
  }
  return out;
}

struct Region {
  std::size_t begin = 0; // the header line's index
  std::size_t end = 0;   // one past the table's last line
};

// The lines of `name` (its header through the line before the next header that is not one of its
// sub-tables); multi-line strings are skipped.
std::optional<Region> locate(const std::vector<std::string>& lines, std::string_view name)
{
  std::optional<Region> region;
  bool in_string = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const bool header = !in_string && !header_name(line).empty();
    for (std::size_t at = 0; (at = line.find("\"\"\"", at)) != std::string::npos; at += 3) {
      in_string = !in_string;
    }
    for (std::size_t at = 0; (at = line.find("'''", at)) != std::string::npos; at += 3) {
      in_string = !in_string;
    }
    if (!header) {
      continue;
    }
    const std::string found = header_name(line);
    if (region && region->end == 0) {
      if (text::starts_with(found, std::string(name) + ".")) {
        continue;
      }
      region->end = i;
    }
    if (!region && found == name) {
      region = Region{i, 0};
    }
  }
  if (region && region->end == 0) {
    region->end = lines.size();
  }
  return region;
}

Result<void> check_toml(std::string_view text, std::string_view file)
{
  TRY(config::check_text_outside_strings(text, std::string(file)));
  try {
    (void)toml::parse(text, std::string(file));
  } catch (const toml::parse_error& e) {
    return make_error(ErrorCode::usage,
                      fmt::format("{}:{}:{}: not valid TOML ({}); left unchanged", file,
                                  e.source().begin.line, e.source().begin.column,
                                  text::truncate_line(std::string(e.description()), 160)),
                      "fix the file, or add the table by hand");
  }
  return {};
}

std::string joined(const std::vector<std::string>& lines, std::size_t from, std::size_t to)
{
  std::string out;
  for (std::size_t i = from; i < to; ++i) {
    out += lines[i];
    out += '\n';
  }
  return out;
}

} // namespace

Result<TomlTableState> find_toml_table(std::string_view text, std::string_view name, std::string_view body,
                                       std::string_view file)
{
  TRY(check_toml(text, file));
  const std::vector<std::string> lines = split_lines(text);
  const auto region = locate(lines, name);
  if (!region) {
    return TomlTableState{};
  }
  const std::vector<std::string> inside(lines.begin() + static_cast<std::ptrdiff_t>(region->begin) + 1,
                                        lines.begin() + static_cast<std::ptrdiff_t>(region->end));
  return TomlTableState{true, meaningful(inside) == meaningful(split_lines(body)), region->begin + 1};
}

Result<std::optional<TomlStrings>> read_toml_strings(std::string_view text, std::string_view name,
                                                     std::string_view file)
{
  TRY(check_toml(text, file));
  const toml::table doc = toml::parse(text, std::string(file));
  const toml::table* table = doc.at_path(name).as_table();
  if (table == nullptr) {
    return std::optional<TomlStrings>();
  }
  TomlStrings out;
  for (const auto& [key, node] : *table) {
    if (const auto* value = node.as_string()) {
      out[std::string(key.str())] = {value->get()};
    } else if (const auto* list = node.as_array()) {
      std::vector<std::string> strings;
      for (const auto& item : *list) {
        if (const auto* one = item.as_string()) {
          strings.push_back(one->get());
        }
      }
      out[std::string(key.str())] = std::move(strings);
    }
  }
  return std::optional<TomlStrings>(std::move(out));
}

Result<FileReport> install_toml_table(const std::string& path, std::string_view owner, std::string_view name,
                                      std::string_view body, const Surroundings& around)
{
  FileReport report;
  TRY_ASSIGN(report.path, resolve_symlink(path));
  TRY_ASSIGN(std::optional<FileContent> existing, read_settings_file(report.path));
  report.created = !existing.has_value();
  const std::string text = existing ? existing->text : std::string();
  TRY_ASSIGN(const TomlTableState state, find_toml_table(text, name, body, report.path));
  if (state.present && state.same) {
    return report;
  }
  if (state.present) {
    return make_error(ErrorCode::usage,
                      fmt::format("{}:{}: [{}] is already there with other values; left unchanged",
                                  report.path, state.line, name),
                      "remove that table, or compare it with 'mailroom mcp show codex'");
  }
  std::string next = text;
  if (!next.empty() && next.back() != '\n') {
    next += '\n';
  }
  if (!text::trim(next).empty()) {
    next += '\n';
  }
  next += fmt::format("[{}]\n{}", name, body);
  if (next.back() != '\n') {
    next += '\n';
  }
  const Edit edit{Edit::Kind::toml_table, {std::string(name)}, Json(std::string(body))};
  TRY_ASSIGN(std::optional<Record> record, load_record(report.path, owner, around.env));
  Record updated = record.value_or(Record{report.path, report.created, {}, {}});
  updated.created_file = updated.created_file || report.created;
  if (report.created) {
    updated.created_dirs = missing_parents(report.path);
  }
  updated.edits.push_back(edit);
  TRY(save_record(updated, owner, around.env));
  if (existing) {
    TRY_ASSIGN(std::string backup, save_backup(report.path, existing->text, existing->mode, around));
    report.backup = std::move(backup);
    TRY(util::write_file_atomically(report.path, next, existing->mode));
  } else {
    TRY(make_parent_directory(report.path));
    TRY(util::write_file_atomically(report.path, next, new_file_mode()));
  }
  report.edits.push_back(edit);
  report.changed = true;
  return report;
}

Result<FileReport> uninstall_toml_table(const std::string& path, std::string_view owner,
                                        std::string_view name, std::string_view body,
                                        const Surroundings& around)
{
  FileReport report;
  TRY_ASSIGN(report.path, resolve_symlink(path));
  TRY_ASSIGN(std::optional<FileContent> existing, read_settings_file(report.path));
  TRY_ASSIGN(std::optional<Record> record, load_record(report.path, owner, around.env));
  // What to remove: the body this owner recorded for that table, else the one it would write.
  std::string expected(body);
  if (record) {
    for (const Edit& edit : record->edits) {
      if (edit.kind == Edit::Kind::toml_table && edit.path == std::vector<std::string>{std::string(name)} &&
          edit.value.is_string()) {
        expected = edit.value.get<std::string>();
      }
    }
  }
  if (!existing) {
    return report;
  }
  TRY_ASSIGN(const TomlTableState state, find_toml_table(existing->text, name, expected, report.path));
  if (!state.present) {
    return report;
  }
  if (!state.same) {
    return make_error(ErrorCode::usage,
                      fmt::format("{}:{}: [{}] holds other values than mailroom wrote; left unchanged",
                                  report.path, state.line, name),
                      "remove that table by hand if it is no longer wanted");
  }
  std::vector<std::string> lines = split_lines(existing->text);
  const auto region = locate(lines, name);
  std::size_t begin = region->begin;
  if (begin > 0 && text::trim(lines[begin - 1]).empty()) {
    --begin; // the blank line install put before the table
  }
  const std::string next = joined(lines, 0, begin) + joined(lines, region->end, lines.size());
  TRY_ASSIGN(std::string backup, save_backup(report.path, existing->text, existing->mode, around));
  report.backup = std::move(backup);
  if (record && record->created_file && text::trim(next).empty()) {
    TRY(remove_file(report.path));
    remove_empty_dirs(record->created_dirs);
    report.removed = true;
  } else {
    TRY(util::write_file_atomically(report.path, next, existing->mode));
  }
  report.changed = true;
  report.edits.push_back(Edit{Edit::Kind::toml_table, {std::string(name)}, Json(expected)});
  if (record) {
    std::erase_if(record->edits, [&](const Edit& e) {
      return e.kind == Edit::Kind::toml_table && e.path == report.edits.back().path;
    });
    record->created_file = record->created_file && !report.removed && !record->edits.empty();
    TRY(save_record(*record, owner, around.env));
  }
  return report;
}

} // namespace mailroom::settingsfile
