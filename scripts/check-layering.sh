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
    internal/mcp) echo "base text util mail config render ops mcp" ;;
    internal/http) echo "base text util mail config render ops http" ;;
    internal/ops) echo "base text util mail config render ops" ;;
    internal/dashboard) echo "dashboard" ;;
    internal/settingsfile) echo "base text util mail config settingsfile" ;;
    internal/hooks) echo "base text util mail config render settingsfile hooks" ;;
    tests/testing) echo "base text util db sqlite pg mail config render testing" ;;
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
done < <(git ls-files 'internal/*.cpp' 'internal/*.hpp' 'providers/*.cpp' 'providers/*.hpp' 'tests/testing/*.cpp' 'tests/testing/*.hpp' | grep -v '_test\.cpp$')

# cmd/ parses and prints: the operations (internal/ops) make the mail decisions and write the
# results' JSON. A command file (source or header) fails here when it
#  - calls a Provider method or takes the provider from its session (ctx/session.provider(),
#    providers.get()), or reaches a store's facets;
#  - names mail::Provider, or calls open_provider, outside the files that open a store for a
#    surface (store_openers);
#  - includes a provider's internals (beads/, sqlstore/, postgres/, exec/), except gc_mail.cpp,
#    which is the script side of the exec protocol; or the provider factory outside the files
#    that build the opener or list the schemes (factory_users);
#  - builds a JSON document itself, except the files listed, which hold what is not an
#    operation's result.
store_openers=" \
  app.cpp context.hpp `# the command's store, opened on first use (AppDeps, ProviderSlot)` \
  init.cpp       `# creates the store, then opens it` \
  mcp.cpp serve.cpp `# a pooled connection per request` \
  gc_mail.cpp    `# the exec protocol's script side answers over the store` \
"
factory_users=" \
  app.cpp        `# providers::make_provider is the opener run() passes` \
  app_texts.cpp  `# --version lists the compiled-in schemes` \
  gc_mail.cpp    `# the store behind an exec provider's settings` \
"
json_exceptions=" \
  app.cpp app_texts.cpp completion.cpp config.cpp hooks.cpp init.cpp `# not mail operations` \
  mcp.cpp mcp_install.cpp `# mcp --check-identity, mcp show/install/uninstall: not mail operations` \
  checks.cpp doctor.cpp `# hooks status and doctor: set-up checks, not mail operations` \
  support.cpp    `# the warning line of every command` \
"
listed() { case " $(echo $2) " in *" $1 "*) return 0 ;; esac; return 1; }
while IFS= read -r file; do
  name=${file#cmd/}
  if grep -nE 'provider(->|\.)[a-z_]+\(|\.provider\(\)|->provider\(\)|providers\.get\(\)|session\.provider\(|facets\(\)' "$file"; then
    echo "$file calls the provider: call an operation in internal/ops instead"
    status=1
  fi
  if ! listed "$name" "$store_openers" && grep -nE '\bmail::Provider\b|open_provider\(' "$file"; then
    echo "$file holds a provider: only the files that open the store may (call an operation instead)"
    status=1
  fi
  if [ "$name" != gc_mail.cpp ] && grep -nE '^#include "(beads|sqlstore|postgres|exec)/' "$file"; then
    echo "$file includes a provider's internals: cmd/ reaches the store only through internal/ops"
    status=1
  fi
  if ! listed "$name" "$factory_users" && grep -nE '^#include "(providers/)?factory\.hpp"' "$file"; then
    echo "$file includes the provider factory: only the files that open the store or list the schemes may"
    status=1
  fi
  if ! listed "$name" "$json_exceptions" && grep -nE 'json_document\(\)|nlohmann::(ordered_)?json doc\b' "$file"; then
    echo "$file builds result JSON by hand: print the operation's to_json instead"
    status=1
  fi
done < <(git ls-files 'cmd/*.cpp' 'cmd/*.hpp' | grep -v '_test\.cpp$')

# internal/mcp serves the tools on the same operations: no tool calls a Provider method or writes
# a result's JSON document itself (the one JSON-RPC envelope and the isError result are the
# protocol's, not a result's).
while IFS= read -r file; do
  if grep -nE 'provider(->|\.)[a-z_]+\(|\.provider\(\)|providers\.get\(\)|session\.provider\(' "$file"; then
    echo "$file calls the provider: call an operation in internal/ops instead"
    status=1
  fi
  if grep -nE 'json_document\(\)' "$file"; then
    echo "$file builds result JSON by hand: answer the operation's to_json instead"
    status=1
  fi
done < <(git ls-files 'internal/mcp/*.cpp' 'internal/mcp/*.hpp' | grep -v '_test\.cpp$')
exit $status
