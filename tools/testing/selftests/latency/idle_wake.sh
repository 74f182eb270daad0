#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# When a synchronous call that tightens the constraint returns, no CPU is
# idle in a state deeper than it allows: a CPU sleeping too deep was woken.
#
# CPU $CPU is left idle in its deepest state; this shell, on CPU 0, then
# writes "$HOLD" to /dev/acceptable_latency (a synchronous call: the write
# returns when the constraint is in effect on every CPU) and reads CPU
# $CPU's usage counter of that state at once, and again $WATCH s later,
# the constraint still held.  cpuidle counts an entry when the CPU leaves
# the state, and no CPU can enter it while the constraint is held: a count
# that moves after the write returned is a stay that the write should have
# ended.  Repeated $TRIALS times, between writes of a constraint that allows
# the state again:
#  - no stay in the state ends after the write returned ("late");
#  - in at least half of the trials the CPU was in the state at the write
#    and had left it when the write returned ("woken"), so that the first
#    check could fail (it may also be awake, or in a shallower state).
# Without the wake-up, a tickless CPU sleeps on until its next timer,
# typically for hundreds of milliseconds.
#
# Needs a CPU $CPU whose deepest state is deeper than $HOLD us and really
# sleeps: an idle CPU stays in it for $MIN_STAY us on average or more (a
# tickless kernel, a driver whose state waits for an interrupt).  Skips as
# a whole without, as on a state that returns at once.  KTAP output through
# kselftest/ktap_helpers.sh.

DIR=$(dirname "$(readlink -f "$0")")
# shellcheck source=/dev/null
. "$DIR/../kselftest/ktap_helpers.sh"

HOLD=10			# usecs: forbids every state deeper than that
LOOSE=100000		# usecs: forbids no state of a real driver
CPU=1
TRIALS=20
SETTLE=0.3		# seconds of idle before each write: CPU $CPU goes deep
WATCH=0.5		# seconds the constraint is held after each write
MIN_STAY=20000		# usecs: an average stay that only a real sleep gives
DEV=/dev/acceptable_latency
NTESTS=3

st=/sys/devices/system/cpu/cpu$CPU/cpuidle

deepest_state() {
	for s in "$st"/state*; do
		echo "$(cat "$s/latency") ${s##*/state}"
	done | sort -n | tail -n 1 | cut -d' ' -f2
}

# The checks.
accepted() { [ "$wrc" -eq 0 ]; }
none_late() { [ "$late" -eq 0 ]; }
half_woken() { [ $((2 * woken)) -ge "$TRIALS" ]; }

ktap_print_header

if [ ! -c "$DEV" ] || [ ! -d "$st" ]; then
	ktap_skip_all "needs $DEV and CPU $CPU with cpuidle"
	exit "$KSFT_SKIP"
fi
DEEPEST=$(deepest_state)
lat=$(cat "$st/state$DEEPEST/latency")
if [ "$lat" -le "$HOLD" ]; then
	ktap_skip_all "CPU $CPU has no state deeper than $HOLD us"
	exit "$KSFT_SKIP"
fi
# Keep this shell and what it starts off CPU $CPU.
if ! taskset -p 1 $$ >/dev/null; then
	ktap_skip_all "cannot move to CPU 0 (taskset)"
	exit "$KSFT_SKIP"
fi

usage=$st/state$DEEPEST/usage
read -r u0 <"$usage"
read -r t0 <"$st/state$DEEPEST/time"
sleep 2
read -r u1 <"$usage"
read -r t1 <"$st/state$DEEPEST/time"
n=$((u1 - u0))
stay=0
[ "$n" -gt 0 ] && stay=$(((t1 - t0) / n))
ktap_print_msg "CPU $CPU, state $DEEPEST ($(cat "$st/state$DEEPEST/name")," \
	"$lat us): $n entries, $((t1 - t0)) us in 2 s of idle"
if [ "$n" -eq 0 ] || [ "$stay" -lt $MIN_STAY ]; then
	ktap_skip_all "CPU $CPU does not stay in state $DEEPEST: $n entries," \
		"$stay us on average (needs $MIN_STAY us: a tickless kernel," \
		"a state that sleeps)"
	exit "$KSFT_SKIP"
fi

ktap_set_plan $NTESTS

exec 3>"$DEV"
wrc=0
echo $LOOSE >&3 || wrc=1
ktap_test_result "$DEV accepts '$LOOSE'" accepted

woken=0
late=0
i=0
while [ $i -lt $TRIALS ]; do
	sleep $SETTLE
	read -r a <"$usage"
	echo $HOLD >&3
	# cpuidle counts the stay once the woken CPU has taken the interrupt
	# the write waited for, a few microseconds after the write returns;
	# a stay the write failed to end lasts until the CPU's next timer.
	sleep 0.02
	read -r b <"$usage"
	sleep $WATCH
	read -r c <"$usage"
	echo $LOOSE >&3
	[ "$b" -ne "$a" ] && woken=$((woken + 1))
	[ "$c" -ne "$b" ] && late=$((late + 1))
	i=$((i + 1))
done
exec 3>&-

ktap_print_msg "CPU $CPU, $TRIALS writes of '$HOLD': left state $DEEPEST by the" \
	"return $woken times, after it $late times"
msg="'$HOLD' written: no stay of CPU $CPU in state $DEEPEST outlives the write"
ktap_test_result "$msg ($late)" none_late
ktap_test_result "CPU $CPU was woken from state $DEEPEST by at least half of the writes ($woken)" \
	half_woken

ktap_finished
