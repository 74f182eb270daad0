#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench: boot the test kernel with 2 and then 4 vCPUs and run
# lib/latency_benchmark.c, our registry against CPU latency QoS, then once
# more counting instructions instead of time (QEMU -icount); then count
# the instructions the series adds to each idle entry in cpuidle_enter_state().
# The results go to build/bench-results.txt, and to the terminal at the
# end; a run that gives no table fails.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
kbuild=$build/kbuild
out=$build/bench-results.txt

"$top/harness/install-deps.sh"
"$top/harness/kernel.sh"
"$top/harness/initramfs.sh"

# bench_boot NAME: boot the bench guest (SMP, QEMU_ARGS, KERNEL_ARGS from
# the environment) and print its table; the console is in
# build/bench-NAME-console.log.
bench_boot() {
	log=$build/bench-$1-console.log
	BOOT_TIMEOUT=2400 "$top/harness/boot.sh" bench "$log" >/dev/null 2>&1 ||
		true
	grep -a -e '^cpus' -e '^ *N ' -e '^ *[0-9]' -e '^ipis' "$log" || {
		echo "bench: no result from the $1 run; see $log" >&2
		exit 1
	}
}

{
	echo "# make bench, $(date -u +%Y-%m-%d), Linux $(cat "$kbuild/include/config/kernel.release"),"
	echo "# QEMU $(qemu-system-x86_64 --version | head -n 1 | awk '{print $4}') TCG on $(nproc) host cores."
	echo "# ns per operation; only the ratios (named/6.12, pmqos/6.12) are meaningful under TCG."
	for smp in 2 4; do
		echo
		echo "## $smp vCPUs"
		SMP=$smp bench_boot "$smp"
	done
	# Instructions, not time: under -icount shift=0 QEMU advances the
	# guest's clock by 1 ns per instruction executed, so the same table
	# counts instructions per operation, without the host's noise.  One
	# vCPU, and no wake rows: with -icount QEMU runs vCPUs in turn, and a
	# wait for another CPU would be all such a row measures.
	echo
	echo "## instructions per operation: 1 vCPU, QEMU -icount shift=0 (1 ns = 1 instruction)"
	SMP=1 QEMU_ARGS="-icount shift=0" KERNEL_ARGS="latency_benchmark.wake=0" \
		bench_boot icount
	echo
	echo "# Added work on each idle entry, counted in the instructions of"
	echo "# cpuidle_enter_state() as compiled in this build, against the same"
	echo "# function compiled from the pristine 6.12 source with the same flags."
	"$top/harness/idle-insns.sh" "$kbuild" | sed 's/^/#   /'
} >"$out.new" || {
	cat "$out.new"
	exit 1
}
mv "$out.new" "$out"
cat "$out"
