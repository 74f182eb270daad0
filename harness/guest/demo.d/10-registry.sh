# SPDX-License-Identifier: GPL-2.0-only
# Demo: the registry as the kernel booted it (sourced by /init).

# shellcheck disable=SC2317  # the checks are called through demo_check

# The "kernel" holder is listed with the value of latency.kernel=, and the
# system value is the least of the holders for all CPUs.
registry_demo_kernel_listed() {
	grep -q "^kernel $(cat /sys/module/latency/parameters/kernel) all - -\$" \
		/proc/latency_constraints
}

registry_demo_system_least() {
	[ "$(awk '/^# system / { print $3 }' /proc/latency_constraints)" = \
	  "$(awk '!/^#/ && $3 == "all" { print $2 }' /proc/latency_constraints | sort -n | head -n 1)" ]
}

echo
echo "== The latency-constraint registry after boot =="
echo "$ uname -r"
uname -r
echo "$ cat /proc/latency_constraints"
cat /proc/latency_constraints
echo "$ cat /sys/module/latency/parameters/kernel   # boot parameter latency.kernel="
cat /sys/module/latency/parameters/kernel
demo_check "the kernel holder is listed with latency.kernel=" registry_demo_kernel_listed
demo_check "the system value is the least holder's" registry_demo_system_least
unset -f registry_demo_kernel_listed registry_demo_system_least
