#!/usr/bin/env bash
# Installs the Debian packages mailroom builds and tests with, when any is missing.
# PostgreSQL: libpq-dev (the client library), postgresql (the server the unit tests start with
# scripts/pg-test-server.sh) and postgresql-server-dev-15 for libpgcommon_shlib.a and
# libpgport_shlib.a, which Debian's static libpq.a needs and libpq-dev does not ship.
# libboost1.74-dev: Boost.Beast and Boost.Asio (header-only) for `mailroom serve`'s HTTP server;
# curl drives it in integration/serve_*.sh.
# lld links the release binary in start-up order (cmd/CMakeLists.txt).
# unicode-data: UnicodeData.txt and CaseFolding.txt, from which the CTest unicode_tables regenerates
# internal/text/unicode_data.cpp and compares it with the committed file.
# pgbouncer, nftables: the several-hosts tests (integration/hosts_*.sh) put PgBouncer in front of
# the server and cut links with nftables drop rules (iproute2's ip builds the namespaces).
set -euo pipefail
packages=(g++ cmake ninja-build make libcli11-dev libfmt-dev libtomlplusplus-dev doctest-dev
          libsqlite3-dev nlohmann-json3-dev sqlite3 hyperfine fiu-utils jq lld
          libpq-dev libssl-dev libboost1.74-dev curl postgresql postgresql-server-dev-15 unicode-data pgbouncer nftables iproute2)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" > /dev/null
fi

# Debian's chromium for the dashboard's browser suite (integration/browser_*.sh), without its
# recommends (they pull avahi, samba libraries and a systemd upgrade). The suite drives
# /usr/bin/chromium itself; it never downloads a browser.
if ! dpkg-query -W -f='${Status}' chromium 2> /dev/null | grep -q 'install ok installed'; then
  echo "installing: chromium (--no-install-recommends)"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium > /dev/null
fi

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
