#!/usr/bin/env bash
# The Debian package (make package; make test passes it as $MAILROOM_DEB): it holds what the
# contract lists, its binary is the static release build, and lintian accepts it with nothing but
# the documented static-binary override. package_install.sh installs it.
. "$(dirname "$0")/common.sh"

deb=${MAILROOM_DEB:-}
[ -n "$deb" ] || skip "no package (make test builds one: make package)"
[ -f "$deb" ] || skip "$deb does not exist (make package)"
command -v lintian > /dev/null || skip "no lintian (make deps)"

# What it holds.
contents=$(dpkg-deb --contents "$deb" | awk '{ print ($(NF - 1) == "->") ? $(NF - 2) : $NF }')
for path in ./usr/bin/mailroom ./usr/bin/mailroom-gc-mail ./usr/share/man/man1/mailroom.1.gz \
  ./usr/share/bash-completion/completions/mailroom ./usr/share/zsh/vendor-completions/_mailroom \
  ./usr/share/fish/vendor_completions.d/mailroom.fish ./usr/share/doc/mailroom/copyright \
  ./usr/share/doc/mailroom/changelog.Debian.gz ./usr/share/doc/mailroom/README.md \
  ./usr/share/doc/mailroom/docs/cli.md ./usr/share/lintian/overrides/mailroom \
  ./usr/lib/systemd/user/mailroom-serve@.service ./usr/lib/systemd/user/mailroom-sweep@.service \
  ./usr/lib/systemd/user/mailroom-sweep-pass@.timer ./usr/lib/systemd/user/mailroom-schedules@.service \
  ./usr/lib/systemd/user/mailroom-schedules-pass@.timer; do
  grep -qxF "$path" <<< "$contents" || { echo "the package has no $path" >&2; exit 1; }
done
dpkg-deb --field "$deb" Depends | grep -q . && { echo "a static binary needs no Depends" >&2; exit 1; }
# The binary inside is the static release build.
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/bin/mailroom > "$t/mailroom"
file "$t/mailroom" | grep -q 'statically linked'
chmod +x "$t/mailroom"
"$t/mailroom" --version | grep -q "^mailroom $(dpkg-deb --field "$deb" Version | sed 's/-[^-]*$//') "

# lintian: no error or warning (initial-upload-closes-no-bugs is about uploads to Debian's archive);
# the override for the static binary is the only one used.
report=$(lintian --show-overrides "$deb" 2>&1) || true
if grep -v -E '^(O|N|I|P): |^W: mailroom: initial-upload-closes-no-bugs |^running with root privileges' <<< "$report" |
  grep -q .; then
  echo "$report" >&2
  exit 1
fi
[ "$(grep -c '^O: ' <<< "$report")" -eq 1 ] || { echo "$report" >&2; exit 1; }
grep -q '^O: mailroom: statically-linked-binary ' <<< "$report"
