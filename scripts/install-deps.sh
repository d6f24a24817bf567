#!/usr/bin/env bash
# scripts/install-deps.sh [demo|package|all] [--print]: installs the Debian 12 packages a make verb
# needs, when any is missing (apt-get, through sudo when not root; without sudo it prints the
# apt-get line and exits 2). --print lists the profile's packages, one a line, and installs nothing.
#
#   demo     building and running the `mailroom` binary alone (make demo): the compiler, CMake and
#            the libraries it compiles in. No PostgreSQL, no browser, no node, no network tools.
#   package  demo + the fully static release binary with its PostgreSQL store, and lintian
#            (make release, make package).
#   all      package + everything the tests and benchmarks use (make build, make test): the default.
#
# Why each package:
# libboost1.74-dev: Boost.Beast and Boost.Asio (header-only) for `mailroom serve`'s HTTP server.
# nettle-dev: SHA-256 and HMAC-SHA256 (libnettle.a, linked statically into the release binary).
# libpq-dev (the client library), postgresql-server-dev-15 for libpgcommon_shlib.a and
# libpgport_shlib.a, which Debian's static libpq.a needs and libpq-dev does not ship, and libssl-dev
# for libssl.a and libcrypto.a, which it links. lld links the release binary in start-up order
# (cmd/CMakeLists.txt). lintian checks the package (make package).
# postgresql: the server the tests start with scripts/pg-test-server.sh. curl drives `serve` in
# integration/serve_*.sh. unicode-data: UnicodeData.txt and CaseFolding.txt, from which the CTest
# unicode_tables regenerates internal/text/unicode_data.cpp and compares it with the committed file.
# pgbouncer, nftables, iproute2: the several-hosts tests (integration/hosts_*.sh) put PgBouncer in
# front of the server and cut links with nftables drop rules in network namespaces. clang-format:
# make lint (and CI) checks the formatting. tmux: the wake tests type into a real tmux pane.
# ccache: rebuilds of an unchanged file come from its cache (CMakeLists.txt uses it when present).
set -euo pipefail

profile=all
print=0
for arg in "$@"; do
  case "$arg" in
    demo | package | all) profile=$arg ;;
    --print) print=1 ;;
    *) echo "usage: scripts/install-deps.sh [demo|package|all] [--print]" >&2; exit 2 ;;
  esac
done

demo=(g++ cmake ninja-build make libcli11-dev libfmt-dev libtomlplusplus-dev libsqlite3-dev
      nlohmann-json3-dev libboost1.74-dev nettle-dev)
package=(lld libpq-dev libssl-dev postgresql-server-dev-15 lintian)
tests=(doctest-dev sqlite3 hyperfine fiu-utils jq curl postgresql unicode-data pgbouncer nftables
       iproute2 clang-format tmux ccache)
case "$profile" in
  demo) packages=("${demo[@]}") ;;
  package) packages=("${demo[@]}" "${package[@]}") ;;
  all) packages=("${demo[@]}" "${package[@]}" "${tests[@]}") ;;
esac

if [ "$print" -eq 1 ]; then
  printf '%s\n' "${packages[@]}"
  [ "$profile" = all ] && echo chromium
  exit 0
fi

# apt_install [apt-get options...] -- PACKAGE...: installs the packages not installed yet.
apt_install() {
  local options=() missing=() p
  while [ "$1" != "--" ]; do options+=("$1"); shift; done
  shift
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo > /dev/null; then
      echo "missing Debian packages; as root, run:" >&2
      echo "  apt-get update && apt-get install -y ${options[*]:+${options[*]} }${missing[*]}" >&2
      exit 2
    fi
    sudo=sudo
  fi
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${options[@]}" "${missing[@]}" > /dev/null
}

apt_install -- "${packages[@]}"
[ "$profile" = all ] || exit 0

# Debian's chromium for the dashboard's browser suite (integration/browser_*.sh), without its
# recommends (they pull avahi, samba libraries and a systemd upgrade). The suite drives
# /usr/bin/chromium itself; it never downloads a browser.
apt_install --no-install-recommends -- chromium

# The MCP client suite (integration/mcp_client.sh) drives `mailroom mcp` through the official
# TypeScript client, pinned in integration/mcp/package-lock.json; the browser suite drives the
# dashboard through playwright-core, pinned in integration/browser/package-lock.json. Both need
# node >= 20: the `node` on PATH is used when it is new enough; node and npm are never installed
# with apt (Debian's node is 18, and its npm conflicts with the node 20 these machines have).
# Without it the suites are reported skipped. npm ci runs again only when a lockfile changed.
root="$(cd "$(dirname "$0")/.." && pwd)"
if command -v node > /dev/null && command -v npm > /dev/null &&
   [ "$(node -p 'process.versions.node.split(".")[0]' 2> /dev/null || echo 0)" -ge 20 ]; then
  for node_suite in "$root/integration/mcp" "$root/integration/browser"; do
    stamp="$node_suite/node_modules/.mailroom-lock"
    if ! cmp -s "$node_suite/package-lock.json" "$stamp" 2> /dev/null; then
      # playwright-core downloads no browser; the variable says so to any tool that would.
      (cd "$node_suite" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error > /dev/null)
      cp "$node_suite/package-lock.json" "$stamp"
    fi
  done
else
  echo "note: node >= 20 not on PATH; the MCP client and browser suites will be skipped" >&2
fi
