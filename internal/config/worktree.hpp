#pragma once

// Git worktrees share one mailroom. The layout around a directory is found by reading files only
// (no `git` process): the nearest `.git` above it (a directory in a main worktree, a file
// "gitdir: <path>" in a linked one), and for a linked worktree its `commondir`.

#include <filesystem>
#include <optional>
#include <vector>

namespace mailroom::config {

struct GitLayout {
  std::filesystem::path top;        // the worktree's top directory (the one holding `.git`)
  std::filesystem::path common_dir; // the repository's common git directory
  // The main worktree's top; nullopt for a bare repository (its worktrees are all linked).
  std::optional<std::filesystem::path> main_worktree;
  bool linked = false; // `top` is a linked worktree (its `.git` is a file)

  bool bare() const { return !main_worktree.has_value(); }
  // Where the one configuration of the repository lives: <main>/mailroom.toml, or for a bare
  // repository <common dir>/mailroom/mailroom.toml.
  std::filesystem::path shared_config() const;
  // The default store of the repository: <main>/.mailroom/mail.db, or for a bare repository
  // <common dir>/mailroom/mail.db.
  std::filesystem::path shared_store() const;
  // The directory holding shared_store().
  std::filesystem::path shared_store_dir() const;
};

// The layout of the git worktree holding `dir` (walking up to the nearest `.git`); nullopt
// outside git, inside a submodule's worktree, or when the files are unreadable or malformed.
std::optional<GitLayout> git_layout_of(const std::filesystem::path& dir);

// When `dir` is the top of a linked git worktree of a repository with a main worktree, that main
// worktree's directory; nullopt otherwise (kept for callers that only need this).
std::optional<std::filesystem::path> main_worktree_of(const std::filesystem::path& dir);

// The tops of every worktree of the repository: the main one (when there is one) first, then the
// linked ones registered under <common dir>/worktrees/ whose directory still exists.
std::vector<std::filesystem::path> worktrees_of(const GitLayout& layout);

} // namespace mailroom::config
