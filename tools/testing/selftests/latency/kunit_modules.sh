#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The registry's KUnit suites, when they are built as modules: load each,
# report each of its cases as a TAP line, unload it.  A kernel with the
# suites built in runs them at boot instead (and prints their KTAP there);
# then every suite here is a skip.  ipw2100.sh does the same for the
# producer's suite, between its own checks.
#
# Output: TAP version 13; the plan comes last because the number of KUnit
# cases is only known once each suite has run.

n=0

ok() {
	n=$((n + 1))
	echo "ok $n - $*"
}

not_ok() {
	n=$((n + 1))
	echo "not ok $n - $*"
}

skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

# has_module NAME: NAME.ko is installed for the running kernel
has_module() {
	[ -n "$(find "/lib/modules/$(uname -r)" -name "$1.ko*" 2>/dev/null)" ]
}

# Run a command with the console quiet, so that the KTAP lines a KUnit
# module prints are not mixed into our TAP output on a serial console.
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

echo "TAP version 13"

# module:suite, one per KUnit suite of the registry and its consumer
for pair in latency_test:latency processor_idle_test:acpi_idle_latency; do
	mod=${pair%%:*} suite=${pair#*:}
	if ! has_module "$mod"; then
		skip "KUnit suite $suite" "$mod is not a module (run at boot)"
		continue
	fi
	rmmod "$mod" 2>/dev/null
	if ! quiet_console modprobe "$mod"; then
		not_ok "modprobe $mod"
		continue
	fi
	out=$(results "$suite")
	if [ -z "$out" ]; then
		not_ok "KUnit suite $suite printed no results"
	else
		# One TAP line per case: "    ok 3 name # SKIP why".
		echo "$out" |
			sed -n 's/^    \(\(not \)\{0,1\}ok\) [0-9]* /\1 /p' \
			>/tmp/kunit_modules.$$
		while read -r status rest; do
			case "$status" in
			ok)	ok "$suite: $rest" ;;
			*)	not_ok "$suite: ${rest#ok }" ;;
			esac
		done </tmp/kunit_modules.$$
		rm -f /tmp/kunit_modules.$$
		if echo "$out" | grep -q "^ok [0-9]* $suite\( \|$\)"; then
			ok "KUnit suite $suite"
		else
			not_ok "KUnit suite $suite"
		fi
	fi
	if rmmod "$mod"; then ok "rmmod $mod"; else not_ok "rmmod $mod"; fi
done

echo "1..$n"
