#!/usr/bin/env bash
# scripts/check-demo.sh (the CTest test demo_config): `make demo` keeps its promise to a newcomer.
# 1. Its package list (scripts/install-deps.sh demo) names no package only the tests need: no
#    PostgreSQL server, Chromium, node, PgBouncer, nftables or other test tool.
# 2. Its recipe installs that list, configures one tree and builds one target, `mailroom`.
# 3. That tree, configured here in a temporary directory with the recipe's own options, builds one
#    executable as a unity build, compiles no test file and no debug information, and needs no libpq.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "check-demo: $*" >&2; exit 1; }

test_only='^(postgresql|postgresql-[0-9]+|postgresql-server-dev-.*|libpq-dev|chromium.*|nodejs|npm|node-.*|pgbouncer|nftables|iproute2|doctest-dev|sqlite3|jq|curl|hyperfine|fiu-utils|unicode-data|lld|lintian)$'
demo=$(bash "$root/scripts/install-deps.sh" demo --print)
all=$(bash "$root/scripts/install-deps.sh" all --print)
[ -n "$demo" ] || fail "install-deps.sh demo --print lists nothing"
if bad=$(grep -E "$test_only" <<< "$demo"); then
  fail "make demo would install test-only packages: $(tr '\n' ' ' <<< "$bad")"
fi
# The pattern means something: the full list has those packages, and the demo's are all in it.
for p in postgresql chromium pgbouncer nftables doctest-dev; do
  grep -qx "$p" <<< "$all" || fail "install-deps.sh all no longer lists $p: update this check"
done
while read -r p; do
  grep -qx "$p" <<< "$all" || fail "$p is in the demo list but not in the full one"
done <<< "$demo"

# The recipe as make would run it, continuation lines joined (no make of a caller's leaks in).
recipe=$(env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s -n --no-print-directory -C "$root" demo | sed -e ':a' -e '/\\$/N; s/\\\n *//; ta')
grep -q 'install-deps.sh demo$' <<< "$recipe" || fail "make demo does not install the demo profile"
builds=$(grep -E '^cmake --build ' <<< "$recipe" || true)
[ "$(wc -l <<< "$builds")" -eq 1 ] || fail "make demo runs $(wc -l <<< "$builds") builds"
grep -qE -- '--target mailroom$' <<< "$builds" || fail "make demo builds more than mailroom: $builds"
if grep -qE '(^| )(ctest|npm|make (build|test|deps))( |$)' <<< "$recipe"; then
  fail "make demo runs tests or the full install"
fi

configure=$(grep -E '^cmake -S \. -B build/demo ' <<< "$recipe") || fail "no demo configure line in: $recipe"
tree=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-check-demo.XXXXXX")
trap 'rm -rf "$tree"' EXIT
read -r -a args <<< "${configure#cmake -S . -B build/demo }"
(cd "$root" && cmake -S . -B "$tree" "${args[@]}" > "$tree/configure.log") || {
  cat "$tree/configure.log" >&2
  fail "the demo configuration fails"
}
grep -q '^MAILROOM_POSTGRES:BOOL=OFF$' "$tree/CMakeCache.txt" || fail "the demo builds the PostgreSQL store"
grep -q '^MAILROOM_UNITY:BOOL=ON$' "$tree/CMakeCache.txt" || fail "the demo is not a unity build"
# Every command building mailroom takes (ninja -n would stop at CMake's glob check).
commands=$(ninja -C "$tree" -t commands mailroom)
compiles=$(grep -E ' -c ' <<< "$commands" || true)
links=$(grep -E '(^|&& )[^ ]*(c\+\+|g\+\+|ld)( |$)' <<< "$commands" | grep -vE ' -c ' || true)
[ "$(grep -c . <<< "$links")" -eq 1 ] || fail "building mailroom links $(grep -c . <<< "$links") executables"
grep -qE ' -o mailroom( |$)' <<< "$links" || fail "the one executable is not mailroom"
if grep -E '(_test\.cpp|tests/CMakeFiles|tests/testing)' <<< "$compiles"; then
  fail "the demo compiles test code"
fi
if grep -E '(^| )-g[0-9]?( |$)' <<< "$commands" | head -n 1 | grep -q .; then
  fail "the demo compiles debug information"
fi
if grep -q 'libpq' <<< "$commands"; then
  fail "the demo links libpq"
fi
echo "make demo: $(wc -l <<< "$demo") packages, one target (mailroom), $(grep -c . <<< "$compiles") compilations"
