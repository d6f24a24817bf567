#include "config/worktree.hpp"

#include <algorithm>
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

// A path read from a git file, made absolute against `base`.
fs::path anchored(const std::string& value, const fs::path& base)
{
  fs::path path = value;
  if (path.is_relative()) {
    path = base / path;
  }
  return path.lexically_normal();
}

fs::path without_trailing_slash(fs::path path)
{
  return path.has_filename() ? path : path.parent_path();
}

// The layout of the worktree whose top is `top` and whose `.git` is the file `dot_git`.
std::optional<GitLayout> linked_layout(const fs::path& top, const fs::path& dot_git)
{
  const auto gitdir_line = first_line(dot_git);
  constexpr std::string_view k_prefix = "gitdir:";
  if (!gitdir_line || !text::starts_with(*gitdir_line, k_prefix)) {
    return std::nullopt;
  }
  const fs::path gitdir = anchored(text::trim(gitdir_line->substr(k_prefix.size())), top);
  const auto commondir_line = first_line(gitdir / "commondir");
  if (!commondir_line || commondir_line->empty()) {
    return std::nullopt; // a submodule's .git file, not a worktree
  }
  GitLayout layout;
  layout.top = top;
  layout.linked = true;
  layout.common_dir = without_trailing_slash(anchored(*commondir_line, gitdir));
  // A repository with a main worktree keeps its common directory as <main>/.git; a bare one is
  // the common directory itself (core.bare), whatever its name.
  std::error_code ec;
  const bool bare_config = [&] {
    std::ifstream in(layout.common_dir / "config");
    std::string line;
    while (std::getline(in, line)) {
      std::string compact;
      for (const char c : line) {
        if (c != ' ' && c != '\t') {
          compact += c;
        }
      }
      if (compact == "bare=true") {
        return true;
      }
    }
    return false;
  }();
  if (layout.common_dir.filename() == ".git" && !bare_config) {
    const fs::path main = layout.common_dir.parent_path();
    if (!main.empty() && fs::is_directory(main, ec)) {
      layout.main_worktree = main;
    }
  }
  return layout;
}

} // namespace

fs::path GitLayout::shared_config() const
{
  return main_worktree ? *main_worktree / "mailroom.toml" : common_dir / "mailroom" / "mailroom.toml";
}

fs::path GitLayout::shared_store_dir() const
{
  return main_worktree ? *main_worktree / ".mailroom" : common_dir / "mailroom";
}

fs::path GitLayout::shared_store() const
{
  return shared_store_dir() / "mail.db";
}

std::optional<GitLayout> git_layout_of(const fs::path& dir)
{
  std::error_code ec;
  for (fs::path up = dir.lexically_normal();; up = up.parent_path()) {
    const fs::path dot_git = up / ".git";
    const fs::file_status status = fs::status(dot_git, ec);
    if (fs::is_directory(status)) {
      GitLayout layout;
      layout.top = up;
      layout.common_dir = dot_git;
      layout.main_worktree = up;
      return layout;
    }
    if (fs::is_regular_file(status)) {
      return linked_layout(up, dot_git);
    }
    if (up == up.root_path() || up.parent_path() == up || up.empty()) {
      return std::nullopt;
    }
  }
}

std::optional<fs::path> main_worktree_of(const fs::path& dir)
{
  std::error_code ec;
  if (!fs::is_regular_file(dir / ".git", ec)) {
    return std::nullopt;
  }
  const auto layout = linked_layout(dir, dir / ".git");
  return layout ? layout->main_worktree : std::nullopt;
}

std::vector<fs::path> worktrees_of(const GitLayout& layout)
{
  std::vector<fs::path> out;
  if (layout.main_worktree) {
    out.push_back(*layout.main_worktree);
  }
  std::error_code ec;
  std::vector<fs::path> linked;
  for (fs::directory_iterator it(layout.common_dir / "worktrees", ec), end; !ec && it != end;
       it.increment(ec)) {
    const auto gitdir = first_line(it->path() / "gitdir"); // <worktree>/.git
    if (!gitdir) {
      continue;
    }
    const fs::path top = anchored(*gitdir, it->path()).parent_path();
    std::error_code exists_ec;
    if (fs::is_directory(top, exists_ec)) {
      linked.push_back(top);
    }
  }
  std::sort(linked.begin(), linked.end());
  out.insert(out.end(), linked.begin(), linked.end());
  return out;
}

} // namespace mailroom::config
