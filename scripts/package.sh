#!/usr/bin/env bash
# scripts/package.sh BINARY OUTDIR: builds OUTDIR/mailroom_<version>_<arch>.deb from the fully
# static release binary (make package), then runs lintian on it, which must report nothing but
# the override packaging/deb/lintian-overrides documents. Prints the package's path last.
#
# The version is packaging/deb/changelog's latest entry; its upstream part must be the binary's
# own (`mailroom --version`), so the changelog cannot fall behind a version bump.
set -euo pipefail

bin=$(realpath "${1:?usage: scripts/package.sh <release mailroom binary> <output directory>}")
out=${2:?usage: scripts/package.sh <release mailroom binary> <output directory>}
root=$(cd "$(dirname "$0")/.." && pwd)
src=$root/packaging/deb

die() { echo "package: $*" >&2; exit 1; }

version=$(sed -n '1s/^mailroom (\([^)]*\)).*/\1/p' "$src/changelog")
[ -n "$version" ] || die "packaging/deb/changelog: no version on its first line"
binary_version=$("$bin" --version | sed -n '1s/^mailroom \([^ ]*\).*/\1/p')
[ "${version%-*}" = "$binary_version" ] ||
  die "packaging/deb/changelog is at $version but the binary is $binary_version: add a changelog entry"
file "$bin" | grep -q 'statically linked' || die "$bin is not statically linked (make release builds it so)"
arch=$(dpkg --print-architecture)

stage=$out/stage
rm -rf "$stage"
mkdir -p "$stage/DEBIAN"
umask 022

# The binary, its man page and completions, laid out by `make install` for /usr.
make -s -C "$root" install MAILROOM_BIN="$bin" DESTDIR="$stage" PREFIX=/usr \
  ZSHCOMPDIR=/usr/share/zsh/vendor-completions > /dev/null
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/mailroom"
gzip -9n "$stage/usr/share/man/man1/mailroom.1"
ln -s mailroom.1.gz "$stage/usr/share/man/man1/mailroom-gc-mail.1.gz"

doc=$stage/usr/share/doc/mailroom
install -d "$doc/docs"
install -m 0644 "$root/README.md" "$root/BENCHMARKS.md" "$doc/"
install -m 0644 "$root"/docs/*.md "$root/docs/dashboard.png" "$doc/docs/"
install -m 0644 "$src/copyright" "$doc/copyright"
gzip -9n < "$src/changelog" > "$doc/changelog.Debian.gz"

install -d "$stage/usr/lib/systemd/user" "$stage/usr/share/lintian/overrides"
install -m 0644 "$src"/systemd/* "$stage/usr/lib/systemd/user/"
install -m 0644 "$src/lintian-overrides" "$stage/usr/share/lintian/overrides/mailroom"

# Every file dated by the last commit, so the same tree builds the same package.
epoch=$(git -C "$root" log -1 --format=%ct 2> /dev/null || date +%s)
find "$stage" -exec touch -h -d "@$epoch" {} +

# Built-Using: the source packages whose licenses ask that their source be offered beside a
# binary that contains them (glibc's and Nettle's LGPL; debian/copyright lists everything linked in).
built_using=$(dpkg-query -W -f='${source:Package} (= ${source:Version}), ' libc6-dev nettle-dev)
built_using=${built_using%, }
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" \
    -e "s/@BUILT_USING@/$built_using/" "$src/control.in" > "$stage/DEBIAN/control"
(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"

deb=$out/mailroom_${version}_${arch}.deb
SOURCE_DATE_EPOCH=$epoch dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" > /dev/null

# lintian: any error or warning fails the build, but initial-upload-closes-no-bugs, which is about
# uploads to Debian's archive (this package is not one). The static-binary override is shown, so a
# renamed tag (an unused override) is noticed too. (--suppress-tags would not do: with
# --show-overrides, lintian 2.116 still fails on the suppressed tag.)
report=$(lintian --show-overrides --tag-display-limit 0 "$deb" 2>&1) || true
if grep -v -E '^(O|N|I|P): |^W: mailroom: initial-upload-closes-no-bugs |^running with root privileges' <<< "$report" |
  grep -q .; then
  echo "$report" >&2
  die "lintian reported more than the override for $deb"
fi
grep -q 'O: mailroom: statically-linked-binary' <<< "$report" ||
  die "lintian no longer reports statically-linked-binary: update packaging/deb/lintian-overrides"
echo "$deb"
