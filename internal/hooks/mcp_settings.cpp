#include "hooks/mcp_settings.hpp"

#include <vector>

#include <fmt/format.h>

#include "settingsfile/file_io.hpp"
#include "text/strings.hpp"

namespace mailroom::hooks {

// The file plumbing moved to the settings-file module (settingsfile/file_io.hpp).
using settingsfile::FileContent;
using settingsfile::make_parent_directory;
using settingsfile::new_file_mode;
using settingsfile::parse_settings;
using settingsfile::read_settings_file;
using settingsfile::resolve_symlink;
using settingsfile::write_atomically;

namespace {

constexpr std::string_view k_table = "mcp_servers.mailroom";

Error usage(std::string message, std::string hint = {})
{
  return make_error(ErrorCode::usage, std::move(message), std::move(hint));
}

std::vector<std::string> split_lines(const std::string& text)
{
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    start = end == std::string::npos ? text.size() : end + 1;
  }
  return lines;
}

// The table a header line opens ("mcp_servers.mailroom" for `[mcp_servers.mailroom]`), or empty.
std::string header_of(const std::string& line)
{
  const std::string trimmed = text::trim(line);
  if (trimmed.size() < 3 || trimmed.front() != '[') {
    return {};
  }
  const std::size_t close = trimmed.find(']');
  if (close == std::string::npos) {
    return {};
  }
  std::string name =
      text::trim(trimmed.substr(trimmed[1] == '[' ? 2 : 1, close - (trimmed[1] == '[' ? 2 : 1)));
  std::string compact;
  for (const char c : name) {
    if (c != ' ' && c != '\t' && c != '"') {
      compact += c;
    }
  }
  return compact;
}

bool ours(const std::string& table)
{
  return table == k_table || text::starts_with(table, std::string(k_table) + ".");
}

// The lines [first, last) of the mailroom table and its subtables; first == last when absent.
std::pair<std::size_t, std::size_t> find_table(const std::vector<std::string>& lines)
{
  std::size_t first = lines.size();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string table = header_of(lines[i]);
    if (first == lines.size()) {
      if (table == k_table) {
        first = i;
      }
    } else if (!table.empty() && !ours(table)) {
      return {first, i};
    }
  }
  return {first, lines.size()};
}

// The table's meaningful lines (no blanks or comments), for comparing with ours.
std::vector<std::string> meaningful(const std::vector<std::string>& lines, std::size_t first,
                                    std::size_t last)
{
  std::vector<std::string> out;
  for (std::size_t i = first; i < last; ++i) {
    const std::string trimmed = text::trim(lines[i]);
    if (!trimmed.empty() && trimmed.front() != '#') {
      out.push_back(trimmed);
    }
  }
  return out;
}

std::string join_lines(const std::vector<std::string>& lines, std::size_t first, std::size_t last)
{
  std::string out;
  for (std::size_t i = first; i < last; ++i) {
    out += lines[i];
    out += '\n';
  }
  return out;
}

Result<McpChange> write_change(const std::string& path, const std::optional<FileContent>& existing,
                               const std::string& data)
{
  McpChange change;
  change.path = path;
  change.created = !existing;
  TRY(make_parent_directory(path));
  if (existing) {
    const std::string backup = path + ".bak";
    TRY(write_atomically(backup, existing->text, existing->mode));
    change.backup = backup;
  }
  TRY(write_atomically(path, data, existing ? existing->mode : new_file_mode()));
  change.changed = true;
  return change;
}

Result<McpChange> install_toml(const std::string& path, const std::optional<FileContent>& existing)
{
  const std::string text = existing ? existing->text : std::string();
  const std::vector<std::string> lines = split_lines(text);
  const auto [first, last] = find_table(lines);
  if (first < lines.size()) {
    const std::vector<std::string> want = split_lines(mcp_toml_table());
    if (meaningful(lines, first, last) == meaningful(want, 0, want.size())) {
      return McpChange{path, false, false, std::nullopt};
    }
    return usage(
        fmt::format("{}:{}: [{}] is already there and differs from mailroom's", path, first + 1, k_table),
        "remove it (mailroom mcp uninstall codex) or edit it by hand");
  }
  std::string data = text;
  if (!data.empty() && data.back() != '\n') {
    data += '\n';
  }
  if (!data.empty()) {
    data += '\n';
  }
  data += mcp_toml_table();
  return write_change(path, existing, data);
}

Result<McpChange> uninstall_toml(const std::string& path, const std::optional<FileContent>& existing)
{
  const std::vector<std::string> lines = split_lines(existing->text);
  auto [first, last] = find_table(lines);
  if (first == lines.size()) {
    return McpChange{path, false, false, std::nullopt};
  }
  // The blank line install put before the table goes with it.
  if (first > 0 && text::trim(lines[first - 1]).empty()) {
    --first;
  }
  return write_change(path, existing, join_lines(lines, 0, first) + join_lines(lines, last, lines.size()));
}

Result<McpChange> change_json(Agent agent, const std::string& path,
                              const std::optional<FileContent>& existing, bool install)
{
  nlohmann::ordered_json doc = nlohmann::ordered_json::object();
  if (existing) {
    TRY_ASSIGN(doc, parse_settings(existing->text, path));
  }
  if (!doc.is_object() || (doc.contains("mcpServers") && !doc["mcpServers"].is_object())) {
    return usage(fmt::format("{}: \"mcpServers\" is not an object", path));
  }
  const nlohmann::ordered_json want = mcp_json_snippet(agent)["mcpServers"]["mailroom"];
  const bool present = doc.contains("mcpServers") && doc["mcpServers"].contains("mailroom");
  if (install) {
    if (present) {
      if (doc["mcpServers"]["mailroom"] == want) {
        return McpChange{path, false, false, std::nullopt};
      }
      return usage(fmt::format("{}: mcpServers.mailroom is already there and differs from mailroom's", path),
                   fmt::format("remove it (mailroom mcp uninstall {}) or edit it by hand", to_string(agent)));
    }
    doc["mcpServers"]["mailroom"] = want;
  } else {
    if (!present) {
      return McpChange{path, false, false, std::nullopt};
    }
    doc["mcpServers"].erase("mailroom");
    if (doc["mcpServers"].empty()) {
      doc.erase("mcpServers");
    }
  }
  return write_change(path, existing, doc.dump(2) + "\n");
}

} // namespace

nlohmann::ordered_json mcp_args()
{
  return nlohmann::ordered_json::array({"mcp", "--as", "${MAILROOM_IDENTITY}"});
}

nlohmann::ordered_json mcp_json_snippet(Agent)
{
  nlohmann::ordered_json server = nlohmann::ordered_json::object();
  server["command"] = "mailroom";
  server["args"] = mcp_args();
  nlohmann::ordered_json doc = nlohmann::ordered_json::object();
  doc["mcpServers"]["mailroom"] = std::move(server);
  return doc;
}

std::string mcp_toml_table()
{
  return "[mcp_servers.mailroom]\n"
         "command = \"mailroom\"\n"
         "args = [\"mcp\"]\n"
         "env_vars = [\"MAILROOM_IDENTITY\"]\n";
}

std::string mcp_snippet_text(Agent agent)
{
  return agent == Agent::codex ? mcp_toml_table() : mcp_json_snippet(agent).dump(2) + "\n";
}

std::string claude_user_command()
{
  return "claude mcp add -s user mailroom -- mailroom mcp --as '${MAILROOM_IDENTITY}'\n";
}

Result<std::string> mcp_settings_path(Agent agent, bool user, const util::Environment& env)
{
  std::string base;
  if (user) {
    const auto home = env.get("HOME");
    if (!home || home->empty()) {
      return usage("--user needs $HOME");
    }
    base = *home;
  } else {
    const auto pwd = env.cwd();
    base = pwd;
  }
  switch (agent) {
  case Agent::claude:
    return base + "/.mcp.json";
  case Agent::codex:
    return base + "/.codex/config.toml";
  case Agent::gemini:
    return base + "/.gemini/settings.json";
  }
  return usage("unknown agent");
}

Result<McpChange> install_mcp(Agent agent, const std::string& given)
{
  TRY_ASSIGN(const std::string path, resolve_symlink(given));
  TRY_ASSIGN(const std::optional<FileContent> existing, read_settings_file(path));
  if (agent == Agent::codex) {
    return install_toml(path, existing);
  }
  return change_json(agent, path, existing, true);
}

Result<McpChange> uninstall_mcp(Agent agent, const std::string& given)
{
  TRY_ASSIGN(const std::string path, resolve_symlink(given));
  TRY_ASSIGN(const std::optional<FileContent> existing, read_settings_file(path));
  if (!existing) {
    return McpChange{path, false, false, std::nullopt};
  }
  if (agent == Agent::codex) {
    return uninstall_toml(path, existing);
  }
  return change_json(agent, path, existing, false);
}

} // namespace mailroom::hooks
