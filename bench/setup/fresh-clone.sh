#!/usr/bin/env bash
# The README's two commands on a fresh machine: a Debian 12 root made with debootstrap
# (minbase), a `git clone` of this repository in it, then `scripts/examples.sh` (setup:
# packages and the build without tests, then warplint on examples/) timed, and the packages
# it added counted; then the test extras `scripts/test.sh` installs on top, counted and
# timed (WARPLINT_TEST_INSTALL_ONLY=1: the test build and the tests themselves are not run
# here). Needs root, debootstrap and the Debian archive. docs/install.md has the figures.
# usage: fresh-clone.sh WORK_DIR [JOBS]
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$1 jobs=${2:-2}
mirror=${WARPLINT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${WARPLINT_DEBIAN_SECURITY:-http://deb.debian.org/debian-security}
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 77; }
rm -rf "$work" && mkdir -p "$work" && work=$(cd "$work" && pwd)
root=$work/root
umount "$root/proc" 2>/dev/null || true
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
t0=$(date +%s)
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1
echo "debootstrap: $(( $(date +%s) - t0 )) s"
printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s bookworm-security main\n' \
  "$mirror" "$mirror" "$security" > "$root/etc/apt/sources.list"
mount -t proc proc "$root/proc"
git clone -q "$src" "$root/root/warplint"
echo "clone: $(git -C "$root/root/warplint" log -1 --format='%h %s' | cut -c1-80)"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
  WARPLINT_JOBS="$jobs" bash -c "cd /root/warplint && $1"; }
count() { chroot "$root" dpkg-query -W | wc -l; }

base=$(count)
t0=$(date +%s)
in_root "./scripts/examples.sh" >"$work/examples.log" 2>&1 || { tail -30 "$work/examples.log"; exit 1; }
t1=$(date +%s)
after_setup=$(count)
echo "scripts/examples.sh: $((t1 - t0)) s in all; packages $base -> $after_setup" \
  "(+$((after_setup - base)) with dependencies; 8 named in scripts/setup.sh)"
grep -E '^asked ' "$work/examples.log" || true
in_root "cat build/CMakeCache.txt" | grep -E '^WARPLINT_TESTS:' || true
in_root "du -sh /var/cache/apt/archives /usr/lib/llvm-22 2>/dev/null" || true

t0=$(date +%s)
in_root "WARPLINT_TEST_INSTALL_ONLY=1 ./scripts/test.sh" >"$work/test-install.log" 2>&1 ||
  { tail -30 "$work/test-install.log"; exit 1; }
t1=$(date +%s)
after_test=$(count)
echo "scripts/test.sh (installing only): $((t1 - t0)) s; packages $after_setup -> $after_test" \
  "(+$((after_test - after_setup)) with dependencies)"
