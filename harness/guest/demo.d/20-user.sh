#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Demo: a shell holds a latency constraint through /dev/acceptable_latency
# for as long as its file descriptor is open (sourced by /init).
echo
echo "== User space holds a constraint while its fd is open =="
if [ -c /dev/acceptable_latency ]; then
	echo '$ exec 3>/dev/acceptable_latency; echo 150 >&3'
	exec 3>/dev/acceptable_latency
	echo 150 >&3
	echo '$ cat /proc/latency_constraints'
	cat /proc/latency_constraints
	echo '$ cat /dev/acceptable_latency'
	cat /dev/acceptable_latency
	echo '$ exec 3>&-; cat /proc/latency_constraints'
	exec 3>&-
	cat /proc/latency_constraints
else
	echo "/dev/acceptable_latency is missing"
fi
