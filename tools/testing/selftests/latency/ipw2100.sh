#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# ipw2100 and the latency registry, without the hardware.
#
# Loading and unloading ipw2100 with no adapter present (probe never runs)
# must leave the latency registry exactly as it was: the driver holds a
# constraint per adapter, never one per module.  Then, when it is built as
# a module, load the KUnit suite ipw2100_latency (fake adapters driving the
# driver's hold logic) and report each of its cases as a result.
#
# KTAP output through kselftest/ktap_helpers.sh; the plan comes last
# because the number of KUnit cases is only known once the suite has run.
# Skips as a whole when ipw2100 is not a module.

DIR=$(dirname "$(readlink -f "$0")")
# shellcheck source=/dev/null
. "$DIR/../kselftest/ktap_helpers.sh"

SUITE=ipw2100_latency

# Print what the registry holds: the full list if the kernel has it,
# else the system value.  Fails when neither interface exists.
registry() {
	if [ -r /proc/latency_constraints ]; then
		cat /proc/latency_constraints
	elif [ -e /dev/acceptable_latency ]; then
		cat /dev/acceptable_latency 2>/dev/null ||
			{ exec 4<>/dev/acceptable_latency && read -r v <&4 &&
			  exec 4<&- && echo "system $v"; }
	else
		return 1
	fi
}

registry_unchanged() {
	[ "$(registry)" = "$before" ]
}

# Run a command with the console quiet, so that the KTAP lines a KUnit
# module prints are not mixed into our KTAP output on a serial console.
quiet_console() {
	saved=$(awk '{ print $1 }' /proc/sys/kernel/printk 2>/dev/null)
	[ -n "$saved" ] && echo 1 >/proc/sys/kernel/printk
	"$@"
	rc=$?
	[ -n "$saved" ] && echo "$saved" >/proc/sys/kernel/printk
	return $rc
}

# Print the last KTAP block of the suite, from "# Subtest:" to its result.
kunit_results() {
	r=/sys/kernel/debug/kunit/$SUITE/results
	if [ -r "$r" ]; then
		cat "$r"
	else
		dmesg | sed 's/^\[[^]]*\] \{0,1\}//'
	fi | awk -v s="$SUITE" '
		$0 ~ "^    # Subtest: " s "$" { buf = ""; on = 1 }
		on { buf = buf $0 "\n" }
		on && $0 ~ "^(not )?ok [0-9]+ " s "( |$)" { last = buf; on = 0 }
		END { printf "%s", last }'
}

suite_passed() {
	echo "$results" | grep -q "^ok [0-9]* $SUITE\( \|$\)"
}

# has_module NAME: NAME.ko is installed for the running kernel
has_module() {
	[ -n "$(find "/lib/modules/$(uname -r)" -name "$1.ko*" 2>/dev/null)" ]
}

# The registry must read as it did at the start, if it can be read at all.
check_registry() {	# check_registry WHEN
	if [ "$have_registry" -eq 0 ]; then
		ktap_test_result "registry unchanged $1" registry_unchanged
	else
		ktap_print_msg "no /proc/latency_constraints nor /dev/acceptable_latency"
		ktap_test_skip "registry unchanged $1"
	fi
}

# The plan, last: as many results as were printed.
finish() {
	ktap_set_plan "$((KTAP_TESTNO - 1))"
	ktap_finished
}

ktap_print_header

if ! has_module ipw2100; then
	ktap_skip_all "ipw2100 is not built as a module"
	exit "$KSFT_SKIP"
fi

before=$(registry)
have_registry=$?

# A previous run, or the guest's boot, may have loaded it already.
rmmod ipw2100_kunit 2>/dev/null
rmmod ipw2100 2>/dev/null

ktap_test_result "modprobe ipw2100 with no adapter" modprobe ipw2100
check_registry "after load"

ktap_test_result "rmmod ipw2100" rmmod ipw2100
check_registry "after unload"

if ! has_module ipw2100_kunit; then
	ktap_print_msg "CONFIG_IPW2100_KUNIT_TEST is not m"
	ktap_test_skip "KUnit suite $SUITE"
	finish
fi

ktap_test_result "modprobe ipw2100_kunit" quiet_console modprobe ipw2100_kunit

results=$(kunit_results)
if [ -z "$results" ]; then
	ktap_test_fail "KUnit suite $SUITE printed no results"
else
	# One result per KUnit case: "    ok 3 name # SKIP why".  Read from a
	# file, not a pipe: the loop must run in this shell, which counts.
	echo "$results" |
		sed -n 's/^    \(\(not \)\{0,1\}ok\) [0-9]* /\1 /p' \
		>/tmp/ipw2100_kunit.$$
	while read -r status rest; do
		case $status:$rest in
		ok:*" # SKIP"*)
			printf '# kunit: %s\n' "$rest"
			ktap_test_skip "kunit: ${rest%% # SKIP*}"
			;;
		ok:*)	ktap_test_pass "kunit: $rest" ;;
		*)	ktap_test_fail "kunit: ${rest#ok }" ;;
		esac
	done </tmp/ipw2100_kunit.$$
	rm -f /tmp/ipw2100_kunit.$$
	ktap_test_result "KUnit suite $SUITE" suite_passed
fi

rmmod ipw2100_kunit 2>/dev/null
ktap_test_result "rmmod ipw2100 after the KUnit suite" rmmod ipw2100
check_registry "after the KUnit suite"
finish
