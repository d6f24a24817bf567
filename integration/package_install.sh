#!/usr/bin/env bash
# The Debian package installed (make test passes it as $MAILROOM_DEB): as root under CI=true or
# MAILROOM_TEST_PACKAGE=1, `apt-get install ./mailroom_*.deb` installs it; the installed mailroom
# answers --version, a send and an inbox in a temporary HOME; its systemd units parse; and it is
# removed again. A mailroom package installed before the test is never replaced or removed: the
# test skips then. package.sh checks the package's contents and lintian without installing it.
. "$(dirname "$0")/common.sh"

deb=${MAILROOM_DEB:-}
[ -n "$deb" ] || skip "no package (make test builds one: make package)"
[ -f "$deb" ] || skip "$deb does not exist (make package)"
# Installing it touches the system: only when asked, and only as root.
[ "${CI:-}" = true ] || [ "${MAILROOM_TEST_PACKAGE:-}" = 1 ] || skip "installing needs CI=true or MAILROOM_TEST_PACKAGE=1"
[ "$(id -u)" -eq 0 ] || skip "installing needs root"
installed_state() { dpkg-query -W -f='${Status}' mailroom 2> /dev/null || true; }
if [ "$(installed_state)" = "install ok installed" ]; then
  skip "mailroom $(dpkg-query -W -f='${Version}' mailroom) is installed already, and it is not this test's to replace"
fi

installed=0
cleanup() {
  if [ "$installed" -eq 1 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq mailroom > /dev/null
  fi
}
trap 'status=$?; cleanup; [ "$status" -eq 0 ] && rm -rf "$t"; exit "$status"' EXIT
installed=1
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$(realpath "$deb")" > "$t/apt.log" 2>&1 ||
  { cat "$t/apt.log" >&2; exit 1; }
[ "$(dpkg-query -W -f='${Version}' mailroom)" = "$(dpkg-deb --field "$deb" Version)" ]

# The installed binary, from a temporary HOME and an empty directory (the user-wide store).
export HOME="$t/pkg-home" XDG_CONFIG_HOME="$t/pkg-home/.config" XDG_DATA_HOME="$t/pkg-home/.local/share"
unset MAILROOM_DB
mkdir -p "$HOME" "$t/pkg-work"
cd "$t/pkg-work"
/usr/bin/mailroom --version | grep -q '^mailroom '
/usr/bin/mailroom init > /dev/null
/usr/bin/mailroom agents add alice bob > /dev/null
/usr/bin/mailroom --as alice send bob -s "from the package" -m "installed with apt-get" > /dev/null
/usr/bin/mailroom --as bob inbox | grep -q 'from the package'
/usr/bin/mailroom-gc-mail --help > /dev/null
man -w mailroom > /dev/null 2>&1 || [ -f /usr/share/man/man1/mailroom.1.gz ]
if command -v systemd-analyze > /dev/null; then
  # The units parse, and name the installed binary (an instance: a directory, escaped).
  instance=$(systemd-escape --path "$t/pkg-work")
  for file in /usr/lib/systemd/user/mailroom-*@.*; do
    unit=$(basename "$file")
    SYSTEMD_LOG_LEVEL=err systemd-analyze verify --man=no "$file:${unit/@./@$instance.}" 2>&1 |
      tee -a "$t/verify.log"
  done
  [ ! -s "$t/verify.log" ]
fi

installed=0
DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq mailroom > /dev/null
[ "$(installed_state)" != "install ok installed" ]
[ ! -e /usr/bin/mailroom ]
