#!/usr/bin/env bash
# Fails when cmake/startup-order.txt has gone stale against a release binary: when fewer than
# three in four of the mailroom functions it names are still defined in the binary (renamed,
# removed or inlined since the file was generated). lld skips a name it does not find, so a stale
# file links fine and only orders less of the hot path; regenerate it with
# scripts/startup-order.sh after `make release`.
# Usage: scripts/check-startup-order.sh [<release mailroom>]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$root/build/release/mailroom}
order=$root/cmake/startup-order.txt
[ -x "$binary" ] || { echo "check-startup-order: no release binary at $binary (make release)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-order-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
nm --defined-only "$binary" | awk '{ print $NF }' | sort -u > "$work/defined"
grep '^_ZN8mailroom' "$order" | sort -u > "$work/named" || true
named=$(wc -l < "$work/named")
found=$(comm -12 "$work/named" "$work/defined" | wc -l)
if [ "$named" -eq 0 ] || [ $((found * 4)) -lt $((named * 3)) ]; then
  echo "cmake/startup-order.txt is stale: $found of its $named mailroom functions are in $binary;" \
    "regenerate it with scripts/startup-order.sh" >&2
  exit 1
fi
echo "cmake/startup-order.txt: $found of its $named mailroom functions are in $binary"
