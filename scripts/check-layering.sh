#!/usr/bin/env bash
# Fails when a file includes a project header from a layer it may not depend on
# (ARCHITECTURE.md). CMake links each folder only downward; this also catches header-only uses.
set -euo pipefail
cd "$(dirname "$0")/.."
allowed() { # folder -> the project include prefixes it may use
  case "$1" in
    internal/base) echo "base" ;;
    internal/text) echo "base text" ;;
    internal/util) echo "base text util" ;;
    internal/db) echo "base db" ;;
    internal/sqlite) echo "base text util db sqlite" ;;
    internal/pg) echo "base text util db pg" ;;
    internal/mail) echo "base text util mail" ;;
    internal/config) echo "base text util mail config" ;;
    internal/render) echo "base text util mail config render" ;;
    internal/mcp) echo "base text util mail config render mcp" ;;
    internal/settingsfile) echo "base text util mail config settingsfile" ;;
    internal/hooks) echo "base text util mail config render settingsfile hooks" ;;
    internal/testing) echo "base text util db sqlite pg mail config render testing" ;;
    providers*) echo "base text util db sqlite pg mail config render testing sqlstore beads exec postgres factory.hpp" ;;
    cmd) echo "*" ;;
    *) echo "*" ;;
  esac
}
status=0
while IFS= read -r file; do
  dir=$(dirname "$file")
  case "$dir" in providers/*) layer=providers ;; *) layer=$dir ;; esac
  ok=$(allowed "$layer")
  [ "$ok" = "*" ] && continue
  while IFS= read -r inc; do
    top=${inc%%/*}
    [ "$top" = "$inc" ] && continue   # same-folder include without a prefix
    found=0
    for a in $ok; do [ "$a" = "$top" ] && found=1; done
    if [ $found -eq 0 ]; then
      echo "$file includes \"$inc\": $layer may not depend on $top"
      status=1
    fi
  done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file")
  # Test files may include what they test and the testing helpers.
done < <(git ls-files 'internal/*.cpp' 'internal/*.hpp' 'providers/*.cpp' 'providers/*.hpp' | grep -v '_test\.cpp$')
exit $status
