# SPDX-License-Identifier: GPL-2.0-only
# Demo: ipw2100 holds one latency constraint per adapter, none per module.
# Sourced by the demo runner (busybox sh); prints a short story.

# shellcheck disable=SC2317  # the checks are called through demo_check

ipw_registry() {
	if [ -r /proc/latency_constraints ]; then
		cat /proc/latency_constraints
	elif [ -e /dev/acceptable_latency ]; then
		echo "system $(cat /dev/acceptable_latency 2>/dev/null)"
	fi
}

ipw_unchanged() {
	[ "$(ipw_registry)" = "$ipw_before" ]
}

echo
echo "== ipw2100: a 175 usec constraint per adapter, only while it is up =="
if [ -z "$(find "/lib/modules/$(uname -r)" -name 'ipw2100.ko*' 2>/dev/null)" ]; then
	echo "ipw2100 is not built as a module; nothing to show"
	demo_fail "ipw2100 is not built as a module"
else
	ipw_before=$(ipw_registry)
	modprobe ipw2100 2>&1 | head -n 2
	echo "loaded ipw2100 (no adapter here, so no probe):"
	ipw_registry | sed 's/^/  /'
	demo_check "loaded with no adapter, ipw2100 holds nothing" ipw_unchanged
	rmmod ipw2100
	if ipw_unchanged; then
		echo "unloaded: registry unchanged, nothing named ipw2100 was left"
	else
		echo "unloaded: REGISTRY CHANGED"
	fi
	demo_check "unloaded, the registry is as before" ipw_unchanged
	echo "with an adapter it holds ipw2100:<PCI name>: 175 usec while up,"
	echo "relaxed when down, removed on unplug (KUnit suite ipw2100_latency)."
	unset ipw_before
fi
unset -f ipw_registry ipw_unchanged
