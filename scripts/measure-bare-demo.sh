#!/usr/bin/env bash
# How long `make demo` takes a newcomer on a bare Debian 12 (BENCHMARKS.md, "Build time"):
# debootstrap a minimal bookworm into DIR (once; not timed), then, timed inside it as root,
# install git and make, clone this checkout's HEAD and run `make demo` with no compiler cache.
# Needs root, debootstrap and Debian's mirror. Usage: scripts/measure-bare-demo.sh DIR
set -euo pipefail
dir=${1:?usage: $0 DIR (a directory for the bare system)}
src=$(cd "$(dirname "$0")/.." && pwd)
[[ $EUID -eq 0 ]] || { echo "$0: needs root (debootstrap, chroot, mount)" >&2; exit 2; }
[[ -x $dir/bin/sh ]] || debootstrap --variant=minbase bookworm "$dir" http://deb.debian.org/debian
mkdir -p "$dir/mnt/src"
cleanup() { umount "$dir/mnt/src" 2>/dev/null || true; umount -R "$dir/dev" "$dir/sys" "$dir/proc" 2>/dev/null || true; }
trap cleanup EXIT
mount -t proc proc "$dir/proc"; mount --rbind /sys "$dir/sys"; mount --rbind /dev "$dir/dev"
mount --bind "$src" "$dir/mnt/src"
cp /etc/resolv.conf "$dir/etc/"
rm -rf "$dir/root/mailroom"
chroot "$dir" /bin/sh -ec '
  export DEBIAN_FRONTEND=noninteractive
  start=$(date +%s)
  apt-get update -qq && apt-get install -y -qq git make ca-certificates >/dev/null
  t1=$(date +%s)
  git clone -q /mnt/src /root/mailroom && cd /root/mailroom && git log --oneline -1
  t2=$(date +%s)
  CCACHE_DISABLE=1 make demo >/root/demo.log 2>&1 || { tail -20 /root/demo.log; exit 1; }
  end=$(date +%s)
  echo "git and make: $((t1 - start)) s; make demo: $((end - t2)) s; total: $((end - start)) s"'
