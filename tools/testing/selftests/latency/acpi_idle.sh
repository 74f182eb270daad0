#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# ACPI processor idle honours the latency constraint held through
# /dev/acceptable_latency, under each cpuidle governor (ladder, menu, teo):
# over an idle window, the usage counter of every state deeper than the
# constraint stays still on every CPU while it is held, and moves again once
# it is released; /proc/acpi/processor/*/power shows the held value and
# keeps the 2.6.18 format, with the usage and time counters of cpuidle.
#
# Needs acpi_idle as the cpuidle driver with a state deeper than $HOLD us
# (harness/acpi/cst.asl gives C3 = 200 us) and more than one CPU; without
# them, the results that need them are skipped.
#
# KTAP output through kselftest/ktap_helpers.sh.  ktap_test_result runs its
# command word-split, so each check is a function of no argument.

DIR=$(dirname "$(readlink -f "$0")")
# shellcheck source=/dev/null
. "$DIR/../kselftest/ktap_helpers.sh"

HOLD=150		# usecs: between C2 (20) and C3 (200) of cst.asl
COUNT_HOLD=15		# usecs: between C1 (1) and C2
IDLE=2			# seconds of idle per observation
CPUIDLE=/sys/devices/system/cpu/cpuidle
DEV=/dev/acceptable_latency
GOVERNORS="ladder menu teo"
QOS_DEV=/dev/cpu_dma_latency
# 5, then 4 for each governor, 2 about the power files (held, released),
# and 3 about a holder of $QOS_DEV
NTESTS=22

cpus() {
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		[ -d "$c/cpuidle" ] && echo "${c##*/cpu}"
	done
}

# The /proc/acpi/processor/<bus id>/power file of CPU $1: the processor
# driver names the bus id "CPU" and the CPU number in hexadecimal
# (acpi_processor_get_info()).
power_file() {
	printf '/proc/acpi/processor/CPU%X/power\n' "$1"
}

# "name usage time" of each cpuidle state of CPU $1, one a line; read with
# the shell's own read, to keep the two reads around a power file close.
sysfs_counters() {
	for s in /sys/devices/system/cpu/cpu"$1"/cpuidle/state*; do
		read -r n <"$s/name"
		read -r u <"$s/usage"
		read -r t <"$s/time"
		echo "$n $u $t"
	done
}

# The states of CPU $1 whose power file counters are not its cpuidle ones:
# each usage[] must lie between the usage counters read just before and
# just after the power file, and each duration[], in ACPI PM timer ticks
# (3579545 Hz), between the time counters (usec), give or take a tick.
counters_bad() {	# counters_bad CPU
	before=$(sysfs_counters "$1")
	power=$(sed -n \
		's/^   [ *]\(C[0-9]*\):.* usage\[\([0-9]*\)\] duration\[\([0-9]*\)\]$/\1 \2 \3/p' \
		"$(power_file "$1")")
	after=$(sysfs_counters "$1")
	printf '%s\n' "$before" "#" "$power" "#" "$after" | awk -v cpu="$1" '
		# Without its leading zeros: busybox awk reads 0755 as octal.
		function dec(x) { sub(/^0+/, "", x); return x + 0 }
		$0 == "#" { part++; next }
		part == 0 { bu[$1] = $2; bt[$1] = $3 }
		part == 1 { pu[$1] = dec($2); pd[$1] = dec($3); n++ }
		part == 2 { au[$1] = $2; at[$1] = $3 }
		END {
			if (!n)
				printf "cpu%s:no-states ", cpu
			for (s in pu) {
				lo = int(bt[s] * 3579545 / 1000000) - 1
				hi = int((at[s] + 1) * 3579545 / 1000000) + 1
				if (!(s in bu) || pu[s] < bu[s] || pu[s] > au[s] ||
				    pd[s] < lo || pd[s] > hi)
					printf "cpu%s:%s:usage:%s<=%s<=%s:duration:%s<=%s<=%s ",
						cpu, s, bu[s], pu[s], au[s], lo, pd[s], hi
			}
		}'
}

# States of CPU 0 deeper than $HOLD, by cpuidle index.
deep_states() {
	for s in /sys/devices/system/cpu/cpu0/cpuidle/state*; do
		[ "$(cat "$s/latency")" -gt "$HOLD" ] && echo "${s##*/state}"
	done
}

# One word per (CPU, deep state): cpu:state:usage
snapshot() {
	for c in $(cpus); do
		for s in $DEEP; do
			echo "$c:$s:$(cat /sys/devices/system/cpu/cpu"$c"/cpuidle/state"$s"/usage)"
		done
	done
}

# Words of "$2" (after) whose usage differs from "$1" (before), on one line.
moved() {
	for a in $2; do
		case " $1 " in
		*" $a "*) ;;
		*) printf '%s ' "$a" ;;
		esac
	done
}

# $m: the deep-state counters that moved over an idle window.
idle_window() {
	before=$(snapshot | tr '\n' ' ')
	sleep "$IDLE"
	after=$(snapshot | tr '\n' ' ')
	m=$(moved "$before" "$after")
}

system_value() {
	sed -n 's/^# system \([0-9]*\).*/\1/p' /proc/latency_constraints
}

power_latencies() {	# values of "maximum allowed latency" in every power file
	cat /proc/acpi/processor/*/power 2>/dev/null |
		sed -n 's/^maximum allowed latency: \([0-9]*\) usec$/\1/p' | sort -u
}

# The checks, on the variables the script sets before each.
one_power_file_per_cpu() { [ "$ncpu" -ge 1 ] && [ "$nproc_dirs" -eq "$ncpu" ]; }
nothing_bad() { [ -z "$bad" ]; }
some_moved() { [ -n "$m" ]; }
none_moved() { [ -z "$m" ]; }
power_shows_hold() { [ "$pl" = "$HOLD " ] && [ "$sys" = "$HOLD" ]; }
power_shows_system() { [ -n "$sys" ] && [ "$sys" != "$HOLD" ] && [ "$pl" = "$sys " ]; }

# The results of one governor, skipped; the two about the power files go
# with the first governor, as when it runs.
skip_governor() {	# skip_governor GOVERNOR
	ktap_test_skip "$1: selected"
	ktap_test_skip "$1: deep states used without a constraint"
	[ "$first" -eq 1 ] && ktap_test_skip "power files show the held constraint"
	ktap_test_skip "$1: no deep state entered while $HOLD us is held"
	[ "$first" -eq 1 ] && ktap_test_skip "power files show the value after release"
	ktap_test_skip "$1: deep states used again after release"
	first=0
}

skip_qos() {
	ktap_test_skip "$QOS_DEV: power files and listing show its value"
	ktap_test_skip "$QOS_DEV: no deep state entered while it is held"
	ktap_test_skip "$QOS_DEV: deep states used again after close"
}

# Skip the results of every governor and of $QOS_DEV, say why, and end.
skip_governors() {	# skip_governors REASON
	ktap_print_msg "$1"
	for gov in $GOVERNORS; do
		skip_governor "$gov"
	done
	skip_qos
	ktap_finished
}

qos_value_shown() {
	[ "$pl" = "$HOLD " ] && [ "$sys" = "$HOLD" ] && [ -n "$listed" ]
}

ktap_print_header
ktap_set_plan $NTESTS
first=1

# 1
driver=$(cat $CPUIDLE/current_driver 2>/dev/null)
if [ "$driver" != acpi_idle ]; then
	ktap_test_fail "acpi_idle is the cpuidle driver (found '${driver:-none}')"
	ktap_test_skip "/proc/acpi/processor has one power file per CPU"
	ktap_test_skip "power files have the 2.6.18 format"
	ktap_test_skip "power state latencies match cpuidle"
	ktap_test_skip "power usage and duration are the cpuidle counters"
	skip_governors "acpi_idle is not the cpuidle driver"
fi
ktap_test_pass "acpi_idle is the cpuidle driver"

# 2
ncpu=$(cpus | wc -l)
nproc_dirs=0
for f in /proc/acpi/processor/*/power; do
	[ -f "$f" ] && nproc_dirs=$((nproc_dirs + 1))
done
ktap_test_result "/proc/acpi/processor has one power file per CPU ($nproc_dirs for $ncpu CPUs)" \
	one_power_file_per_cpu

# 3: format, line by line
bad=
for f in /proc/acpi/processor/*/power; do
	[ -f "$f" ] || { bad="$bad $f:missing"; continue; }
	i=0
	while IFS= read -r line; do
		# The system wakeup limit, with CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP.
		case $i:$line in
		4:"s2idle latency limit:"*)
			echo "$line" | grep -Eq '^s2idle latency limit:    [0-9]+ usec$' ||
				bad="$bad $f:s2idle"
			continue ;;
		esac
		i=$((i + 1))
		case $i in
		1) re='^active state:            C[0-9]+$' ;;
		2) re='^max_cstate:              C[0-9]+$' ;;
		3) re='^bus master activity:     [0-9a-f]{8}$' ;;
		4) re='^maximum allowed latency: [0-9]+ usec$' ;;
		5) re='^states:$' ;;
		*)	# One state line, as 2.6.18 printed it.
			re='^   [ *]C[0-9]+:                  '
			re="$re(<not supported>|type\\[(C[123]|--)\\] "
			re="${re}promotion\\[(C[0-9]+|--)\\] "
			re="${re}demotion\\[(C[0-9]+|--)\\] "
			re="${re}latency\\[[0-9]{3,}\\] usage\\[[0-9]{8,}\\] "
			re="${re}duration\\[[0-9]{20,}\\])\$" ;;
		esac
		echo "$line" | grep -Eq "$re" || bad="$bad $f:$i"
	done <"$f"
	[ "$i" -ge 6 ] || bad="$bad $f:short($i)"
done
ktap_test_result "power files have the 2.6.18 format${bad:+ (bad lines:$bad)}" \
	nothing_bad

# 4: the state lines are the cpuidle states of that CPU, in order
want=$(for s in /sys/devices/system/cpu/cpu0/cpuidle/state*; do
	[ "$(cat "$s/name")" = POLL ] || printf '%03d\n' "$(cat "$s/latency")"
done | tr '\n' ' ')
bad=
for f in /proc/acpi/processor/*/power; do
	got=$(sed -n 's/.*latency\[\([0-9]*\)\].*/\1/p' "$f" | tr '\n' ' ')
	[ "$got" = "$want" ] || bad="$bad ${f%/power}:[$got]"
done
ktap_test_result "power state latencies match cpuidle [$want]${bad:+ (got$bad)}" \
	nothing_bad

# 5: usage[] and duration[] are the CPU's cpuidle counters.  Held at
# $COUNT_HOLD us, the CPUs idle in C1, which HLT makes a real stay (its
# usage and above counters differ) and slow enough that two reads of
# its counters come close.
if [ -c "$DEV" ]; then
	exec 3>"$DEV"
	echo "$COUNT_HOLD" >&3
	sleep 1
fi
bad=
for c in $(cpus); do
	bad="$bad$(counters_bad "$c")"
done
exec 3>&-
ktap_test_result "power usage and duration are the cpuidle counters${bad:+ (bad: }$bad${bad:+)}" \
	nothing_bad

DEEP=$(deep_states | tr '\n' ' ')
if [ -z "$DEEP" ]; then
	skip_governors "no idle state deeper than $HOLD us (is harness/acpi/cst.asl loaded?)"
fi
if [ "$ncpu" -lt 2 ]; then
	skip_governors "needs 2 CPUs, found $ncpu"
fi
if [ ! -c "$DEV" ]; then
	skip_governors "$DEV missing"
fi
if ! [ -w $CPUIDLE/current_governor ]; then
	skip_governors "$CPUIDLE/current_governor is not writable"
fi
ktap_print_msg "deep states (latency > $HOLD us): $DEEP; CPUs: $(cpus | tr '\n' ' ')"
orig_gov=$(cat $CPUIDLE/current_governor)

for gov in $GOVERNORS; do
	if ! echo "$gov" >$CPUIDLE/current_governor 2>/dev/null ||
	   [ "$(cat $CPUIDLE/current_governor)" != "$gov" ]; then
		ktap_print_msg "governor $gov not available"
		skip_governor "$gov"
		continue
	fi
	ktap_test_pass "$gov: selected"

	idle_window
	ktap_test_result "$gov: deep states used without a constraint${m:+ (}$m${m:+)}" \
		some_moved

	exec 3>"$DEV"
	echo "$HOLD" >&3
	# A CPU woken by the notifier may count its last deep stay just after
	# the write returns; observe from a fresh start.
	sleep 1
	if [ $first -eq 1 ]; then
		sys=$(system_value)
		pl=$(power_latencies | tr '\n' ' ')
		ktap_test_result "power files show the held constraint (power: $pl; system: $sys)" \
			power_shows_hold
	fi
	idle_window
	ktap_test_result \
		"$gov: no deep state entered while $HOLD us is held${m:+ (moved: }$m${m:+)}" \
		none_moved

	exec 3>&-
	sleep 1
	if [ $first -eq 1 ]; then
		sys=$(system_value)
		pl=$(power_latencies | tr '\n' ' ')
		ktap_test_result "power files show the value after release ($pl; system: $sys)" \
			power_shows_system
		first=0
	fi
	idle_window
	ktap_test_result "$gov: deep states used again after release${m:+ (}$m${m:+)}" \
		some_moved
done

echo "$orig_gov" >$CPUIDLE/current_governor 2>/dev/null

# The CPU latency QoS device, which tuned and cyclictest hold, is a holder
# of the same registry: hexadecimal text, as it always took.
if [ -c "$QOS_DEV" ]; then
	exec 4>"$QOS_DEV"
	printf '%x' "$HOLD" >&4
	sleep 1
	sys=$(system_value)
	pl=$(power_latencies | tr '\n' ' ')
	listed=$(awk -v p=$$ -v v="$HOLD" '$2 == v && $3 == "all" && $4 == p' \
		/proc/latency_constraints)
	ktap_test_result \
		"$QOS_DEV: power files and listing show its value (power: $pl; system: $sys)" \
		qos_value_shown
	idle_window
	ktap_test_result \
		"$QOS_DEV: no deep state entered while it is held${m:+ (moved: }$m${m:+)}" \
		none_moved
	exec 4>&-
	sleep 1
	idle_window
	ktap_test_result "$QOS_DEV: deep states used again after close${m:+ (}$m${m:+)}" \
		some_moved
else
	ktap_print_msg "no $QOS_DEV"
	skip_qos
fi
ktap_finished
