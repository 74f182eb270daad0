#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Pack the guest's initramfs: static busybox, harness/guest/init, the
# kselftest install of tools/testing/selftests/latency/, the demo snippets
# and the modules of the kernel just built.  The runner lists the programs
# of harness/guest/programs.  GUEST=arm64: for the arm64 guest, with
# Debian's arm64 busybox (install-deps.sh), the selftests cross-built and
# the programs of harness/arm64/programs.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
tree=$build/linux-source-6.12
kbuild=${KBUILD_DIR:-$build/kbuild}
root=$build/initramfs
out=${INITRAMFS:-$build/initramfs.cpio.gz}
busybox=/bin/busybox
kselftest=$build/kselftest
programs=$top/harness/guest/programs
set --
if [ "${GUEST:-}" = arm64 ]; then
	kbuild=${KBUILD_DIR:-$build/kbuild-arm64}
	out=${INITRAMFS:-$build/initramfs-arm64.cpio.gz}
	root=$build/initramfs-arm64
	busybox=$build/arm64/busybox
	kselftest=$build/kselftest-arm64
	programs=$top/harness/arm64/programs
	set -- ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
fi

rm -rf "$root"
mkdir -p "$root/bin" "$root/sbin" "$root/proc" "$root/sys" "$root/dev" \
	"$root/tmp" "$root/demo.d" "$root/etc"
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$top/harness/guest/init" "$root/init"
echo "root:x:0:0:root:/:/bin/sh" >"$root/etc/passwd"
echo "nobody:x:65534:65534:nobody:/:/bin/false" >>"$root/etc/passwd"
echo "root:x:0:" >"$root/etc/group"
echo "nogroup:x:65534:" >>"$root/etc/group"

# The selftests as the kselftest install lays them out, run in the guest
# by its run_kselftest.sh: /kselftest/run_kselftest.sh, latency/, and the
# runner's helpers in kselftest/.
make -s -C "$tree/tools/testing/selftests" TARGETS=latency "$@" \
	O="$kselftest" KSFT_INSTALL_PATH="$root/kselftest" install >/dev/null
# The runner's list (kselftest-list.txt, "latency:NAME" lines) keeps the
# programs of this guest; the others stay installed, for "-t latency:NAME"
# in make shell.  A program no guest runs, or a name no program has, is
# an error.
list=$root/kselftest/kselftest-list.txt
names() { grep -hv '^#' "$@" | grep . | sed 's/^/latency:/'; }
while read -r p; do
	names "$top/harness/guest/programs" "$top/harness/arm64/programs" |
		grep -qx "$p" || {
		echo "initramfs: ${p#latency:} is in no guest's programs (harness/*/programs)" >&2
		exit 1
	}
done <"$list"
names "$programs" >"$list.new"
while read -r p; do
	grep -qx "$p" "$list" || {
		echo "initramfs: $programs: no ${p#latency:} in the selftests" >&2
		exit 1
	}
done <"$list.new"
mv "$list.new" "$list"
# The runner calls /usr/bin/timeout --foreground, which busybox lacks.
mkdir -p "$root/usr/bin"
install -m 755 "$top/harness/guest/timeout" "$root/usr/bin/timeout"

for s in "$top"/harness/guest/demo.d/*.sh; do
	[ -f "$s" ] && install -m 644 "$s" "$root/demo.d/"
done

if grep -q '^CONFIG_MODULES=y' "$kbuild/.config"; then
	make -s -C "$tree" O="$kbuild" ARCH=x86_64 INSTALL_MOD_PATH="$root" \
		INSTALL_MOD_STRIP=1 DEPMOD=true modules_install >/dev/null
fi

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -1) >"$out"
echo "initramfs: $out ($(du -k "$out" | cut -f1) KiB)"
