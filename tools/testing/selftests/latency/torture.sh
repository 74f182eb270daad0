#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The registry's torture test (kernel/latency_torture.c): threads and a
# hard-interrupt timer change constraints at random while CPUs go offline
# and online; after every synchronous call, no online CPU the caller's
# constraint covers may be idle deeper than it allows.  The module runs
# when loaded and prints one line of counts, turned into results here.
#
# "latency_torture.duration=N" on the kernel command line sets the
# seconds it runs (default 10); make test-rt and make test-kcsan run it
# longer.  KTAP output through kselftest/ktap_helpers.sh.

DIR=$(dirname "$(readlink -f "$0")")
# shellcheck source=/dev/null
. "$DIR/../kselftest/ktap_helpers.sh"

MOD=latency_torture
duration=10
for arg in $(cat /proc/cmdline); do
	case $arg in
	latency_torture.duration=*) duration=${arg#*=} ;;
	esac
done

ktap_print_header

if [ -z "$(find "/lib/modules/$(uname -r)" -name "$MOD.ko*" 2>/dev/null)" ]; then
	ktap_skip_all "$MOD is not a module of this kernel"
	exit "$KSFT_SKIP"
fi

ktap_set_plan 4

rmmod $MOD 2>/dev/null
dmesg -c >/dev/null
ktap_test_result "modprobe $MOD duration=$duration" \
	modprobe $MOD duration="$duration"
line=$(dmesg | sed -n "s/.*$MOD: changes=/changes=/p" | tail -n 1)
ktap_print_msg "$line"
dmesg | grep "$MOD: CPU" | head -n 5 | sed 's/^/# /'
rmmod $MOD 2>/dev/null
count() { echo "$line" | sed -n "s/.*$1=\([0-9]*\).*/\1/p"; }
changes=$(count changes)
checks=$(count checks)
violations=$(count violations)
some_changes() { [ "${changes:-0}" -gt 0 ]; }
some_checks() { [ "${checks:-0}" -gt 0 ]; }
no_violation() { [ -n "$violations" ] && [ "$violations" -eq 0 ]; }
ktap_test_result "constraints changed ($changes)" some_changes
ktap_test_result "synchronous calls checked ($checks CPU checks)" some_checks
ktap_test_result "no CPU idle too deep after a synchronous call ($violations)" \
	no_violation
ktap_finished
