#include "config/worktree.hpp"

#include <fstream>
#include <string>
#include <system_error>

#include "text/strings.hpp"

namespace mailroom::config {

namespace fs = std::filesystem;

namespace {

// The first line of a small file, without its line ending; nullopt when unreadable.
std::optional<std::string> first_line(const fs::path& file)
{
  std::ifstream in(file);
  std::string line;
  if (!in || !std::getline(in, line)) {
    return std::nullopt;
  }
  return text::trim(line);
}

} // namespace

std::optional<fs::path> main_worktree_of(const fs::path& dir)
{
  std::error_code ec;
  const fs::path dot_git = dir / ".git";
  if (!fs::is_regular_file(dot_git, ec)) {
    return std::nullopt; // a directory (the main worktree) or nothing at all
  }
  const auto gitdir_line = first_line(dot_git);
  constexpr std::string_view k_prefix = "gitdir:";
  if (!gitdir_line || !text::starts_with(*gitdir_line, k_prefix)) {
    return std::nullopt;
  }
  fs::path gitdir = text::trim(gitdir_line->substr(k_prefix.size()));
  if (gitdir.is_relative()) {
    gitdir = dir / gitdir;
  }
  const auto commondir_line = first_line(gitdir / "commondir");
  if (!commondir_line || commondir_line->empty()) {
    return std::nullopt; // a submodule's .git file, not a worktree
  }
  fs::path common = *commondir_line;
  if (common.is_relative()) {
    common = gitdir / common;
  }
  common = common.lexically_normal();
  if (common.has_filename() ? common.filename() != ".git" : common.parent_path().filename() != ".git") {
    return std::nullopt; // a bare repository has no main worktree
  }
  const fs::path main = (common.has_filename() ? common : common.parent_path()).parent_path();
  return main.empty() ? std::nullopt : std::optional<fs::path>(main);
}

} // namespace mailroom::config
