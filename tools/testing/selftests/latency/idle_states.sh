#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Whichever cpuidle driver runs, a constraint keeps the idle states whose
# exit latency exceeds it unused on the CPUs it covers, and only on those.
# Over idle windows of $IDLE s, from the usage counters of the states
# deeper than $HOLD us on every online CPU:
#  - with no constraint, every CPU enters one of them (the checks below
#    could not fail otherwise);
#  - while "$HOLD" is held through /dev/acceptable_latency, no counter moves
#    on any CPU, counted from $COUNTED s after the write returns: the write
#    is a synchronous call, and a CPU idle in a deeper state has left it by
#    then, but counts that stay a few instructions later, when it returns
#    from its interrupt (a QEMU TCG vCPU on a loaded host can stall between
#    the two for milliseconds);
#  - the same while $HOLD is held through /dev/cpu_dma_latency, a binary
#    s32; that write does not wait for the CPUs, so the window starts
#    $ASYNC s after it;
#  - while "$HOLD cpus=1" is held, no counter moves on CPU 1, counted in the
#    same way, and every other CPU enters a deep state;
#  - after close, CPU 1 enters a deep state again;
#  - the boundary rule: while the exit latency of the deepest state is held
#    exactly, every CPU still enters that state.
# Each constraint is set after $SETTLE s of idle, by this shell on CPU 0
# with no process started in between: the other CPUs are idle then, in a
# deep state as far as their governor chose one, and a CPU that the call
# failed to wake would count its stay later, in the window, at the latest
# when a program started on each CPU ends every stay at its end.
#
# Needs two CPUs whose cpuidle driver has a state deeper than $HOLD us;
# skips as a whole without.  KTAP output through kselftest/ktap_helpers.sh;
# ktap_test_result runs its command word-split, so each check is a function
# of no argument.

DIR=$(dirname "$(readlink -f "$0")")
# shellcheck source=/dev/null
. "$DIR/../kselftest/ktap_helpers.sh"

HOLD=10			# usecs: above no state but the shallowest ones
CPU=1			# the CPU of the per-CPU constraint
IDLE=2			# seconds of idle per observation
DEV=/dev/acceptable_latency
QOS=/dev/cpu_dma_latency
LISTING=/proc/latency_constraints
SETTLE=0.5		# seconds of idle before a constraint is set
ASYNC=0.1		# seconds for the interrupts of an update that does not wait
COUNTED=0.05		# seconds for a CPU woken by a synchronous write to count its stay
NTESTS=10

cpu_dir() { echo "/sys/devices/system/cpu/cpu$1"; }

# The online CPUs, one word each, from a list such as "0-3" or "0,2-3".
online_cpus() {
	tr ',' '\n' </sys/devices/system/cpu/online |
	while IFS=- read -r a b; do
		seq "$a" "${b:-$a}"
	done | tr '\n' ' '
}

# The deepest state of CPU 0, by cpuidle index.
deepest_state() {
	for s in "$(cpu_dir 0)"/cpuidle/state*; do
		echo "$(cat "$s/latency") ${s##*/state}"
	done | sort -n | tail -n 1 | cut -d' ' -f2
}

# States of CPU 0 deeper than $HOLD, by cpuidle index.
deep_states() {
	for s in "$(cpu_dir 0)"/cpuidle/state*; do
		[ "$(cat "$s/latency")" -gt "$HOLD" ] && echo "${s##*/state}"
	done | tr '\n' ' '
}

# $snap: the deep-state usage counters of every CPU, one word each,
# cpu:state:usage.  Read by the shell itself: a new process could wake a CPU.
snapshot() {
	snap=
	for c in $CPUS; do
		for s in $DEEP; do
			read -r u <"/sys/devices/system/cpu/cpu$c/cpuidle/state$s/usage"
			snap="$snap$c:$s:$u "
		done
	done
}

# Make every CPU leave its idle state, by starting a program there:
# cpuidle counts a stay when it ends, and a tickless CPU may stay for
# seconds.
kick() {
	for c in $CPUS; do
		taskset "$(printf %x $((1 << c)))" true
	done
}

# $moved: the CPUs (one word each) whose deep-state counters moved between
# $before and now, every CPU made to leave its state first.
moved_since() {
	kick
	snapshot
	after=$snap
	moved=
	for a in $after; do
		case " $before " in
		*" $a "*) ;;
		*) case " $moved " in
		   *" ${a%%:*} "*) ;;
		   *) moved="$moved${a%%:*} " ;;
		   esac ;;
		esac
	done
}

idle_window() {	# the counters now, $IDLE s of idle, the CPUs that moved
	snapshot
	before=$snap
	sleep "$IDLE"
	moved_since
}

# The checks, on $moved and $wrc.
all_moved() {
	for c in $CPUS; do
		case " $moved " in *" $c "*) ;; *) return 1 ;; esac
	done
}
none_moved() { [ -z "$moved" ]; }
others_moved() {
	for c in $CPUS; do
		[ "$c" = "$CPU" ] && continue
		case " $moved " in *" $c "*) ;; *) return 1 ;; esac
	done
}
cpu_unmoved() { case " $moved " in *" $CPU "*) return 1 ;; esac; }
cpu_moved() { ! cpu_unmoved; }
accepted() { [ "$wrc" -eq 0 ]; }
# The listing shows our holder of /dev/cpu_dma_latency at $HOLD.
qos_listed() {
	awk -v p=$$ -v v=$HOLD '$1 !~ /^#/ && $4 == p && $2 == v { f = 1 }
		END { exit !f }' $LISTING
}

# write_dev TEXT: one write() of TEXT through fd 3; $wrc 0 on success.
write_dev() {
	wrc=0
	echo "$1" >&3 || wrc=1
}

ktap_print_header

CPUS=$(online_cpus)
if [ ! -c "$DEV" ] || [ ! -c "$QOS" ] || [ ! -r "$LISTING" ]; then
	ktap_skip_all "needs $DEV, $QOS and $LISTING"
	exit "$KSFT_SKIP"
fi
case " $CPUS " in
*" $CPU "*) ;;
*)
	ktap_skip_all "needs CPU $CPU online (online: $CPUS)"
	exit "$KSFT_SKIP"
	;;
esac
if [ ! -d "$(cpu_dir 0)/cpuidle" ]; then
	ktap_skip_all "no cpuidle driver"
	exit "$KSFT_SKIP"
fi
DEEP=$(deep_states)
if [ -z "$DEEP" ]; then
	ktap_skip_all "no idle state deeper than $HOLD us"
	exit "$KSFT_SKIP"
fi
# This shell and what it starts stay on CPU 0.
if ! taskset -p 1 $$ >/dev/null; then
	ktap_skip_all "cannot move to CPU 0 (taskset)"
	exit "$KSFT_SKIP"
fi

ktap_set_plan $NTESTS
ktap_print_msg "driver $(cat /sys/devices/system/cpu/cpuidle/current_driver)," \
	"governor $(cat /sys/devices/system/cpu/cpuidle/current_governor_ro);" \
	"CPUs $CPUS; states deeper than $HOLD us: $DEEP"

# 1
idle_window
ktap_test_result "no constraint: every CPU enters a state deeper than $HOLD us (moved: $moved)" \
	all_moved

# 2-3: for all CPUs, through /dev/acceptable_latency
exec 3>"$DEV"
sleep $SETTLE
write_dev "$HOLD"
sleep $COUNTED
snapshot
before=$snap
ktap_test_result "$DEV accepts '$HOLD'" accepted
sleep "$IDLE"
moved_since
ktap_test_result "'$HOLD' held: no CPU goes deeper after the write (moved: $moved)" \
	none_moved
exec 3>&-

# 4-5: for all CPUs, through /dev/cpu_dma_latency
exec 4>"$QOS"
# A 4-byte write is a binary s32: $HOLD, little endian.
s32=$(printf '\\%03o\\000\\000\\000' "$HOLD")
sleep $SETTLE
# shellcheck disable=SC2059
printf "$s32" >&4
sleep $ASYNC
snapshot
before=$snap
ktap_test_result "$QOS holds $HOLD, listed" qos_listed
sleep "$IDLE"
moved_since
ktap_test_result "$HOLD held through $QOS: no CPU enters a deeper state (moved: $moved)" \
	none_moved
exec 4>&-

# 6-8: for CPU $CPU alone
exec 3>"$DEV"
sleep $SETTLE
write_dev "$HOLD cpus=$CPU"
sleep $COUNTED
snapshot
before=$snap
ktap_test_result "$DEV accepts '$HOLD cpus=$CPU'" accepted
sleep "$IDLE"
moved_since
ktap_test_result "'$HOLD cpus=$CPU' held: CPU $CPU goes no deeper after the write (moved: $moved)" \
	cpu_unmoved
ktap_test_result "'$HOLD cpus=$CPU' held: every other CPU goes deeper (moved: $moved)" \
	others_moved
exec 3>&-

# 9: released
idle_window
ktap_test_result "after close, CPU $CPU enters a state deeper than $HOLD us again (moved: $moved)" \
	cpu_moved

# 10: a state whose exit latency equals the constraint is allowed
last=$(deepest_state)
lat=$(cat "$(cpu_dir 0)/cpuidle/state$last/latency")
exec 3>"$DEV"
sleep $SETTLE
write_dev "$lat"
deep=$DEEP
DEEP=$last
sleep $COUNTED
idle_window
DEEP=$deep
ktap_test_result \
	"'$lat' held, state $last's exit latency: every CPU still enters it (moved: $moved)" \
	all_moved
exec 3>&-

ktap_finished
