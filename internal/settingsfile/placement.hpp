#pragma once

// Where a project's agent settings file goes and who sees it: at the top of the git worktree
// holding the cwd (where Claude Code, Codex and Gemini CLI look), not in the cwd; and whether git
// tracks it, so `install` can say which worktrees see it.

#include <string>
#include <vector>

#include "util/environment.hpp"

namespace mailroom::settingsfile {

struct Placement {
  std::string dir;                    // the project directory: the worktree's top, else the cwd
  bool in_git = false;                // dir is a git worktree's top
  std::vector<std::string> worktrees; // every worktree of that repository (this one included)
};

// The project directory for the cwd of `env`. Reads files only.
Placement project_placement(const util::Environment& env);

enum class Tracked { yes, no, unknown };

// Whether git tracks `file` (a path under `top`, a worktree's top): `git ls-files` run as an argv
// with a time limit; unknown when git is missing or fails.
Tracked tracked_by_git(const std::string& top, const std::string& file);

// One sentence for install and status: who sees `file` and whether it is tracked, e.g.
// "tracked by git: every worktree whose branch has the commit sees it" or "not tracked by git:
// only this worktree sees it; the other 2 worktrees (/a, /b) do not — commit it, or install in
// each".
std::string visibility(const Placement& placement, const std::string& file, Tracked tracked);

} // namespace mailroom::settingsfile
