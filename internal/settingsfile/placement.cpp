#include "settingsfile/placement.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "config/worktree.hpp"
#include "text/strings.hpp"
#include "util/subprocess.hpp"

namespace mailroom::settingsfile {

namespace fs = std::filesystem;

Placement project_placement(const util::Environment& env)
{
  Placement placement;
  const auto layout = config::git_layout_of(fs::path(env.cwd()));
  if (!layout) {
    placement.dir = env.cwd();
    return placement;
  }
  placement.dir = layout->top.string();
  placement.in_git = true;
  for (const fs::path& top : config::worktrees_of(*layout)) {
    placement.worktrees.push_back(top.string());
  }
  return placement;
}

Tracked tracked_by_git(const std::string& top, const std::string& file)
{
  util::SubprocessOptions options;
  const std::string relative = fs::path(file).lexically_relative(top).string();
  options.argv = {"git", "-C", top, "ls-files", "--error-unmatch", "--", relative};
  options.timeout = std::chrono::milliseconds(5000);
  options.stdout_cap = 1U << 20;
  auto result = util::run_subprocess(options);
  if (!result.ok() || !result->exited || result->timed_out) {
    return Tracked::unknown;
  }
  if (result->exit_status == 0) {
    return Tracked::yes;
  }
  // 1 is "did not match any file(s) known to git"; anything else (128: not a repository) is unknown.
  return result->exit_status == 1 ? Tracked::no : Tracked::unknown;
}

std::string visibility(const Placement& placement, const std::string& file, Tracked tracked)
{
  if (!placement.in_git) {
    return "not in a git worktree: agents started in this directory see it";
  }
  std::vector<std::string> others;
  for (const std::string& top : placement.worktrees) {
    if (top != placement.dir) {
      others.push_back(top);
    }
  }
  const std::string relative = fs::path(file).lexically_relative(placement.dir).string();
  switch (tracked) {
  case Tracked::yes:
    return "tracked by git: every worktree whose branch has this commit sees it";
  case Tracked::unknown:
    return "git could not say whether it is tracked";
  case Tracked::no:
    break;
  }
  if (others.empty()) {
    return fmt::format("not tracked by git (commit {} so clones and new worktrees get it)", relative);
  }
  return fmt::format("not tracked by git: only this worktree sees it; the other {} ({}) do not — commit "
                     "{}, or run the install in each",
                     others.size() == 1 ? std::string("worktree")
                                        : fmt::format("{} worktrees", others.size()),
                     text::join(others), relative);
}

} // namespace mailroom::settingsfile
