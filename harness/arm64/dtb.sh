#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# harness/arm64/dtb.sh OUT QEMU-MACHINE-OPTIONS...
# The device tree of the arm64 test guest: the one qemu-system-aarch64
# generates for QEMU-MACHINE-OPTIONS (-M virt -cpu ... -smp N -m ...; the
# same as the boot's, with no -kernel: QEMU fills /chosen at boot),
# decompiled, with the idle
# states of idle-states.dtsi and a cpu-idle-states property on every CPU,
# compiled into OUT.  Rebuilt only when OUT is missing or older than this
# script or the .dtsi; boot.sh keeps one per CPU count.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out=$1
shift
if [ -f "$out" ] && [ "$out" -nt "$here/idle-states.dtsi" ] &&
   [ "$out" -nt "$0" ]; then
	exit 0
fi

tmp=$out.tmp
# -machine dumpdtb=FILE, merged with the -M of the arguments: QEMU writes
# the tree of that machine and exits.
qemu-system-aarch64 "$@" -machine dumpdtb="$tmp.qemu.dtb" -display none \
	</dev/null >"$tmp.log" 2>&1 || {
	cat "$tmp.log" >&2
	exit 1
}

dtc -q -I dtb -O dts -o "$tmp.dts" "$tmp.qemu.dtb"
cat "$here/idle-states.dtsi" >>"$tmp.dts"
# Every CPU node QEMU made (cpu@0, cpu@1, ...) gets the state.
cpus=$(sed -n 's/^\t\tcpu@\([0-9a-f]*\) {$/\1/p' "$tmp.dts")
[ -n "$cpus" ] || { echo "dtb: no CPU node in QEMU's tree" >&2; exit 1; }
{
	echo "/ {"
	echo "	cpus {"
	for c in $cpus; do
		echo "		cpu@$c {"
		echo "			cpu-idle-states = <&CPU_RETENTION>;"
		echo "		};"
	done
	echo "	};"
	echo "};"
} >>"$tmp.dts"
dtc -q -I dts -O dtb -o "$tmp.dtb" "$tmp.dts"
mv "$tmp.dtb" "$out"
rm -f "$tmp.qemu.dtb" "$tmp.log" "$tmp.dts"
