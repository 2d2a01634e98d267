#!/usr/bin/env bash
# The Debian package on a machine that never built warplint: a fresh Debian 12 root made
# with debootstrap (minbase), the package installed there with `apt-get install
# ./warplint_*.deb` (so apt resolves only the dependencies the package declares), then
# `warplint --version`, `warplint check` on the examples and `warplint occupancy` run
# inside it. Their findings must equal the build tree's own warplint on the same files
# (--mock-cuda --registers-from none: the root has no CUDA toolkit and no nvcc). The
# tarball is unpacked in the same root and its warplint run too. Opt-in (ctest
# package-deb-debootstrap with -DWARPLINT_TEST_DEB_INSTALL=ON): it needs root, the network
# (the Debian archive) and a few minutes. Skips (77) without root or debootstrap.
# usage: deb-install.sh BUILD_DIR SOURCE_DIR WORK_DIR
# WARPLINT_DEBIAN_MIRROR (default http://deb.debian.org/debian) and
# WARPLINT_DEBIAN_SECURITY (default http://deb.debian.org/debian-security) choose the
# archive; every other apt source of this machine that names an LLVM repository
# (apt.llvm.org) is copied into the root with its key.
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) work=$3
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (debootstrap, chroot)"; exit 77; }
command -v debootstrap >/dev/null || { echo "SKIP: debootstrap is not installed"; exit 77; }
mirror=${WARPLINT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${WARPLINT_DEBIAN_SECURITY:-http://deb.debian.org/debian-security}
fail() { echo "FAIL: $*" >&2; exit 1; }
findings() { grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error|note): ' "$1" |
  sed -E 's/(registers not counted): .*/\1/'; }
step() { echo "== $* ($(date -u +%T))"; }

rm -rf "$work" && mkdir -p "$work"
work=$(cd "$work" && pwd)
root=$work/root
mounted=
cleanup() { [ -z "$mounted" ] || umount "$root/proc" 2>/dev/null || true; }
trap cleanup EXIT

step "packages: cpack -G 'DEB;TGZ'"
(cd "$build" && cpack -G "DEB;TGZ" -B "$work/packages" >"$work/cpack.log") ||
  { cat "$work/cpack.log"; fail "cpack failed"; }
deb=$(ls "$work"/packages/warplint_*.deb) tgz=$(ls "$work"/packages/warplint-*.tar.gz)
dpkg-deb -f "$deb" Package Version Architecture Depends Suggests
depends=$(dpkg-deb -f "$deb" Depends)
for dev in llvm-22-dev libclang-22-dev; do
  ! grep -qE "(^|, )$dev( |,|$)" <<<"$depends" || fail "the package depends on $dev"
done

step "debootstrap --variant=minbase bookworm"
t0=$(date +%s)
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
  { tail -20 "$work/debootstrap.log"; fail "debootstrap failed"; }
echo "debootstrap: $(( $(date +%s) - t0 )) s, $(chroot "$root" dpkg-query -W | wc -l) packages"
cat > "$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
EOF
# LLVM repositories of this machine (apt.llvm.org): the sources and their keys.
for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] && grep -qi llvm "$f" || continue
  cp "$f" "$root/etc/apt/sources.list.d/"
  for key in $(grep -oE '(signed-by=|Signed-By: *)[^] ]+' "$f" | sed -E 's/^(signed-by=|Signed-By: *)//'); do
    mkdir -p "$root$(dirname "$key")" && cp "$key" "$root$key"
  done
  echo "copied $f"
done
mount -t proc proc "$root/proc" 2>/dev/null && mounted=1 || true
cp "$deb" "$tgz" "$root/tmp/"
mkdir -p "$root/root/warplint-src"
cp -r "$src/examples" "$root/root/warplint-src/"
before=$(chroot "$root" dpkg-query -W | wc -l)

step "apt-get install ./$(basename "$deb")"
t0=$(date +%s)
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
  DEBIAN_FRONTEND=noninteractive bash -c "$1"; }
in_root "apt-get update -qq && apt-get install -y -qq --no-install-recommends /tmp/$(basename "$deb")" \
  >"$work/apt.log" 2>&1 || { tail -30 "$work/apt.log"; fail "apt-get install of the package failed"; }
after=$(chroot "$root" dpkg-query -W | wc -l)
echo "apt-get install: $(( $(date +%s) - t0 )) s, $((after - before)) packages added" \
  "(the package and its dependencies), $(du -sxm "$root" | cut -f1) MiB root"
for dev in llvm-22-dev libclang-22-dev; do
  ! grep -q installed <<< "$(chroot "$root" dpkg-query -W -f='${Status}' "$dev" 2>/dev/null)" ||
    fail "$dev was installed with the package"
done
in_root "dpkg -L warplint | grep -E '^/usr/(bin|lib)/[^/]*$'"

step "warplint in the root"
in_root "warplint --version" | tee "$work/version.txt"
grep -qE '^warplint [0-9]+\.[0-9]+\.[0-9]+ \(commit [^)]+\)$' "$work/version.txt" ||
  fail "warplint --version says neither the version nor the commit"
cd "$src"
for f in examples/launch_shapes.cu examples/divergence.cu examples/occupancy.cu; do
  rc=0
  in_root "cd /root/warplint-src && warplint check $f" >"$work/root-check.txt" 2>"$work/root-check.err" || rc=$?
  cat "$work/root-check.err" "$work/root-check.txt"
  [ "$rc" -eq 1 ] || fail "warplint check $f in the root exited $rc, expected 1 (findings)"
  rc=0
  "$build/bin/warplint" check --mock-cuda --registers-from none "$f" >"$work/host-check.txt" 2>/dev/null || rc=$?
  [ "$rc" -eq 1 ] || fail "the build's warplint check $f exited $rc"
  # The findings and notes, with the reason registers were not counted left out (the
  # build's warplint was told --registers-from none; the root has no toolkit to run).
  diff <(findings "$work/host-check.txt") <(findings "$work/root-check.txt") ||
    fail "warplint check $f: the installed package's findings differ from the build's"
  echo "$f: $(grep -c ': warning: ' "$work/root-check.txt") warning(s) and" \
    "$(grep -c ': note: ' "$work/root-check.txt") note(s), the same as the build's"
done
occ="occupancy --arch sm_86 --threads 256 --registers 32 --dynamic-smem 40K"
in_root "warplint $occ" | tee "$work/root-occ.txt"
# shellcheck disable=SC2086
"$build/bin/warplint" $occ >"$work/host-occ.txt"
diff "$work/host-occ.txt" "$work/root-occ.txt" || fail "warplint occupancy differs from the build's"

step "the tarball in the same root"
in_root "mkdir -p /opt && tar -C /opt -xzf /tmp/$(basename "$tgz") && ls /opt"
tdir=/opt/$(basename "$tgz" .tar.gz)
in_root "$tdir/bin/warplint --version"
rc=0
in_root "cd /root/warplint-src && $tdir/bin/warplint check examples/divergence.cu" >"$work/tgz-check.txt" 2>/dev/null || rc=$?
[ "$rc" -eq 1 ] || fail "the tarball's warplint check exited $rc, expected 1"
"$build/bin/warplint" check --mock-cuda --registers-from none examples/divergence.cu >"$work/host-check.txt" 2>/dev/null || true
diff <(findings "$work/host-check.txt") <(findings "$work/tgz-check.txt") ||
  fail "the tarball's findings differ from the build's"
echo "PASS: the package installs on a fresh Debian 12 root and warplint runs there"
