#pragma once

// Git worktrees share one mailroom: the store of a linked worktree's workspace is the main
// worktree's. Found by reading files only (no `git` process), so it costs one stat and two small
// reads, and only when the workspace uses its default store.

#include <filesystem>
#include <optional>

namespace mailroom::config {

// When `dir` is the top of a linked git worktree (its `.git` is a file "gitdir: <path>" naming
// <main>/.git/worktrees/<name>, whose `commondir` leads back to <main>/.git), the main worktree's
// directory <main>; nullopt for a main worktree, a plain directory, a bare repository, or anything
// unreadable or malformed.
std::optional<std::filesystem::path> main_worktree_of(const std::filesystem::path& dir);

} // namespace mailroom::config
