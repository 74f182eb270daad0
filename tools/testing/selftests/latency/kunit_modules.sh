#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The registry's KUnit suites, when they are built as modules: load each,
# report each of its cases as a result, unload it.  A suite built in runs
# at boot instead, where its KTAP is printed and counted: here it gives no
# result (not a skip, which would count a second time what ran, or say
# that something did not run), only a diagnostic line.  With every suite
# built in, the plan is 1..0 and the exit code 0.  ipw2100.sh does the same
# for the producer's suite, between its own checks.
#
# KTAP output through kselftest/ktap_helpers.sh; the plan comes last
# because the number of KUnit cases is only known once each suite has run.
# A short run is caught by whoever reads the results against the number
# expected (make test: harness/manifest/).

DIR=$(dirname "$(readlink -f "$0")")
# shellcheck source=/dev/null
. "$DIR/../kselftest/ktap_helpers.sh"

# has_module NAME: NAME.ko is installed for the running kernel
has_module() {
	[ -n "$(find "/lib/modules/$(uname -r)" -name "$1.ko*" 2>/dev/null)" ]
}

# Run a command with the console quiet, so that the KTAP lines a KUnit
# module prints are not mixed into our KTAP output on a serial console.
quiet_console() {
	saved=$(awk '{ print $1 }' /proc/sys/kernel/printk 2>/dev/null)
	[ -n "$saved" ] && echo 1 >/proc/sys/kernel/printk
	"$@"
	rc=$?
	[ -n "$saved" ] && echo "$saved" >/proc/sys/kernel/printk
	return $rc
}

# results SUITE: the suite's last KTAP block, "# Subtest:" to its result
results() {
	r=/sys/kernel/debug/kunit/$1/results
	if [ -r "$r" ]; then
		cat "$r"
	else
		dmesg | sed 's/^\[[^]]*\] \{0,1\}//'
	fi | awk -v s="$1" '
		$0 ~ "^    # Subtest: " s "$" { buf = ""; on = 1 }
		on { buf = buf $0 "\n" }
		on && $0 ~ "^(not )?ok [0-9]+ " s "( |$)" { last = buf; on = 0 }
		END { printf "%s", last }'
}

# The suite's own result line says ok.
suite_passed() {
	echo "$out" | grep -q "^ok [0-9]* $suite\( \|$\)"
}

ktap_print_header

# module:suite, one per KUnit suite of the registry and its consumer
for pair in latency_test:latency cpuidle_latency_test:cpuidle_latency; do
	mod=${pair%%:*} suite=${pair#*:}
	if ! has_module "$mod"; then
		ktap_print_msg "$mod is not a module: suite $suite runs at boot" \
			"when built in, and is counted there"
		continue
	fi
	rmmod "$mod" 2>/dev/null
	if ! quiet_console modprobe "$mod"; then
		ktap_test_fail "modprobe $mod"
		continue
	fi
	out=$(results "$suite")
	if [ -z "$out" ]; then
		ktap_test_fail "KUnit suite $suite printed no results"
	else
		# One result per case: "    ok 3 name # SKIP why".  Read from
		# a file, not a pipe: the loop must run in this shell, which
		# counts.
		echo "$out" |
			sed -n 's/^    \(\(not \)\{0,1\}ok\) [0-9]* /\1 /p' \
			>/tmp/kunit_modules.$$
		while read -r status rest; do
			case $status:$rest in
			ok:*" # SKIP"*)
				printf '# %s: %s\n' "$suite" "$rest"
				ktap_test_skip "$suite: ${rest%% # SKIP*}"
				;;
			ok:*)	ktap_test_pass "$suite: $rest" ;;
			*)	ktap_test_fail "$suite: ${rest#ok }" ;;
			esac
		done </tmp/kunit_modules.$$
		rm -f /tmp/kunit_modules.$$
		ktap_test_result "KUnit suite $suite" suite_passed
	fi
	ktap_test_result "rmmod $mod" rmmod "$mod"
done

# The plan, last: as many results as were printed, none when no suite is
# a module.
ktap_set_plan "$((KTAP_TESTNO - 1))"
ktap_finished
