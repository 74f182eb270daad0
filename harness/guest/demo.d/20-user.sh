#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Demo: a shell holds a latency constraint through /dev/acceptable_latency
# for as long as its file descriptor is open.  Sourced by the guest's demo.

if [ -c /dev/acceptable_latency ] && [ -r /proc/latency_constraints ]; then
	echo "== user space: who holds a latency constraint? =="
	cat /proc/latency_constraints
	echo "-- shell $$: exec 3>/dev/acceptable_latency; echo 150 >&3"
	exec 3>/dev/acceptable_latency
	echo 150 >&3
	cat /proc/latency_constraints
	echo "-- read back: $(cat /dev/acceptable_latency) us; now exec 3>&-"
	exec 3>&-
	cat /proc/latency_constraints
else
	echo "== user space: /dev/acceptable_latency missing =="
fi
