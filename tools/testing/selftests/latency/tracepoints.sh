#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The latency_add, latency_update and latency_remove trace events name the
# holder, its old and new value and the resulting system value;
# latency_idle_wake shows which idle CPUs a change of the system value
# interrupted: none for a change that crosses no idle state's exit latency.
# A holder given a CPU set ("150 cpus=1") is removed and added with it, the
# events carrying the set (a CPU list), the system value unchanged.
# A holder of /dev/cpu_dma_latency fires 6.12's pm_qos_add_request,
# pm_qos_update_request and pm_qos_remove_request events, as cyclictest
# under "trace-cmd record -e power:pm_qos_*" expects, and as in 6.12 a
# write of the value it already holds fires pm_qos_update_request alone,
# no pm_qos_update_target.
#
# KTAP output through kselftest/ktap_helpers.sh; skips as a whole without
# the latency trace events.  ktap_test_result runs its command word-split,
# so each check is a function of no argument.

DIR=$(dirname "$(readlink -f "$0")")
# shellcheck source=/dev/null
. "$DIR/../kselftest/ktap_helpers.sh"

T=/sys/kernel/tracing
DEV=/dev/acceptable_latency

# traced PATTERN: the trace has a line that PATTERN (a basic regex) matches
traced() {
	echo "$trace" | grep -q "$*"
}

# The checks, on $trace, $id (the holder) and $base (the system value).
add_names_holder() { [ -n "$id" ]; }
add_seen() {
	traced "latency_add: identifier=$id old_usecs=1000000 usecs=1000000 cpus=all system=$base\$"
}
update_to_150_seen() {
	traced "latency_update: identifier=$id old_usecs=1000000 usecs=150 cpus=all system=150\$"
}
update_to_120_seen() {
	traced "latency_update: identifier=$id old_usecs=150 usecs=120 cpus=all system=120\$"
}
remove_seen() {
	traced "latency_remove: identifier=$id old_usecs=120 usecs=1000000 cpus=all system=$base\$"
}
four_events() { [ "$cnt" -eq 4 ]; }
# The guest's states: C1 1 us, C2 20 us, C3 200 us.  From $base to 150 us
# forbids C3: the writer waits for the CPUs in it (at most the others).
wake_tighten_seen() {
	traced "latency_idle_wake: old=$base new=150 deep=[0-$others] shallow=0 wait=1\$"
}
# 150 -> 120 us crosses no state: no CPU can be in C3, none is woken.
wake_none_seen() {
	traced "latency_idle_wake: old=150 new=120 deep=0 shallow=0 wait=1\$"
}
# 120 us -> $base on close allows C3 again: no CPU too deep, no waiting.
wake_relax_seen() {
	traced "latency_idle_wake: old=120 new=$base deep=0 shallow=[0-$others] wait=0\$"
}

ktap_print_header

if [ ! -d $T/events/latency ]; then
	ktap_skip_all "no $T/events/latency"
	exit "$KSFT_SKIP"
fi

ktap_set_plan 17

others=$(($(grep -c '^processor' /proc/cpuinfo) - 1))

base=$(cat $DEV)
echo 0 >$T/tracing_on
echo >$T/trace
echo 1 >$T/events/latency/enable
for e in add_request update_request remove_request update_target; do
	echo 1 >$T/events/power/pm_qos_$e/enable 2>/dev/null
done
echo 1 >$T/tracing_on

exec 3>$DEV
echo 150 >&3
echo 120 >&3
exec 3>&-
if [ "$others" -gt 0 ]; then
	exec 4>$DEV
	echo 150 cpus=1 >&4
	exec 4>&-
fi

# 77 as a binary s32, as cyclictest and tuned write it; twice.
exec 5>/dev/cpu_dma_latency
printf '\115\000\000\000' >&5
printf '\115\000\000\000' >&5
exec 5>&-

# A holder of the system wakeup class, 300 us as hex text, then closed.
if [ -c /dev/cpu_wakeup_latency ]; then
	exec 6>/dev/cpu_wakeup_latency
	printf '0x12c' >&6
	exec 6>&-
fi

echo 0 >$T/tracing_on
echo 0 >$T/events/latency/enable
for e in add_request update_request remove_request update_target; do
	echo 0 >$T/events/power/pm_qos_$e/enable 2>/dev/null
done
trace=$(grep -v '^#' $T/trace)
echo "$trace" | sed 's/^/# /'

id=$(echo "$trace" |
	sed -n 's/.*latency_add: identifier=\(user:[0-9a-f]*\) .*/\1/p' |
	head -n 1)
id2=$(echo "$trace" |
	sed -n 's/.*latency_add: identifier=\(user:[0-9a-f]*\) .*/\1/p' |
	sed -n 2p)
cnt=$(echo "$trace" | grep -c "identifier=$id ")

# The holder for CPU 1: all CPUs at open, then removed and added for CPU 1
# (the CPU list "1", as the listing prints it), removed on close; the
# system value stays $base throughout.
cpus_set_seen() {
	traced "latency_remove: identifier=$id2 old_usecs=1000000 usecs=1000000" \
		"cpus=all system=$base\$" &&
		traced "latency_add: identifier=$id2 old_usecs=1000000 usecs=150" \
			"cpus=1 system=$base\$"
}
cpus_remove_seen() {
	traced "latency_remove: identifier=$id2 old_usecs=150 usecs=1000000 cpus=1 system=$base\$"
}
# CPU 1's limit goes to 150 us: at most CPU 1 is interrupted, the system
# value stays.
cpus_wake_seen() {
	traced "latency_idle_wake: old=$base new=$base deep=[01] shallow=0 wait=1\$"
}

qos_add_seen() { traced "pm_qos_add_request: CPU_DMA_LATENCY value=-1\$"; }
qos_update_seen() { traced "pm_qos_update_request: CPU_DMA_LATENCY value=77\$"; }
# Two writes of 77, one change: the second returns early, as in 6.12.
qos_same_value_once() {
	[ "$(echo "$trace" |
		grep -c "pm_qos_update_request: CPU_DMA_LATENCY value=77\$")" -eq 2 ] &&
		[ "$(echo "$trace" | grep -c \
			"pm_qos_update_target: action=UPDATE_REQ .*curr_value=77\$")" -eq 1 ]
}
qos_remove_seen() { traced "pm_qos_remove_request: CPU_DMA_LATENCY value=-1\$"; }
# The wakeup holder: added with no constraint, 300 us, removed, each one
# latency_wakeup event with the wakeup limit as system.
wakeup_seen() {
	w='latency_wakeup: identifier=user:[0-9a-f]*'
	traced "$w old_usecs=2147483647 usecs=2147483647 cpus=all system=2147483647\$" &&
		traced "$w old_usecs=2147483647 usecs=300 cpus=all system=300\$" &&
		traced "$w old_usecs=300 usecs=2147483647 cpus=all system=2147483647\$"
}

ktap_test_result "latency_add names the new user-space holder ($id)" add_names_holder
ktap_test_result "latency_add: no constraint yet, system $base" add_seen
ktap_test_result "latency_update: 1000000 -> 150, system 150" update_to_150_seen
ktap_test_result "latency_update: 150 -> 120, system 120" update_to_120_seen
ktap_test_result "latency_remove on close: system back to $base" remove_seen
ktap_test_result "exactly four events for the holder (saw $cnt)" four_events
ktap_test_result "latency_idle_wake: $base -> 150 waits for CPUs in C3 only" wake_tighten_seen
ktap_test_result "latency_idle_wake: 150 -> 120 interrupts no CPU" wake_none_seen
ktap_test_result "latency_idle_wake: 120 -> $base wakes, does not wait" wake_relax_seen
if [ "$others" -gt 0 ]; then
	ktap_test_result "a new CPU set: latency_remove, then latency_add with cpus=1 ($id2)" \
		cpus_set_seen
	ktap_test_result "latency_remove on close carries the CPU set" cpus_remove_seen
	ktap_test_result "latency_idle_wake, CPU 1 alone: system $base kept, at most CPU 1 woken" \
		cpus_wake_seen
else
	ktap_test_skip "a new CPU set: latency_remove, then latency_add (one CPU)"
	ktap_test_skip "latency_remove on close carries the CPU set (one CPU)"
	ktap_test_skip "latency_idle_wake for CPU 1 alone (one CPU)"
fi
ktap_test_result "/dev/cpu_dma_latency open: pm_qos_add_request" qos_add_seen
if [ -c /dev/cpu_wakeup_latency ]; then
	ktap_test_result "latency_wakeup: a /dev/cpu_wakeup_latency holder's add, 300 us, remove" \
		wakeup_seen
else
	ktap_test_skip "latency_wakeup: no /dev/cpu_wakeup_latency"
fi
ktap_test_result "... write of 77: pm_qos_update_request value=77" qos_update_seen
ktap_test_result "... 77 again: no second pm_qos_update_target" qos_same_value_once
ktap_test_result "... close: pm_qos_remove_request" qos_remove_seen
ktap_finished
