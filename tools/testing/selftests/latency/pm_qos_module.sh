#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A kernel user of the CPU latency QoS is a holder like any other.
#
# The module test_latency_qos (lib/test_latency_qos.c) holds one
# cpu_latency_qos_add_request() of "usecs" while loaded.
# /proc/latency_constraints must list it by the function and module that
# added it, the system value and the limit of /dev/cpu_dma_latency and of
# /proc/acpi/processor/*/power must follow it (a kernel with ACPI processor
# support and no power file fails; one without skips that check), and
# unloading must release it; an invalid value must be refused and leave
# nothing behind.  A write of the module's parameter usecs updates the
# request (as a driver's cpu_latency_qos_update_request()); an invalid one
# is refused and changes nothing.
#
# KTAP output through kselftest/ktap_helpers.sh; skips as a whole when the
# module is not installed.  ktap_test_result runs its command word-split,
# so each check is a function of no argument.

DIR=$(dirname "$(readlink -f "$0")")
# shellcheck source=/dev/null
. "$DIR/../kselftest/ktap_helpers.sh"

MOD=test_latency_qos
NAME="pm_qos:test_latency_qos_hold\\[$MOD\\]"
LIST=/proc/latency_constraints
# Below the built-in "kernel" holder and anything the guest holds.
USECS=77
USECS2=66
PARAM=/sys/module/$MOD/parameters/usecs

has_module() {
	[ -n "$(find "/lib/modules/$(uname -r)" -name "$1.ko*" 2>/dev/null)" ]
}

# The limit /dev/cpu_dma_latency reads: 4 bytes, a host-endian s32.
qos_limit() {
	od -An -t d4 -N 4 /dev/cpu_dma_latency | tr -d ' '
}

listed() { grep -q "^$NAME $USECS all - -\$" $LIST; }
sets_system() { grep -q "^# system $USECS $NAME\$" $LIST; }
qos_follows() { [ "$(qos_limit)" = "$USECS" ]; }
power_follows() {
	files=$(ls /proc/acpi/processor/*/power 2>/dev/null)
	if [ -z "$files" ]; then
		ktap_print_msg "no /proc/acpi/processor/*/power"
		return 1
	fi
	# shellcheck disable=SC2086
	[ "$(sed -n 's/^maximum allowed latency: \([0-9]*\) usec$/\1/p' $files |
		sort -u)" = "$USECS" ]
}
# A write of usecs: the listing and /dev/cpu_dma_latency follow it.
write_follows() {
	echo $USECS2 >$PARAM &&
		grep -q "^$NAME $USECS2 all - -\$" $LIST &&
		[ "$(qos_limit)" = "$USECS2" ]
}
write_refused() {
	! (echo -5 >$PARAM) 2>/dev/null &&
		[ "$(cat $PARAM)" = "$USECS2" ] &&
		grep -q "^$NAME $USECS2 all - -\$" $LIST
}
released() { ! grep -q "^$NAME " $LIST && [ "$(cat $LIST)" = "$before" ]; }
bad_refused() { ! modprobe $MOD usecs=-5 2>/dev/null; }
bad_leaves_nothing() { [ "$(cat $LIST)" = "$before" ]; }
# Added from the module's __init code, whose text and symbols are gone
# once it is loaded: "pm_qos:[-]", never an address (KASLR).
INIT_NAME="pm_qos:\\[-\\]"
init_named() { grep -q "^$INIT_NAME $USECS all - -\$" $LIST; }
no_address() { ! grep -q "^pm_qos:0x" $LIST; }

ktap_print_header

if ! has_module $MOD; then
	ktap_skip_all "$MOD is not a module of this kernel"
	exit "$KSFT_SKIP"
fi
if [ ! -r $LIST ]; then
	ktap_skip_all "no $LIST"
	exit "$KSFT_SKIP"
fi

ktap_set_plan 13

rmmod $MOD 2>/dev/null
before=$(cat $LIST)
ktap_test_result "modprobe $MOD usecs=$USECS" modprobe $MOD usecs=$USECS
sed 's/^/# /' $LIST
ktap_test_result "listed by the function and module that added it" listed
ktap_test_result "it sets the system value" sets_system
ktap_test_result "/dev/cpu_dma_latency reads $USECS" qos_follows
if [ -d /proc/acpi/processor ]; then
	ktap_test_result "every power file shows $USECS usec" power_follows
else
	ktap_print_msg "no /proc/acpi/processor (CONFIG_ACPI_PROCESSOR is not set)"
	ktap_test_skip "every power file shows $USECS usec"
fi
ktap_test_result "a write of usecs ($USECS2) updates the request" write_follows
ktap_test_result "a write of an invalid value (-5) is refused, the request kept" \
	write_refused
rmmod $MOD
ktap_test_result "rmmod releases it, the listing is as before" released
ktap_test_result "an invalid value (-5) is refused" bad_refused
ktap_test_result "... and leaves nothing behind" bad_leaves_nothing
ktap_test_result "modprobe $MOD from_init=1" modprobe $MOD usecs=$USECS from_init=1
sed 's/^/# /' $LIST
ktap_test_result "added from __init: listed as pm_qos:[-]" init_named
ktap_test_result "no holder is listed by its address" no_address
rmmod $MOD
ktap_finished
