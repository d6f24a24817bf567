#!/usr/bin/env bash
# Installs the Debian packages mailroom builds and tests with, when any is missing.
# PostgreSQL: libpq-dev (the client library), postgresql (the server the unit tests start with
# scripts/pg-test-server.sh) and postgresql-server-dev-15 for libpgcommon_shlib.a and
# libpgport_shlib.a, which Debian's static libpq.a needs and libpq-dev does not ship.
# lld links the release binary in start-up order (cmd/CMakeLists.txt).
# unicode-data: UnicodeData.txt and CaseFolding.txt, from which the CTest unicode_tables regenerates
# internal/text/unicode_data.cpp and compares it with the committed file.
set -euo pipefail
packages=(g++ cmake ninja-build make libcli11-dev libfmt-dev libtomlplusplus-dev doctest-dev
          libsqlite3-dev nlohmann-json3-dev sqlite3 hyperfine fiu-utils jq lld
          libpq-dev libssl-dev postgresql postgresql-server-dev-15 unicode-data)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" > /dev/null
