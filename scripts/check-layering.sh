#!/usr/bin/env bash
# Fails when a file includes a project header from a layer it may not depend on
# (ARCHITECTURE.md). CMake links each folder only downward; this also catches header-only uses.
set -euo pipefail
cd "$(dirname "$0")/.."
# The layer graph is written once, in cmake/layers.txt; CMake links by it too.
layers=cmake/layers.txt
declare -A folder_of deps_of layer_of_folder
while read -r name folder rest; do
  case "$name" in '' | '#'*) continue ;; esac
  folder_of[$name]=$folder
  layer_of_folder[$folder]=$name
  deps_of[$name]=$(echo "$rest" | sed 's/\[[A-Z_]*\]//g')
done < "$layers"
closure() { # layer -> itself and every layer below it
  local todo=("$1") seen=" " l d
  while [ ${#todo[@]} -gt 0 ]; do
    l=${todo[0]}
    todo=("${todo[@]:1}")
    case "$seen" in *" $l "*) continue ;; esac
    seen="$seen$l "
    for d in ${deps_of[$l]}; do todo+=("$d"); done
  done
  echo "$seen"
}
status=0
declare -A allowed_of
while IFS= read -r file; do
  dir=$(dirname "$file")
  layer=${layer_of_folder[$dir]:-}
  # A subfolder of a layer's folder (internal/mail/facets) belongs to that layer; a folder right
  # under a top folder (providers/x) needs its own line.
  up=$dir
  while [ -z "$layer" ] && [[ "$up" == */*/* ]]; do
    up=${up%/*}
    layer=${layer_of_folder[$up]:-}
  done
  if [ -z "$layer" ]; then
    echo "$file: its folder $dir has no line in $layers"
    status=1
    continue
  fi
  [ -n "${allowed_of[$layer]:-}" ] || allowed_of[$layer]=$(closure "$layer")
  ok=${allowed_of[$layer]}
  while IFS= read -r inc; do
    top=${inc%%/*}
    [ "$top" = "$inc" ] && continue # same-folder include without a prefix
    [ "$inc" = factory.hpp ] && top=factory
    case "$ok" in *" $top "*) continue ;; esac
    echo "$file includes \"$inc\": $layer may not depend on $top ($layers)"
    status=1
  done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file")
  # Test files (and their test_support headers) may include what they test and the testing helpers.
done < <(git ls-files 'internal/*.cpp' 'internal/*.hpp' 'providers/*.cpp' 'providers/*.hpp' 'tests/testing/*.cpp' \
  'tests/testing/*.hpp' | grep -vE '(_test\.cpp|test_support\.hpp)$')

# cmd/ parses and prints: cmd/cli/ runs the command line (parser, help, completion, output, the
# terminal, the hook guard, the command table) and cmd/commands/ holds one file per command; the
# operations (internal/ops) make the mail decisions and write the results' JSON. cmd/cli/ never
# includes a command's header (only its tests may). A file of cmd/ (source or header) fails here
# when it
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
  pooled.cpp     `# mcp's and serve's pooled connection per request` \
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
  name=${file##*/}
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
while IFS= read -r file; do
  if grep -nE '^#include "commands/' "$file"; then
    echo "$file includes a command's header: cmd/cli/ runs the commands through the command table"
    status=1
  fi
done < <(git ls-files 'cmd/cli/*.cpp' 'cmd/cli/*.hpp' | grep -v '_test\.cpp$')

# internal/mcp and internal/http serve the same operations as the CLI: neither calls a Provider
# method, reaches a store's facets or arms its change signal itself (ops::change_signal does), and
# no MCP tool writes a result's JSON document itself (the one JSON-RPC envelope and the isError
# result are the protocol's, not a result's). They may hold a pooled connection to run an
# operation on.
while IFS= read -r file; do
  if grep -nE 'provider(->|\.)[a-z_]+\(|\.provider\(\)|providers\.get\(\)|session\.provider\(|facets\(\)|mail::change_signal\(' "$file"; then
    echo "$file calls the store: call an operation in internal/ops instead"
    status=1
  fi
  case "$file" in internal/mcp/*)
    if grep -nE 'json_document\(\)' "$file"; then
      echo "$file builds result JSON by hand: answer the operation's to_json instead"
      status=1
    fi
    ;;
  esac
done < <(git ls-files 'internal/mcp/*.cpp' 'internal/mcp/*.hpp' 'internal/http/*.cpp' 'internal/http/*.hpp' |
  grep -v '_test\.cpp$')

# A narrow Provider (issue #30): mail::Provider has at most 12 virtual methods besides its
# destructor, and each facet interface (internal/mail/facets/*.hpp) at most 8.
count_virtuals() { grep -cE '^\s*virtual\s' "$1" | tr -d ' ' || true; }
provider_virtuals=$(grep -E '^\s*virtual\s' internal/mail/provider.hpp | grep -vc '~Provider' || true)
if [ "$provider_virtuals" -gt 12 ]; then
  echo "internal/mail/provider.hpp: $provider_virtuals virtual methods (at most 12): make the new ones a facet"
  status=1
fi
for file in internal/mail/facets/*.hpp; do
  n=$(count_virtuals "$file")
  if [ "$n" -gt 8 ]; then
    echo "$file: $n virtual methods (at most 8 per facet): split the facet"
    status=1
  fi
done

# The unread rule and inbox order are written once (scripts/check-sql-rules.sh says where).
bash scripts/check-sql-rules.sh || status=1
exit $status
