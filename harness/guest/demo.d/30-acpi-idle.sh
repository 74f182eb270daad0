# SPDX-License-Identifier: GPL-2.0-only
# Demo: ACPI idle stops using C-states deeper than a held constraint
# (sourced by /init; harness/acpi/cst.asl gives C1 1 us, C2 20 us, C3 200 us).

# Sum of the usage counters of the states named $1 on every CPU.
acpi_demo_usage() {
	acpi_demo_sum=0
	for acpi_demo_s in /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state*; do
		[ "$(cat "$acpi_demo_s/name")" = "$1" ] || continue
		acpi_demo_sum=$((acpi_demo_sum + $(cat "$acpi_demo_s/usage")))
	done
	echo "$acpi_demo_sum"
}

# Entries into C2 and C3 (all CPUs) during 2 s of idle.
acpi_demo_window() {
	acpi_demo_c2=$(acpi_demo_usage C2)
	acpi_demo_c3=$(acpi_demo_usage C3)
	sleep 2
	echo "  C2 +$(($(acpi_demo_usage C2) - acpi_demo_c2))," \
	     "C3 +$(($(acpi_demo_usage C3) - acpi_demo_c3)) entries in 2 s of idle"
}

echo
echo "== A user-space holder asks for 150 us; ACPI idle honours it (C3 exit latency: 200 us) =="
if [ "$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null)" != acpi_idle ] ||
   [ ! -c /dev/acceptable_latency ]; then
	echo "(skipped: acpi_idle or /dev/acceptable_latency missing)"
else
	echo "governor: $(cat /sys/devices/system/cpu/cpuidle/current_governor)"
	echo "no constraint held:"
	acpi_demo_window
	echo "\$ exec 3>/dev/acceptable_latency; echo 150 >&3"
	exec 3>/dev/acceptable_latency
	echo 150 >&3
	echo "\$ cat /proc/latency_constraints"
	cat /proc/latency_constraints
	grep -h "maximum allowed latency" /proc/acpi/processor/*/power | sort -u |
		sed 's|^|/proc/acpi/processor/*/power: |'
	acpi_demo_window
	echo "\$ exec 3>&-      # the holder lets go"
	exec 3>&-
	echo "\$ cat /proc/latency_constraints"
	cat /proc/latency_constraints
	acpi_demo_window
fi
unset acpi_demo_sum acpi_demo_s acpi_demo_c2 acpi_demo_c3
unset -f acpi_demo_usage acpi_demo_window
