# SPDX-License-Identifier: GPL-2.0-only
# Demo: the registry as the kernel booted it (sourced by /init).
echo
echo "== The latency-constraint registry after boot =="
echo "$ uname -r"
uname -r
echo "$ cat /proc/latency_constraints"
cat /proc/latency_constraints
echo "$ cat /sys/module/latency/parameters/kernel   # boot parameter latency.kernel="
cat /sys/module/latency/parameters/kernel
