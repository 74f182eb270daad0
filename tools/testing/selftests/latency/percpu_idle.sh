#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A constraint held through /dev/acceptable_latency for some CPUs only
# ("15 cpus=2-3") limits the idle states of those CPUs and of no other: over
# an idle window, the usage counter of every state deeper than 15 us stays
# still on CPUs 2 and 3 while it is held, CPU 0 or 1 keeps entering the
# deepest state, and CPUs 2 and 3 enter deep states again once it is
# released.  /proc/latency_constraints lists the holder with its CPUs and
# the limit of each CPU, the system value does not change, and
# /proc/acpi/processor/<bus id>/power of each CPU shows that CPU's limit.
# A write with a bad CPU list is refused with EINVAL and sets nothing.
#
# Needs acpi_idle as the cpuidle driver with a state deeper than $HOLD us
# (harness/acpi/cst.asl gives C2 = 20 us, C3 = 200 us) and CPUs 0 to 3;
# without them, the results that need them are skipped.  Runs under the
# current cpuidle governor.
#
# KTAP output through kselftest/ktap_helpers.sh.  ktap_test_result runs its
# command word-split, so each check is a function of no argument.

DIR=$(dirname "$(readlink -f "$0")")
# shellcheck source=/dev/null
. "$DIR/../kselftest/ktap_helpers.sh"

HOLD=15			# usecs: below C2 (20) of cst.asl, so C2 and C3 are out
HELD_LIST=2-3		# the CPUs of the constraint, as written and listed
HELD="2 3"		# the same, one word per CPU
FREE="0 1"		# CPUs the constraint does not concern
IDLE=2			# seconds of idle per observation
CPUIDLE=/sys/devices/system/cpu/cpuidle
DEV=/dev/acceptable_latency
LISTING=/proc/latency_constraints
BAD_LISTS="cpus= cpus=abc cpus=9999 cpus=3-1"
# 4 bad lists and what they set; then 12 that need acpi_idle and 4 CPUs:
# 1 without a constraint, 7 while it is held, 4 after release
NTESTS=19

cpu_dir() { echo "/sys/devices/system/cpu/cpu$1"; }

# States of CPU 0 deeper than $HOLD, by cpuidle index; the deepest.
deep_states() {
	for s in "$(cpu_dir 0)"/cpuidle/state*; do
		[ "$(cat "$s/latency")" -gt "$HOLD" ] && echo "${s##*/state}"
	done
}

deepest_state() {
	for s in "$(cpu_dir 0)"/cpuidle/state*; do
		echo "$(cat "$s/latency") ${s##*/state}"
	done | sort -n | tail -n 1 | cut -d' ' -f2
}

# One word per (CPU 0-3, deep state): cpu:state:usage
snapshot() {
	for c in $FREE $HELD; do
		for s in $DEEP; do
			echo "$c:$s:$(cat "$(cpu_dir "$c")/cpuidle/state$s/usage")"
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

# Over an idle window, $m_held: the deep-state counters of CPUs 2 and 3
# that moved; $m_free: the deepest-state counters of CPUs 0 and 1 that
# moved.
idle_window() {
	before=$(snapshot | tr '\n' ' ')
	sleep "$IDLE"
	after=$(snapshot | tr '\n' ' ')
	m=$(moved "$before" "$after")
	m_held=
	m_free=
	for w in $m; do
		c=${w%%:*}
		s=${w#*:}
		s=${s%%:*}
		case " $HELD " in
		*" $c "*) m_held="$m_held$w " ;;
		*) [ "$s" = "$DEEPEST" ] && m_free="$m_free$w " ;;
		esac
	done
}

# The /proc/acpi/processor/<bus id>/power file of CPU $1: the processor
# driver names the bus id "CPU" and the CPU number in hexadecimal
# (acpi_processor_get_info()).
power_file() {
	printf '/proc/acpi/processor/CPU%X/power\n' "$1"
}

# "cpu:limit " for CPUs 0-3, from the power files; an empty limit when the
# file or its line is missing.
power_limits() {
	for c in $FREE $HELD; do
		f=$(power_file "$c")
		v=
		[ -n "$f" ] && v=$(sed -n \
			's/^maximum allowed latency: \([0-9]*\) usec$/\1/p' "$f" 2>/dev/null)
		printf '%s:%s ' "$c" "$v"
	done
}

# "cpu:usecs:holder " for every CPU of the "# cpu" lines of the listing,
# which give a run of CPUs that share a line as "first-last".
cpu_lines() {
	awk '$1 == "#" && $2 == "cpu" {
		n = split($3, r, "-")
		for (c = r[1]; c <= r[n]; c++)
			printf "%s:%s:%s ", c, $4, $5
	}' $LISTING
}

system_line() { sed -n 's/^# system //p' $LISTING; }

# The holder lines opened by this shell (pid field).
own_holders() { awk -v p=$$ '$1 !~ /^#/ && $4 == p' $LISTING; }

# with_held LIST VALUE: the "cpu:..." words of LIST, those of the held
# CPUs replaced by cpu:VALUE.
with_held() {
	for w in $1; do
		case " $HELD " in
		*" ${w%%:*} "*) w="${w%%:*}:$2" ;;
		esac
		printf '%s ' "$w"
	done
}

# write_dev TEXT: write TEXT through fd 3 in one write(); $wrc is 0 when it
# succeeded, $werr what the shell printed about a failure.
write_dev() {
	# Not a useless echo: its output goes to fd 3, its errors to $werr.
	# shellcheck disable=SC2116
	if werr=$(echo "$1" 2>&1 >&3); then
		wrc=0
	else
		wrc=1
	fi
}

# The checks, on the variables the script sets before each.
refused_einval() {
	[ "$wrc" -ne 0 ] || return 1
	# busybox and bash name the errno; dash only says that it failed.
	case $werr in
	*"write error: Invalid argument"*) return 0 ;;
	*"write error: "*) return 1 ;;
	esac
}
accepted() { [ "$wrc" -eq 0 ]; }
nothing_set() {
	[ -n "$hl_open" ] && [ "$hl_bad" = "$hl_open" ] &&
		[ -n "$cl0" ] && [ "$cl" = "$cl0" ] &&
		[ -n "$sys0" ] && [ "$sys" = "$sys0" ]
}
# Every CPU 0-3 has a "# cpu" line before the test; every one has a power
# file with a limit.
cpu_lines_complete() {
	for c in $FREE $HELD; do
		case " $cl0" in *" $c:"*) ;; *) return 1 ;; esac
	done
}
power_complete() { case " $pw0" in *": "*) return 1 ;; esac; }
# Every held CPU is in $m_held.
each_held_moved() {
	for c in $HELD; do
		case " $m_held" in *" $c:"*) ;; *) return 1 ;; esac
	done
}
deep_used() { each_held_moved && [ -n "$m_free" ]; }
holder_listed() {
	[ "$(echo "$own" | wc -l)" -eq 1 ] &&
		[ "$hl_usecs" = "$HOLD" ] && [ "$hl_cpus" = "$HELD_LIST" ] &&
		case $id in user:[0-9a-f]*) true ;; *) false ;; esac
}
cpu_lines_held() {
	cpu_lines_complete && [ -n "$id" ] &&
		[ "$cl" = "$(with_held "$cl0" "$HOLD:$id")" ]
}
system_unchanged() { [ -n "$sys0" ] && [ "$sys" = "$sys0" ]; }
power_held() { power_complete && [ "$pw" = "$(with_held "$pw0" "$HOLD")" ]; }
held_frozen() { [ -z "$m_held" ]; }
free_deepest_used() { [ -n "$m_free" ]; }
holder_gone() {
	[ -n "$id" ] && [ -n "$(system_line)" ] &&
		! awk -v id="$id" '$1 == id { f = 1 } END { exit !f }' $LISTING
}
lines_back() {
	cpu_lines_complete && [ "$cl" = "$cl0" ] &&
		[ -n "$sys0" ] && [ "$sys" = "$sys0" ]
}
power_back() { power_complete && [ "$pw" = "$pw0" ]; }

skip_idle() {	# skip_idle REASON: skip the results that need acpi_idle
	ktap_print_msg "$1"
	ktap_test_skip "no constraint: CPUs 2, 3 go deeper than $HOLD us, CPU 0 or 1 to the deepest"
	ktap_test_skip "$DEV accepts '$HOLD cpus=$HELD_LIST'"
	ktap_test_skip "listing names the holder with usecs $HOLD and cpus $HELD_LIST"
	ktap_test_skip "listing: CPUs $HELD_LIST at $HOLD us by the holder, the others unchanged"
	ktap_test_skip "listing: the system value is unchanged while it is held"
	ktap_test_skip "power files: CPUs $HELD_LIST show $HOLD, the others unchanged"
	ktap_test_skip "CPUs $HELD_LIST go no deeper than $HOLD us while held"
	ktap_test_skip "CPU 0 or 1 goes to the deepest state while held"
	ktap_test_skip "the holder is gone from the listing after close"
	ktap_test_skip "listing: per-CPU and system lines as before after close"
	ktap_test_skip "power files show the values from before after close"
	ktap_test_skip "CPUs $HELD_LIST go deeper than $HOLD us after close"
	ktap_finished
}

ktap_print_header

if [ ! -c "$DEV" ] || [ ! -r "$LISTING" ]; then
	ktap_skip_all "needs $DEV and $LISTING"
	exit "$KSFT_SKIP"
fi

ktap_set_plan $NTESTS

# 0: a constraint given on the command line (latency.cpus=<list>:<usecs>,
# which harness/run.sh passes) is held from boot as "boot:0".
boot_param=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^latency\.cpus=//p' | head -n 1)
boot_listed() {
	awk -v l="${boot_param%:*}" -v v="${boot_param##*:}" \
		'$1 == "boot:0" && $2 == v && $3 == l && $4 == "-" && $5 == "-"' \
		$LISTING | grep -q .
}
if [ -n "$boot_param" ]; then
	ktap_test_result "latency.cpus=$boot_param is held from boot as boot:0" \
		boot_listed
else
	ktap_test_skip "latency.cpus=<list>:<usecs> is held from boot (not on the command line)"
fi

# What the other holders of the system set, before this test holds anything.
cl0=$(cpu_lines)
sys0=$(system_line)
pw0=$(power_limits)
ktap_print_msg "before: cpu:usecs:holder $cl0; system $sys0; power files $pw0"

# 1-5: bad CPU lists, through a holder that holds nothing yet.
exec 3>"$DEV"
hl_open=$(own_holders)
for list in $BAD_LISTS; do
	write_dev "$HOLD $list"
	ktap_test_result "$DEV refuses '$HOLD $list' with EINVAL${werr:+ ($werr)}" \
		refused_einval
done
hl_bad=$(own_holders)
cl=$(cpu_lines)
sys=$(system_line)
ktap_test_result "refused writes set nothing: holder, per-CPU and system lines unchanged" \
	nothing_set
exec 3>&-

driver=$(cat $CPUIDLE/current_driver 2>/dev/null)
if [ "$driver" != acpi_idle ]; then
	skip_idle "acpi_idle is not the cpuidle driver (found '${driver:-none}')"
fi
for c in $FREE $HELD; do
	if [ ! -d "$(cpu_dir "$c")/cpuidle" ]; then
		skip_idle "needs CPUs 0 to 3 with cpuidle, CPU $c has none"
	fi
done
DEEP=$(deep_states | tr '\n' ' ')
DEEPEST=$(deepest_state)
if [ -z "$DEEP" ]; then
	skip_idle "no idle state deeper than $HOLD us (is harness/acpi/cst.asl loaded?)"
fi
for c in $FREE $HELD; do
	for st in $DEEP; do
		if [ ! -r "$(cpu_dir "$c")/cpuidle/state$st/usage" ]; then
			skip_idle "CPU $c has no idle state $st (a _CST for each CPU?)"
		fi
	done
done
ktap_print_msg "deep states (latency > $HOLD us): $DEEP; deepest: $DEEPEST;" \
	"governor: $(cat $CPUIDLE/current_governor 2>/dev/null)"

# 6
idle_window
msg="no constraint: CPUs 2, 3 go deeper than $HOLD us, CPU 0 or 1 to the deepest"
ktap_test_result "$msg${m:+ (}$m${m:+)}" deep_used

# 7-13: held for CPUs 2 and 3
exec 3>"$DEV"
write_dev "$HOLD cpus=$HELD_LIST"
ktap_test_result "$DEV accepts '$HOLD cpus=$HELD_LIST'${werr:+ ($werr)}" accepted
# A CPU woken by the notifier may count its last deep stay just after the
# write returns; observe from a fresh start.
sleep 1

own=$(own_holders)
id=$(echo "$own" | awk 'NR == 1 { print $1 }')
hl_usecs=$(echo "$own" | awk 'NR == 1 { print $2 }')
hl_cpus=$(echo "$own" | awk 'NR == 1 { print $3 }')
ktap_print_msg "holder: $own"
ktap_test_result "listing names the holder with usecs $HOLD and cpus $HELD_LIST" \
	holder_listed

cl=$(cpu_lines)
sys=$(system_line)
ktap_test_result "listing: CPUs $HELD_LIST at $HOLD us by the holder, the others unchanged ($cl)" \
	cpu_lines_held
ktap_test_result "listing: the system value is unchanged while it is held ($sys)" \
	system_unchanged

pw=$(power_limits)
ktap_test_result "power files: CPUs $HELD_LIST show $HOLD, the others unchanged ($pw)" \
	power_held

idle_window
msg="CPUs $HELD_LIST go no deeper than $HOLD us while held"
ktap_test_result "$msg${m_held:+ (}$m_held${m_held:+)}" held_frozen
ktap_test_result "CPU 0 or 1 goes to the deepest state while held${m_free:+ (}$m_free${m_free:+)}" \
	free_deepest_used

# 14-17: released
exec 3>&-
sleep 1
ktap_test_result "the holder is gone from the listing after close" holder_gone
cl=$(cpu_lines)
sys=$(system_line)
ktap_test_result "listing: per-CPU and system lines as before after close ($cl; $sys)" \
	lines_back
pw=$(power_limits)
ktap_test_result "power files show the values from before after close ($pw)" \
	power_back
idle_window
msg="CPUs $HELD_LIST go deeper than $HOLD us after close"
ktap_test_result "$msg${m_held:+ (}$m_held${m_held:+)}" each_held_moved

# 19: CPU 1's device resume latency (what tuned, DPDK and cri-o write) is a
# holder of CPU 1 too: its line shows the limit in force and names it.
RES=/sys/devices/system/cpu/cpu1/power/pm_qos_resume_latency_us
resume_named() {
	grep -q "^# cpu 1 10 cpu1/power/pm_qos_resume_latency_us\$" $LISTING
}
if [ -w $RES ]; then
	res_before=$(cat $RES)
	echo 10 >$RES
	ktap_test_result "CPU 1's resume latency of 10 us is named on its line" \
		resume_named
	echo "$res_before" >$RES
else
	ktap_test_fail "no $RES"
fi

ktap_finished
