# SPDX-License-Identifier: GPL-2.0-only
# Demo: ACPI idle stops using C-states deeper than a held constraint
# (sourced by /init; harness/acpi/cst.asl gives C1 1 us, C2 20 us, C3 200 us).

# shellcheck disable=SC2317  # the checks are called through demo_check

# Sum of the usage counters of the states named $1 on every CPU.
acpi_demo_usage() {
	acpi_demo_sum=0
	for acpi_demo_s in /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state*; do
		[ "$(cat "$acpi_demo_s/name")" = "$1" ] || continue
		acpi_demo_sum=$((acpi_demo_sum + $(cat "$acpi_demo_s/usage")))
	done
	echo "$acpi_demo_sum"
}

# Entries into C2 and C3 (all CPUs) during 2 s of idle, also left in
# acpi_demo_d2 and acpi_demo_d3 for the checks.
acpi_demo_window() {
	acpi_demo_c2=$(acpi_demo_usage C2)
	acpi_demo_c3=$(acpi_demo_usage C3)
	sleep 2
	acpi_demo_d2=$(($(acpi_demo_usage C2) - acpi_demo_c2))
	acpi_demo_d3=$(($(acpi_demo_usage C3) - acpi_demo_c3))
	echo "  C2 +$acpi_demo_d2, C3 +$acpi_demo_d3 entries in 2 s of idle"
}

acpi_demo_power_150() {
	[ "$(sed -n 's/^maximum allowed latency: \([0-9]*\) usec$/\1/p' \
		/proc/acpi/processor/*/power | sort -u)" = 150 ]
}

acpi_demo_held() {
	grep -q "^user:[0-9a-f]* 150 all $$ " /proc/latency_constraints &&
		grep -q "^# system 150 user:" /proc/latency_constraints
}

acpi_demo_released() {
	! grep -q "^user:[0-9a-f]* [0-9]* [^ ]* $$ " /proc/latency_constraints
}

echo
echo "== A user-space holder asks for 150 us; ACPI idle honours it (C3 exit latency: 200 us) =="
if [ "$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null)" != acpi_idle ] ||
   [ ! -c /dev/acceptable_latency ]; then
	echo "(skipped: acpi_idle or /dev/acceptable_latency missing)"
	demo_fail "acpi_idle or /dev/acceptable_latency missing"
else
	echo "governor: $(cat /sys/devices/system/cpu/cpuidle/current_governor)"
	echo "no constraint held:"
	acpi_demo_window
	demo_check "C3 is entered while no constraint is held" [ "$acpi_demo_d3" -gt 0 ]
	echo "\$ exec 3>/dev/acceptable_latency; echo 150 >&3"
	exec 3>/dev/acceptable_latency
	echo 150 >&3
	echo "\$ cat /proc/latency_constraints"
	cat /proc/latency_constraints
	demo_check "the holder is listed at 150 us and sets the system value" acpi_demo_held
	grep -h "maximum allowed latency" /proc/acpi/processor/*/power | sort -u |
		sed 's|^|/proc/acpi/processor/*/power: |'
	demo_check "every power file shows 150 usec" acpi_demo_power_150
	acpi_demo_window
	demo_check "no C3 entry while 150 us is held" [ "$acpi_demo_d3" -eq 0 ]
	demo_check "C2 (20 us) is still entered" [ "$acpi_demo_d2" -gt 0 ]
	echo "\$ exec 3>&-      # the holder lets go"
	exec 3>&-
	echo "\$ cat /proc/latency_constraints"
	cat /proc/latency_constraints
	demo_check "the holder is no longer listed" acpi_demo_released
	acpi_demo_window
	demo_check "C3 is entered again once the holder let go" [ "$acpi_demo_d3" -gt 0 ]
fi
unset acpi_demo_sum acpi_demo_s acpi_demo_c2 acpi_demo_c3 acpi_demo_d2 acpi_demo_d3
unset -f acpi_demo_usage acpi_demo_window acpi_demo_power_150 acpi_demo_held
unset -f acpi_demo_released
