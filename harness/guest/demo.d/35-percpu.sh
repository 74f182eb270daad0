# SPDX-License-Identifier: GPL-2.0-only
# Demo: a constraint for one CPU keeps that CPU shallow and lets the others
# sleep deep (sourced by /init; C1 1 us, C2 20 us, C3 200 us).

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

percpu_demo_window() {
	percpu_demo_0=$(percpu_demo_usage 0)
	percpu_demo_1=$(percpu_demo_usage 1)
	sleep 2
	echo "  CPU 0: C2+C3 +$(($(percpu_demo_usage 0) - percpu_demo_0))," \
	     "CPU 1: C2+C3 +$(($(percpu_demo_usage 1) - percpu_demo_1)) entries in 2 s of idle"
}

echo
echo "== A holder for CPU 1 only: 15 us there, CPU 0 keeps its deep states =="
if [ "$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null)" != acpi_idle ] ||
   [ ! -d /sys/devices/system/cpu/cpu1/cpuidle ] || [ ! -c /dev/acceptable_latency ]; then
	echo "(skipped: acpi_idle on two CPUs or /dev/acceptable_latency missing)"
else
	echo "\$ exec 3>/dev/acceptable_latency; echo 15 cpus=1 >&3"
	exec 3>/dev/acceptable_latency
	echo 15 cpus=1 >&3
	echo "\$ cat /proc/latency_constraints"
	cat /proc/latency_constraints
	for percpu_demo_f in /proc/acpi/processor/*/power; do
		echo "$percpu_demo_f: $(grep "maximum allowed latency" "$percpu_demo_f")"
	done
	percpu_demo_window
	echo "\$ exec 3>&-      # the holder lets go"
	exec 3>&-
	percpu_demo_window
fi
unset percpu_demo_n percpu_demo_s percpu_demo_0 percpu_demo_1 percpu_demo_f
unset -f percpu_demo_usage percpu_demo_window
