#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A tightening that does not wait still interrupts the CPUs idle in a state
# too deep for it, at once: cpu_latency_qos_update_request() from a driver
# returns without waiting, as in 6.12, where wake_up_all_idle_cpus() woke
# every idle CPU.
#
# The driver is test_latency_qos (lib/test_latency_qos.c): a write of its
# parameter usecs updates its request and returns.  CPU $CPU is left idle in
# its deepest state; this shell, on CPU 0, then writes usecs, and the trace
# times how long CPU $CPU stays in that state after the change: from the
# latency_update event (the change published) to CPU $CPU's next
# cpu_idle exit.  Two writes alternate, $TRIALS of each, each followed by
# one of $LOOSE us that allows the state again:
#  - "$CONTROL", which forbids no state: the CPU sleeps on until its own
#    next timer, as it would after a tightening that failed to wake it (a
#    tickless CPU: typically for hundreds of milliseconds);
#  - "$HOLD", which forbids the state: the CPU must leave it within a
#    tenth of the control's median stay, and 9 stays in 10 within a third.
# Each check counts only the writes that found the CPU in the state; at
# least half of them must have, so that the checks could fail.  Between
# the writes the shell waits with "read -t" on a FIFO, not sleep(1): a new
# process on CPU 0 makes the scheduler kick an idle CPU (the first, CPU
# $CPU) for its idle load balancing, which would end the control's stays.
#
# Needs the module (built in or loadable), the trace events power:cpu_idle
# and latency:latency_update, and a CPU $CPU whose deepest state is deeper
# than $HOLD us and really sleeps: an idle CPU stays in it for $MIN_STAY us
# on average or more (a tickless kernel, a driver whose state waits for an
# interrupt, as the arm64 guest's; not acpi_idle under QEMU, whose C2 and C3
# return at once).  Skips as a whole without.  KTAP output through
# kselftest/ktap_helpers.sh.

DIR=$(dirname "$(readlink -f "$0")")
# shellcheck source=/dev/null
. "$DIR/../kselftest/ktap_helpers.sh"

MOD=test_latency_qos
PARAM=/sys/module/$MOD/parameters/usecs
T=/sys/kernel/tracing
HOLD=10			# usecs: forbids every state deeper than that
CONTROL=50000		# usecs: forbids no state of a real driver
LOOSE=100000		# usecs: neither, and differs from $CONTROL
CPU=1
TRIALS=12		# of each kind
SETTLE=0.3		# seconds of idle before each write: CPU $CPU goes deep
WATCH=0.6		# seconds each value is held after its write
MIN_STAY=20000		# usecs: an average stay that only a real sleep gives
NTESTS=5

st=/sys/devices/system/cpu/cpu$CPU/cpuidle

# nap SECONDS: wait, in this shell (fd 5: a FIFO nobody writes to).
nap() {
	# shellcheck disable=SC3045 # busybox ash and bash have read -t
	read -r -t "$1" _ <&5
}

deepest_state() {
	for s in "$st"/state*; do
		echo "$(cat "$s/latency") ${s##*/state}"
	done | sort -n | tail -n 1 | cut -d' ' -f2
}

# The figures of one kind of write from the trace: "FOUND MEDIAN P90 MAX",
# FOUND the writes that found CPU $CPU in state $DEEPEST, the others its
# stay after them in us (0 0 0 when none did).  A write marks the stay in
# progress; the CPU's next cpu_idle exit ends it.  A stay still running at
# the next write ends there (a lower bound).
stays() {
	echo "$trace" | awk -v cpu="$CPU" -v deep="$DEEPEST" -v want="$1" '
	function close_stay(t) {
		if (open) {
			n++
			s[n] = int((t - t0) * 1e6 + 0.5)
			open = 0
		}
	}
	{
		ts = ""
		for (i = 1; i < NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/) {
				ts = substr($i, 1, length($i) - 1)
				break
			}
		if (ts == "")
			next
		ev = $(i + 1)
		if (ev == "cpu_idle:" && $(i + 3) == "cpu_id=" cpu) {
			state = substr($(i + 2), 7)
			if (state == deep) {
				in_deep = 1
			} else {
				in_deep = 0
				close_stay(ts)
			}
		} else if (ev == "latency_update:" &&
			   $(i + 2) ~ /^identifier=pm_qos:/) {
			close_stay(ts)
			if ($(i + 4) == "usecs=" want && in_deep) {
				open = 1
				t0 = ts
			}
		}
	}
	END {
		# Insertion sort: a few tens of values.
		for (i = 2; i <= n; i++) {
			v = s[i]
			for (j = i - 1; j >= 1 && s[j] > v; j--)
				s[j + 1] = s[j]
			s[j + 1] = v
		}
		if (!n) {
			print "0 0 0 0"
			exit
		}
		print n, s[int((n + 1) / 2)], s[int((9 * n + 9) / 10)], s[n]
	}'
}

# The checks.
accepted() { [ "$wrc" -eq 0 ]; }
control_found() { [ $((2 * c_found)) -ge "$TRIALS" ]; }
control_sleeps() { [ "$c_median" -ge $MIN_STAY ]; }
tight_found() { [ $((2 * h_found)) -ge "$TRIALS" ]; }
tight_at_once() {
	[ $((10 * h_median)) -le "$c_median" ] &&
		[ $((3 * h_p90)) -le "$c_median" ]
}

ktap_print_header

if [ ! -e "$PARAM" ]; then
	modprobe $MOD 2>/dev/null
fi
if [ ! -w "$PARAM" ] || [ ! -d "$st" ] ||
	[ ! -d $T/events/power/cpu_idle ] ||
	[ ! -d $T/events/latency/latency_update ]; then
	ktap_skip_all "needs $PARAM, CPU $CPU with cpuidle, the cpu_idle and latency_update events"
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

fifo=$(mktemp -u)
mkfifo "$fifo"
exec 5<>"$fifo"
rm -f "$fifo"

read -r before <"$PARAM"
wrc=0
echo $LOOSE >"$PARAM" || wrc=1
ktap_test_result "$PARAM accepts '$LOOSE'" accepted

echo 0 >$T/tracing_on
echo >$T/trace
clock=$(sed 's/.*\[\(.*\)\].*/\1/' $T/trace_clock)
echo global >$T/trace_clock
echo "cpu_id == $CPU" >$T/events/power/cpu_idle/filter
echo 1 >$T/events/power/cpu_idle/enable
echo 1 >$T/events/latency/latency_update/enable
echo 1 >$T/tracing_on
i=0
while [ $i -lt $((2 * TRIALS)) ]; do
	v=$CONTROL
	[ $((i % 2)) -eq 1 ] && v=$HOLD
	nap $SETTLE
	echo $v >"$PARAM"
	nap $WATCH
	echo $LOOSE >"$PARAM"
	i=$((i + 1))
done
echo 0 >$T/tracing_on
echo 0 >$T/events/power/cpu_idle/enable
echo 0 >$T/events/latency/latency_update/enable
echo 0 >$T/events/power/cpu_idle/filter
trace=$(grep -v '^#' $T/trace)
# A new clock empties the buffer: after it is read.
echo "$clock" >$T/trace_clock
echo "$before" >"$PARAM"

# shellcheck disable=SC2046
set -- $(stays $CONTROL) $(stays $HOLD)
c_found=$1 c_median=$2 c_p90=$3 c_max=$4
h_found=$5 h_median=$6 h_p90=$7 h_max=$8
ktap_print_msg "CPU $CPU, state $DEEPEST, stay after the write, in us:" \
	"'$CONTROL' (forbids nothing): $c_found of $TRIALS writes found it there," \
	"median $c_median, 90th percentile $c_p90, max $c_max;" \
	"'$HOLD': $h_found of $TRIALS, median $h_median, 90th percentile $h_p90, max $h_max"
ktap_test_result "CPU $CPU was in state $DEEPEST at half of the writes of '$CONTROL' ($c_found)" \
	control_found
ktap_test_result \
	"a write of '$CONTROL' leaves CPU $CPU asleep: median stay ${c_median} us >= $MIN_STAY us" \
	control_sleeps
ktap_test_result "CPU $CPU was in state $DEEPEST at half of the writes of '$HOLD' ($h_found)" \
	tight_found
desc="a write of '$HOLD' that does not wait ends the stay at once:"
desc="$desc median ${h_median} us <= ${c_median} us / 10,"
desc="$desc 90th percentile ${h_p90} us <= / 3"
ktap_test_result "$desc" tight_at_once

ktap_finished
