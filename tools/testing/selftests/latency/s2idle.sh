#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Suspend-to-idle honours the system wakeup latency limit of
# /dev/cpu_wakeup_latency, and only that one: the guest really suspends to
# idle ("freeze"), and the s2idle usage
# counters of the cpuidle states (cpuN/cpuidle/stateM/s2idle/usage, which
# exist for the states that have ->enter_s2idle: acpi_idle's C2 and C3) say
# which states were entered.
#
#   - with no holder, s2idle enters the deepest state (C3 of cst.asl, 200 us);
#   - with a holder of $HOLD us, below C3's exit latency, it never enters C3,
#     and enters C2; the listing names the holder, with its opener, and the
#     power files show the limit;
#   - a runtime holder alone (/dev/cpu_dma_latency) leaves s2idle as deep
#     as it goes;
#   - /dev/cpu_wakeup_latency has the rules of 6.19: a 4-byte binary s32 or
#     a hex string, a negative value refused, a read gives the limit as an
#     s32, closing releases.
#
# The wake source: in the harness's QEMU guest (latency_harness= on the
# command line) ACPI's power button, which the host presses when the
# console says "PM: suspend-to-idle" (harness/boot.sh; QEMU's CMOS RTC
# raises its ACPI event only in S3); elsewhere an RTC alarm 2 s later.  For
# that message the script turns on the PM debug messages, the debug console
# level and the console during suspend, and restores them after.
#
# Needs CONFIG_SUSPEND, CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP, a wake source, and
# for the power button CONFIG_PM_DEBUG; without them the results are skipped.
#
# KTAP output through kselftest/ktap_helpers.sh.

DIR=$(dirname "$(readlink -f "$0")")
# shellcheck source=/dev/null
. "$DIR/../kselftest/ktap_helpers.sh"

DEV=/dev/cpu_wakeup_latency
QOS_DEV=/dev/cpu_dma_latency
RTC=/sys/class/rtc/rtc0
PM_DBG=/sys/power/pm_debug_messages
CON_SUSPEND=/sys/module/printk/parameters/console_suspend
HOLD=100		# usecs: between C2 (20) and C3 (200) of cst.asl
NTESTS=10

# "cpu:state:s2idle_usage" for every state with s2idle counters, one a word.
s2idle_counters() {
	for u in /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state*/s2idle/usage; do
		[ -f "$u" ] || continue
		s=${u%/s2idle/usage}
		c=${s%/cpuidle/*}
		printf '%s:%s:%s ' "${c##*/cpu}" "$(cat "$s/name")" "$(cat "$u")"
	done
}

# The states whose s2idle usage moved from "$1" to "$2", as "cpu:name".
moved_states() {
	for a in $2; do
		case " $1 " in
		*" $a "*) ;;
		*) printf '%s ' "${a%:*}" ;;
		esac
	done
}

# Suspend to idle once; $entered: the states entered, $rc: whether the
# suspend returned 0.
suspend_once() {
	before=$(s2idle_counters)
	if [ -z "$BUTTON" ]; then
		echo 0 >"$RTC/wakealarm"
		echo +2 >"$RTC/wakealarm"
	fi
	if [ -n "$BUTTON" ]; then
		dbg=$(cat "$PM_DBG")
		cs=$(cat "$CON_SUSPEND")
		lvl=$(cut -f1 /proc/sys/kernel/printk)
		echo 1 >"$PM_DBG"
		echo N >"$CON_SUSPEND"
		echo 8 >/proc/sys/kernel/printk
	fi
	echo freeze >/sys/power/state
	rc=$?
	if [ -n "$BUTTON" ]; then
		echo "$lvl" >/proc/sys/kernel/printk
		echo "$cs" >"$CON_SUSPEND"
		echo "$dbg" >"$PM_DBG"
	fi
	entered=$(moved_states "$before" "$(s2idle_counters)")
}

# The name of the deepest state (highest index) of CPU 0 with s2idle.
deepest_s2idle() {
	for s in /sys/devices/system/cpu/cpu0/cpuidle/state*; do
		[ -d "$s/s2idle" ] && n=$(cat "$s/name")
	done
	echo "$n"
}

entered_deepest() {
	[ "$rc" -eq 0 ] && case " $entered " in *":$DEEPEST "*) true ;; *) false ;; esac
}
not_deepest() {
	[ "$rc" -eq 0 ] && [ -n "$entered" ] &&
		case " $entered " in *":$DEEPEST "*) false ;; *) true ;; esac
}
listed() { [ -n "$holder" ] && [ "$s2line" = "# s2idle $HOLD $holder" ]; }
power_shows() { [ "$pl" = "$HOLD " ]; }
read_gives() { [ "$got" = "$1" ]; }
read_hold() { read_gives "$HOLD"; }
read_none() { read_gives 2147483647; }
refused() { [ "$wrc" -ne 0 ] && [ "$after" = "$HOLD" ]; }

# The limit as a read of $DEV gives it: an s32 in the machine's order.
read_limit() {
	dd if="$DEV" bs=4 count=1 2>/dev/null | od -An -td4 | tr -d ' '
}

skip_all() {
	ktap_print_msg "$1"
	while [ "$KTAP_TESTNO" -le "$NTESTS" ]; do
		ktap_test_skip "$1"
	done
	ktap_finished
}

ktap_print_header
ktap_set_plan $NTESTS

[ -c "$DEV" ] || skip_all "no $DEV (CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP)"

# 1-3: the device alone.
exec 3>"$DEV"
printf '\144\000\000\000' >&3		# 100, binary, little-endian
got=$(read_limit)
ktap_test_result "$DEV: a binary write holds its value (read: $got)" read_hold
printf '\377\377\377\377' >&3 2>/dev/null	# -1
wrc=$?
after=$(read_limit)
ktap_test_result "$DEV: a negative value is refused, the limit kept ($after)" refused
exec 3>&-
got=$(read_limit)
ktap_test_result "$DEV: closing releases it (read: $got)" read_none

grep -qw freeze /sys/power/state 2>/dev/null ||
	skip_all "no suspend-to-idle (freeze) in /sys/power/state"
# The power button in the harness's guest, where no RTC alarm ends s2idle;
# elsewhere the RTC alarm.
BUTTON=
if grep -qw 'latency_harness=[a-z]*' /proc/cmdline; then
	[ -w "$PM_DBG" ] || skip_all "no $PM_DBG (CONFIG_PM_DEBUG) for the power button"
	BUTTON=1
elif [ ! -w "$RTC/wakealarm" ]; then
	skip_all "no wake source: no RTC alarm at $RTC/wakealarm"
fi
DEEPEST=$(deepest_s2idle)
[ -n "$DEEPEST" ] || skip_all "no cpuidle state with s2idle counters"
ktap_print_msg "deepest s2idle state: $DEEPEST; counters: $(s2idle_counters)"

# 4
suspend_once
ktap_test_result "s2idle with no wakeup holder enters $DEEPEST (rc $rc; entered: $entered)" \
	entered_deepest

# 5-8: a holder of $HOLD us, as hex text.
exec 3>"$DEV"
printf '0x%08x' "$HOLD" >&3
holder=$(awk -v p=$$ -v v="$HOLD" \
	'$1 == "#" && $2 == "wakeup" && $4 == v && $5 == "all" && $6 == p { print $3 }' \
	/proc/latency_constraints)
s2line=$(grep '^# s2idle ' /proc/latency_constraints)
# No '#' in a description: KTAP would read a directive.
ktap_test_result \
	"the listing names the holder (${holder:-none}) and the s2idle limit (${s2line#"# "})" \
	listed
pl=$(cat /proc/acpi/processor/*/power 2>/dev/null |
	sed -n 's/^s2idle latency limit:    \([0-9]*\) usec$/\1/p' | sort -u | tr '\n' ' ')
ktap_test_result "power files show the s2idle limit ($pl)" power_shows
suspend_once
ktap_test_result "s2idle under $HOLD us does not enter $DEEPEST (rc $rc; entered: $entered)" \
	not_deepest
exec 3>&-
got=$(read_limit)
ktap_test_result "$DEV: released after the suspend (read: $got)" read_none

# 9: a runtime holder alone leaves s2idle as deep as it goes.
exec 4>"$QOS_DEV"
printf '%08x' "$HOLD" >&4
suspend_once
exec 4>&-
ktap_test_result \
	"s2idle under a $QOS_DEV holder alone enters $DEEPEST (rc $rc; entered: $entered)" \
	entered_deepest

# 10: and once more with nothing held.
suspend_once
ktap_test_result "s2idle enters $DEEPEST again (rc $rc; entered: $entered)" entered_deepest
ktap_finished
