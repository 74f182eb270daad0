#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench: boot the test kernel with 2 and then 4 vCPUs and run
# lib/latency_benchmark.c, our registry against CPU latency QoS, then once
# more counting instructions instead of time (QEMU -icount); its CPU-count
# axis, timed with 2, 16, 32 and 64 vCPUs (BENCH_AXIS_CPUS) and in
# instructions with one; a read of /proc/latency_constraints in each
# timed boot; then count the instructions the series adds to each idle
# entry in cpuidle_enter_state().
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

# Where pm_qos_lock, which qos.c keeps static, lies from latency_system:
# the benchmark watches it for the 6.12 column of its interrupts-off
# sections.  Both lie in the kernel image, whose upper 32 address bits
# are the same for all of it (KASLR moves it as a whole).
qos_lock=
map=$kbuild/System.map
a=$(awk '$3 == "pm_qos_lock" { print $1; exit }' "$map")
b=$(awk '$3 == "latency_system" { print $1; exit }' "$map")
if [ -n "$a" ] && [ -n "$b" ] &&
   [ "$(echo "$a" | cut -c1-8)" = "$(echo "$b" | cut -c1-8)" ]; then
	qos_lock="latency_benchmark.qos_lock=$((0x$(echo "$a" | cut -c9-16) - 0x$(echo "$b" | cut -c9-16)))"
fi

# cst_args SMP: harness/acpi/cst.asl gives C-states to CPUs 0 to 3 only;
# the QEMU options of an SSDT that gives the same _CST to the others.
cst_args() {
	[ "$1" -gt 4 ] || return 0
	asl=$build/acpi/bench-cst-$1.asl
	{
		echo 'DefinitionBlock ("", "SSDT", 2, "LATNCY", "BENCHCST", 1)'
		echo '{'
		echo '	External (\LCST, MethodObj)'
		i=4
		while [ "$i" -lt "$1" ]; do
			printf '	External (\\_SB.CPUS.C%03X, ProcessorObj)\n' "$i"
			printf '	Scope (\\_SB.CPUS.C%03X) { Method (_CST, 0) { Return (\\LCST ()) } }\n' "$i"
			i=$((i + 1))
		done
		echo '}'
	} >"$asl"
	iasl -p "${asl%.asl}" "$asl" >"$build/acpi/bench-iasl.log" 2>&1 || {
		cat "$build/acpi/bench-iasl.log" >&2
		exit 1
	}
	echo "-acpitable file=${asl%.asl}.aml"
}

# bench_boot NAME [SECONDS]: boot the bench guest (SMP, QEMU_ARGS,
# KERNEL_ARGS from the environment) for at most SECONDS (2400); the console
# is in build/bench-NAME-console.log.  A guest whose benchmark did not end
# fails the run, unless SECONDS is given: then its rows are missing, and
# the results say so.
bench_boot() {
	log=$build/bench-$1-console.log
	start=$(date +%s)
	BOOT_TIMEOUT=${2:-2400} "$top/harness/boot.sh" bench "$log" \
		>/dev/null 2>&1 || true
	if grep -a -q '^done' "$log"; then
		echo "$1: $(($(date +%s) - start)) s" >>"$build/bench-times.new"
	elif [ -n "${2:-}" ]; then
		echo "$1: did not finish in $2 s" >>"$build/bench-times.new"
	else
		echo "bench: no result from the $1 run; see $log" >&2
		exit 1
	fi
}

# lines NAME: the console of a run, without what the BIOS and its
# screen clears leave in front of the guest's first line.
lines() {
	sed 's/.*\x1b\[2J//' "$build/bench-$1-console.log"
}

# table NAME: the table of a run (all but the axis lines).
table() {
	lines "$1" | grep -e '^cpus' -e '^ *N ' -e '^ *[0-9]' -e '^ipis'
}

# axis NAME...: the axis lines of the runs, grouped by operation, in the
# order the benchmark prints them.
axis() {
	for n in "$@"; do
		lines "$n" | grep '^axis'
	done | awk '$3 == "cpus" { print "# " $0; next }
		$2 == "online" { if (!h++) print; next }
		$1 == "axis" && $3 ~ /^[0-9]+$/ {
			if (!($4 in seen)) { seen[$4] = 1; order[++n] = $4 }
			rows[$4] = rows[$4] $0 "\n"; next }
		{ print "# " $0 }
		END { for (i = 1; i <= n; i++) printf "%s", rows[order[i]] }'
}

rm -f "$build/bench-times.new"
SMP=2 KERNEL_ARGS="$qos_lock" bench_boot 2
SMP=4 KERNEL_ARGS="latency_benchmark.rows=table" bench_boot 4
# 64 vCPUs under TCG on a loaded 2-core host can take longer than the
# rest together: BENCH_AXIS_TIMEOUT bounds each of these boots.
# Above 16 vCPUs, C1 only: under TCG, acpi_idle's C2 and C3 are port reads
# that return at once, so that every idle vCPU spins through them, and 32
# or 64 of them on the host's cores do not finish the run (they did not
# in 480 s); those rows find no CPU deep to interrupt.
for smp in ${BENCH_AXIS_CPUS:-16 32 64}; do
	c1=
	[ "$smp" -gt 16 ] && c1=processor.max_cstate=1
	SMP=$smp QEMU_ARGS="$(cst_args "$smp")" \
		KERNEL_ARGS="latency_benchmark.rows=axis $qos_lock $c1" \
		bench_boot "$smp" "${BENCH_AXIS_TIMEOUT:-1200}"
done
# Instructions, not time: under -icount shift=0 QEMU advances the guest's
# clock by 1 ns per instruction executed, so the same table counts
# instructions per operation, without the host's noise.  One vCPU, and no
# wake rows: with -icount QEMU runs vCPUs in turn, and a wait for another
# CPU would be all such a row measures.  The axis in instructions runs
# likewise on one vCPU, each call timed alone (see lib/latency_benchmark.c):
# QEMU 7.2 does not boot this kernel with 2 vCPUs under -icount (an RCU
# stall in slab_late_init(), one vCPU spinning in rwsem_spin_on_owner(),
# with sleep=on or off), and -smp 1,maxcpus=N gives the guest no more
# possible CPUs (its MADT has no hotpluggable entry the kernel accepts).
SMP=1 QEMU_ARGS="-icount shift=0" \
	KERNEL_ARGS="latency_benchmark.rows=table latency_benchmark.wake=0" \
	bench_boot icount
SMP=1 QEMU_ARGS="-icount shift=0" \
	KERNEL_ARGS="latency_benchmark.rows=axis latency_benchmark.percall=1 $qos_lock" \
	bench_boot icount-axis

{
	echo "# make bench, $(date -u +%Y-%m-%d), Linux $(cat "$kbuild/include/config/kernel.release"),"
	echo "# QEMU $(qemu-system-x86_64 --version | head -n 1 | awk '{print $4}') TCG on $(nproc) host cores; seconds per boot:"
	sed 's/^/#   /' "$build/bench-times.new"
	echo "# ns per operation; only the ratios (named/6.12, pmqos/6.12) are meaningful under TCG."
	for smp in 2 4; do
		echo
		echo "## $smp vCPUs"
		table "$smp"
	done
	echo
	echo "## instructions per operation: 1 vCPU, QEMU -icount shift=0 (1 ns = 1 instruction)"
	table icount
	echo
	echo "## CPU-count axis, timed with 2 and ${BENCH_AXIS_CPUS:-16 32 64} vCPUs: ns per call"
	echo "## (noisy under TCG: the trend, not the verdict; no irqoff timed, see below)"
	axis $(for n in 2 ${BENCH_AXIS_CPUS:-16 32 64}; do
		grep -a -q '^done' "$build/bench-$n-console.log" && echo "$n"
	done)
	echo
	echo "## The axis in instructions: QEMU -icount shift=0, 1 vCPU, each call"
	echo "## alone; irqoff: the longest section under the registry's raw lock"
	echo "## (6.12: pm_qos_lock), in instructions"
	axis icount-axis
	echo
	echo "## A read of /proc/latency_constraints (its timer ticks 10 ms: 10000"
	echo "## reads by one process, less 10000 of /dev/null; the bench boots"
	echo "## up to 16 give every CPU C2 and C3, which spin under TCG, above C1)"
	for n in 2 4 ${BENCH_AXIS_CPUS:-16 32 64}; do
		[ -f "$build/bench-$n-console.log" ] && lines "$n" | grep -a '^listing:'
	done
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
