#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench: boot the test kernel with 2 and then 4 vCPUs and run
# lib/latency_benchmark.c, our registry against CPU latency QoS, then once
# more counting instructions instead of time (QEMU -icount); then count
# the instructions the series adds to each idle entry in acpi_idle_enter().
# The results go to the terminal and to build/bench-results.txt.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
kbuild=$build/kbuild
out=$build/bench-results.txt

"$top/harness/install-deps.sh"
"$top/harness/kernel.sh"
"$top/harness/initramfs.sh"

{
	echo "# make bench, $(date -u +%Y-%m-%d), Linux $(cat "$kbuild/include/config/kernel.release"),"
	echo "# QEMU $(qemu-system-x86_64 --version | head -n 1 | awk '{print $4}') TCG on $(nproc) host cores."
	echo "# ns per operation; only the ratio ours/pmqos is meaningful under TCG."
	for smp in 2 4; do
		echo
		echo "## $smp vCPUs"
		SMP=$smp BOOT_TIMEOUT=1800 "$top/harness/boot.sh" bench \
			"$build/bench-$smp-console.log" >/dev/null 2>&1 || true
		grep -a -e '^cpus' -e '^ *N ' -e '^ *[0-9]' \
			"$build/bench-$smp-console.log" || {
			echo "bench: no result with $smp vCPUs; see $build/bench-$smp-console.log" >&2
			exit 1
		}
	done
	# Instructions, not time: under -icount shift=0 QEMU advances the
	# guest's clock by 1 ns per instruction executed, so the same table
	# counts instructions per operation, without the host's noise.  One
	# vCPU, and no wake rows: with -icount QEMU runs vCPUs in turn, and a
	# wait for another CPU would be all such a row measures.
	echo
	echo "## instructions per operation: 1 vCPU, QEMU -icount shift=0 (1 ns = 1 instruction)"
	SMP=1 QEMU_ARGS="-icount shift=0" KERNEL_ARGS="latency_benchmark.wake=0" \
		BOOT_TIMEOUT=2400 "$top/harness/boot.sh" bench \
		"$build/bench-icount-console.log" >/dev/null 2>&1 || true
	grep -a -e '^cpus' -e '^ *N ' -e '^ *[0-9]' \
		"$build/bench-icount-console.log" || {
		echo "bench: no result under -icount; see $build/bench-icount-console.log" >&2
		exit 1
	}
	echo
	echo "# Added work on each idle entry, counted in the instructions of"
	echo "# acpi_idle_enter() as compiled in this build, against the same"
	echo "# function compiled from the pristine 6.12 source with the same flags."
	"$top/harness/idle-insns.sh" "$kbuild" | sed 's/^/#   /'
} | tee "$out"
