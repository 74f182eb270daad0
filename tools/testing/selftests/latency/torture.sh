#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The registry's torture test (kernel/latency_torture.c): threads and a
# hard-interrupt timer change constraints at random while CPUs go offline
# and online; after every synchronous call, no online CPU the caller's
# constraint covers may be idle deeper than it allows.  A module runs
# when loaded; built in (the arm64 guest, which has no modules), it ran at
# boot.  Its counts, read from its parameters, are turned into results.
#
# "latency_torture.duration=N" on the kernel command line sets the
# seconds it runs (module: default 10; built in: 0, it does not run);
# make test-rt and make test-kcsan run it longer.  The check that no CPU
# is left too deep settles up to 100 ms, so it can fail only where an idle
# CPU sleeps longer than that: with a periodic tick (no CPU in nohz mode,
# /proc/timer_list) every CPU leaves its state within a tick, and the
# check is reported as not run instead of counted (the tickless arm64
# guest runs it).  KTAP output through kselftest/ktap_helpers.sh.

DIR=$(dirname "$(readlink -f "$0")")
# shellcheck source=/dev/null
. "$DIR/../kselftest/ktap_helpers.sh"

MOD=latency_torture
PARAMS=/sys/module/$MOD/parameters
duration=10
for arg in $(cat /proc/cmdline); do
	case $arg in
	latency_torture.duration=*) duration=${arg#*=} ;;
	esac
done

ktap_print_header

module=
if [ -n "$(find "/lib/modules/$(uname -r)" -name "$MOD.ko*" 2>/dev/null)" ]; then
	module=1
elif [ ! -r $PARAMS/violations ]; then
	ktap_skip_all "$MOD is neither a module of this kernel nor built in"
	exit "$KSFT_SKIP"
elif [ "$(cat $PARAMS/duration)" -lt 1 ]; then
	ktap_skip_all "$MOD is built in, and latency_torture.duration= is not given"
	exit "$KSFT_SKIP"
fi

# Once: a CPU enters nohz mode lazily, the plan and the results agree.
tickless=
grep -q '^ *\.nohz *: 1$' /proc/timer_list 2>/dev/null && tickless=1
if [ -n "$tickless" ]; then
	ktap_set_plan 4
else
	ktap_set_plan 3
fi

if [ -n "$module" ]; then
	rmmod $MOD 2>/dev/null
	dmesg -c >/dev/null
	ktap_test_result "modprobe $MOD duration=$duration" \
		modprobe $MOD duration="$duration"
else
	ran_at_boot() { [ "$(cat $PARAMS/changes)" -gt 0 ]; }
	ktap_test_result "built in, ran at boot for $duration s" ran_at_boot
fi
changes=$(cat $PARAMS/changes 2>/dev/null)
checks=$(cat $PARAMS/checks 2>/dev/null)
violations=$(cat $PARAMS/violations 2>/dev/null)
ktap_print_msg "changes=$changes checks=$checks violations=$violations" \
	"offline=$(cat $PARAMS/offline 2>/dev/null)"
dmesg | grep "$MOD: CPU" | head -n 5 | sed 's/^/# /'
[ -n "$module" ] && rmmod $MOD 2>/dev/null
some_changes() { [ "${changes:-0}" -gt 0 ]; }
some_checks() { [ "${checks:-0}" -gt 0 ]; }
no_violation() { [ -n "$violations" ] && [ "$violations" -eq 0 ]; }
ktap_test_result "constraints changed ($changes)" some_changes
ktap_test_result "synchronous calls checked ($checks CPU checks)" some_checks
if [ -n "$tickless" ]; then
	ktap_test_result "no CPU idle too deep after a synchronous call ($violations)" \
		no_violation
else
	ktap_print_msg "not run: no CPU idle too deep after a synchronous call" \
		"($violations; with a periodic tick no CPU stays past the settle time)"
fi
ktap_finished
