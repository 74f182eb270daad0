#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Pack the guest's initramfs: static busybox, harness/guest/init, the
# in-guest tests of tools/testing/selftests/latency/, the demo snippets and
# the modules of the kernel just built.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
tree=$build/linux-source-6.12
kbuild=${KBUILD_DIR:-$build/kbuild}
root=$build/initramfs
out=${INITRAMFS:-$build/initramfs.cpio.gz}

rm -rf "$root"
mkdir -p "$root/bin" "$root/sbin" "$root/proc" "$root/sys" "$root/dev" \
	"$root/tmp" "$root/selftests" "$root/demo.d" "$root/etc"
cp /bin/busybox "$root/bin/busybox"
cp "$top/harness/guest/init" "$root/init"
echo "root:x:0:0:root:/:/bin/sh" >"$root/etc/passwd"
echo "nobody:x:65534:65534:nobody:/:/bin/false" >>"$root/etc/passwd"
echo "root:x:0:" >"$root/etc/group"
echo "nogroup:x:65534:" >>"$root/etc/group"

st=$tree/tools/testing/selftests/latency
if [ -d "$st" ]; then
	for c in "$st"/*.c; do
		[ -f "$c" ] || continue
		exe=$root/selftests/$(basename "$c" .c)
		gcc -static -O2 -Wall -Werror -I"$tree/tools/testing/selftests" \
			-o "$exe" "$c"
	done
	for s in "$st"/*.sh; do
		[ -f "$s" ] || continue
		install -m 755 "$s" "$root/selftests/"
	done
fi
for s in "$top"/harness/guest/demo.d/*.sh; do
	[ -f "$s" ] && install -m 644 "$s" "$root/demo.d/"
done

if grep -q '^CONFIG_MODULES=y' "$kbuild/.config"; then
	make -s -C "$tree" O="$kbuild" ARCH=x86_64 INSTALL_MOD_PATH="$root" \
		INSTALL_MOD_STRIP=1 DEPMOD=true modules_install >/dev/null
fi

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -1) >"$out"
echo "initramfs: $out ($(du -k "$out" | cut -f1) KiB)"
