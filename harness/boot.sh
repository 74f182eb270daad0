#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# harness/boot.sh test|demo|shell [LOG]
# Boot the kernel of build/kbuild with the initramfs in QEMU (x86_64, TCG,
# 4 CPUs for test, 2 otherwise), with the SSDTs of harness/acpi/ giving the
# CPUs deeper C-states.  The console goes to LOG (test) or to the terminal
# (demo, shell).  SMP=N (1 to 4) sets the number of vCPUs, QEMU_ARGS adds
# QEMU options.  GUEST=arm64: the arm64 guest instead (QEMU -M virt, TCG,
# the kernel of build/kbuild-arm64), its idle states in the device tree of
# harness/arm64/dtb.sh.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
kbuild=${KBUILD_DIR:-$build/kbuild}
mode=$1
log=${2:-$build/$mode-console.log}
case $mode in
test)	smp=${SMP:-4} ;;
*)	smp=${SMP:-2} ;;
esac

append="panic=-1 latency_harness=$mode ${KERNEL_ARGS:-}"
case $mode in
test)	;;
*)	append="$append kunit.enable=0 quiet" ;;
esac

case ${GUEST:-x86_64} in
arm64)
	# PSCI through hvc, a GICv2, the PL011 UART as the console.
	machine="-M virt -accel tcg -cpu cortex-a57 -smp $smp -m 1G"
	dtb=$build/arm64/virt-smp$smp.dtb
	mkdir -p "$build/arm64"
	# shellcheck disable=SC2086
	"$top/harness/arm64/dtb.sh" "$dtb" $machine
	kbuild=${KBUILD_DIR:-$build/kbuild-arm64}
	# shellcheck disable=SC2086
	set -- qemu-system-aarch64 $machine -nodefaults -nographic \
		-serial stdio -no-reboot -dtb "$dtb" \
		-kernel "$kbuild/arch/arm64/boot/Image" \
		-initrd "${INITRAMFS:-$build/initramfs-arm64.cpio.gz}" \
		-append "console=ttyAMA0 $append" ${QEMU_ARGS:-}
	;;
*)
	acpi=
	mkdir -p "$build/acpi"
	# An SSDT names each CPU QEMU declares, and no other: built per CPU
	# count, with -D CPU1 ... for the CPUs after the first.
	defs=
	i=1
	while [ "$i" -lt "$smp" ]; do
		defs="$defs -D CPU$i"
		i=$((i + 1))
	done
	for asl in "$top"/harness/acpi/*.asl; do
		[ -f "$asl" ] || continue
		aml=$build/acpi/$(basename "$asl" .asl)-$smp.aml
		if [ ! -f "$aml" ] || [ "$asl" -nt "$aml" ]; then
			# shellcheck disable=SC2086
			iasl $defs -p "${aml%.aml}" "$asl" >"$build/acpi/iasl.log" 2>&1 || {
				cat "$build/acpi/iasl.log" >&2
				exit 1
			}
		fi
		acpi="$acpi -acpitable file=$aml"
	done

	# shellcheck disable=SC2086
	set -- qemu-system-x86_64 -M pc -accel tcg -cpu max -smp "$smp" -m 1G \
		-nodefaults -nographic -serial stdio -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-kernel "$kbuild/arch/x86/boot/bzImage" \
		-initrd "${INITRAMFS:-$build/initramfs.cpio.gz}" $acpi \
		-append "console=ttyS0 $append" ${QEMU_ARGS:-}
	;;
esac

# x86 test and demo: the host presses ACPI's power button through QEMU's monitor
# each time the guest's kernel says it is in the suspend-to-idle loop
# ("PM: suspend-to-idle", a debug message s2idle.sh has printed), until it
# says it resumed: the wake source of s2idle.sh.  QEMU's CMOS RTC raises its
# ACPI event only in S3, never in s2idle.
monitor=
if [ "$mode" != shell ] && [ "${GUEST:-x86_64}" != arm64 ]; then
	mon=$build/qemu-monitor.$$
	rm -f "$mon.in" "$mon.out"
	mkfifo "$mon.in" "$mon.out"
	monitor="-monitor pipe:$mon"
fi

# power_button PID: press for the n-th s2idle until the n-th resume, every
# 3 s, at most 20 times, while PID (QEMU's, or this script's) lives; the
# monitor's answers are thrown away.
power_button() {
	cat "$mon.out" >/dev/null &
	n=0
	tail -n +1 -F --pid="$1" "$log" 2>/dev/null | while IFS= read -r line; do
		case $line in
		*"PM: suspend-to-idle"*)
			n=$((n + 1))
			i=0
			# The message comes before the CPUs idle: a press
			# before s2idle_enter() would end the loop at once.
			sleep 1
			while [ "$i" -lt 20 ] && kill -0 "$1" 2>/dev/null &&
				[ "$(grep -c 'PM: resume from suspend-to-idle' "$log")" -lt "$n" ]; do
				timeout 5 sh -c 'echo system_powerdown >"$1"' sh "$mon.in" || true
				sleep 3
				i=$((i + 1))
			done
			;;
		esac
	done
}

case $mode in
test)
	: >"$log"
	# stdin must be open for -serial stdio, but nothing may be read from it.
	# shellcheck disable=SC2086
	timeout "${BOOT_TIMEOUT:-1200}" "$@" $monitor </dev/null >>"$log" 2>&1 &
	qemu=$!
	[ -z "$monitor" ] || power_button "$qemu" &
	wait "$qemu" || true
	[ -z "$monitor" ] || rm -f "$mon.in" "$mon.out"
	;;
shell)
	exec "$@"
	;;
*)
	: >"$log"
	[ -z "$monitor" ] || power_button "$$" &
	# shellcheck disable=SC2086
	timeout "${BOOT_TIMEOUT:-600}" "$@" $monitor </dev/null 2>&1 | tee -a "$log" |
		sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/\x1b[a-zA-Z]//g' |
		grep -v -e '^latency-harness: done' -e 'reboot: Power down' \
			-e 'SeaBIOS' -e 'Booting from ROM' -e '^iPXE' |
		# What the s2idle demo's debug console level lets through.
		grep -Ev '^\[ *[0-9.]+\] (PM: |ACPI: PM: |Filesystems sync|Freezing |OOM killer|Restarting tasks|random: crng|Timekeeping suspended)' ||
			true
	[ -z "$monitor" ] || rm -f "$mon.in" "$mon.out"
	grep -q '^latency-harness: done' "$log" || {
		echo "boot: the guest did not finish; see $log" >&2
		exit 1
	}
	;;
esac
