# SPDX-License-Identifier: GPL-2.0-only
# Demo: a constraint for one CPU keeps that CPU shallow and lets the others
# sleep deep (sourced by /init; C1 1 us, C2 20 us, C3 200 us).

# shellcheck disable=SC2317  # the checks are called through demo_check

# Entries into C2 and C3 of CPU $1 during the last window.
percpu_demo_usage() {
	percpu_demo_n=0
	for percpu_demo_s in /sys/devices/system/cpu/cpu"$1"/cpuidle/state*; do
		case $(cat "$percpu_demo_s/name") in
		C2|C3) percpu_demo_n=$((percpu_demo_n + $(cat "$percpu_demo_s/usage"))) ;;
		esac
	done
	echo "$percpu_demo_n"
}

# Entries into C2 and C3 of CPUs 0 and 1 during 2 s of idle, also left in
# percpu_demo_d0 and percpu_demo_d1 for the checks.
percpu_demo_window() {
	percpu_demo_0=$(percpu_demo_usage 0)
	percpu_demo_1=$(percpu_demo_usage 1)
	sleep 2
	percpu_demo_d0=$(($(percpu_demo_usage 0) - percpu_demo_0))
	percpu_demo_d1=$(($(percpu_demo_usage 1) - percpu_demo_1))
	echo "  CPU 0: C2+C3 +$percpu_demo_d0, CPU 1: C2+C3 +$percpu_demo_d1 entries in 2 s of idle"
}

# The power file of CPU $1 shows a limit of $2 usec.
percpu_demo_power() {
	grep -q "^maximum allowed latency: $2 usec\$" "/proc/acpi/processor/CPU$1/power"
}

percpu_demo_power_not() {
	! percpu_demo_power "$@"
}

percpu_demo_held() {
	grep -q "^user:[0-9a-f]* 15 1 $$ " /proc/latency_constraints &&
		grep -q "^# cpu 1 15 user:" /proc/latency_constraints &&
		! grep -q "^# cpu 0 15 " /proc/latency_constraints
}

echo
echo "== A holder for CPU 1 only: 15 us there, CPU 0 keeps its deep states =="
if [ "$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null)" != acpi_idle ] ||
   [ ! -d /sys/devices/system/cpu/cpu1/cpuidle ] || [ ! -c /dev/acceptable_latency ]; then
	echo "(skipped: acpi_idle on two CPUs or /dev/acceptable_latency missing)"
	demo_fail "acpi_idle on two CPUs or /dev/acceptable_latency missing"
else
	echo "\$ exec 3>/dev/acceptable_latency; echo 15 cpus=1 >&3"
	exec 3>/dev/acceptable_latency
	echo 15 cpus=1 >&3
	echo "\$ cat /proc/latency_constraints"
	cat /proc/latency_constraints
	demo_check "the holder is listed for CPU 1 alone, at 15 us" percpu_demo_held
	for percpu_demo_f in /proc/acpi/processor/*/power; do
		echo "$percpu_demo_f: $(grep "maximum allowed latency" "$percpu_demo_f")"
	done
	demo_check "CPU 1's power file shows 15 usec" percpu_demo_power 1 15
	demo_check "CPU 0's power file does not" percpu_demo_power_not 0 15
	percpu_demo_window
	demo_check "CPU 1 enters neither C2 nor C3 while 15 us is held there" \
		[ "$percpu_demo_d1" -eq 0 ]
	demo_check "CPU 0 still enters C2 or C3" [ "$percpu_demo_d0" -gt 0 ]
	echo "\$ exec 3>&-      # the holder lets go"
	exec 3>&-
	percpu_demo_window
	demo_check "CPU 1 enters C2 or C3 again once the holder let go" \
		[ "$percpu_demo_d1" -gt 0 ]
fi
unset percpu_demo_n percpu_demo_s percpu_demo_0 percpu_demo_1 percpu_demo_f
unset percpu_demo_d0 percpu_demo_d1
unset -f percpu_demo_usage percpu_demo_window percpu_demo_power percpu_demo_held
unset -f percpu_demo_power_not
