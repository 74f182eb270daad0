# SPDX-License-Identifier: GPL-2.0-only
# Demo: a system wakeup holder (/dev/cpu_wakeup_latency, as in 6.19) keeps
# suspend-to-idle out of C3 (200 us); the guest really suspends, woken by
# ACPI's power button, which the host presses through QEMU's monitor when
# the console says "PM: suspend-to-idle" (harness/boot.sh; sourced by
# /init; C2 20 us, C3 200 us).

# shellcheck disable=SC2317  # the checks are called through demo_check

# Entries into C3 in s2idle, every CPU.
s2idle_demo_c3() {
	s2idle_demo_n=0
	for s2idle_demo_s in /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state*; do
		[ "$(cat "$s2idle_demo_s/name")" = C3 ] && [ -f "$s2idle_demo_s/s2idle/usage" ] &&
			s2idle_demo_n=$((s2idle_demo_n + $(cat "$s2idle_demo_s/s2idle/usage")))
	done
	echo "$s2idle_demo_n"
}

# Suspend to idle for 2 s; s2idle_demo_d: the C3 entries meanwhile.
s2idle_demo_suspend() {
	s2idle_demo_0=$(s2idle_demo_c3)
	echo "\$ echo freeze >/sys/power/state     # the host's power button wakes it"
	# The message the host waits for: a debug one, on the console
	# during the suspend.
	echo 1 >/sys/power/pm_debug_messages
	echo N >/sys/module/printk/parameters/console_suspend
	s2idle_demo_l=$(cut -f1 /proc/sys/kernel/printk)
	echo 8 >/proc/sys/kernel/printk
	echo freeze >/sys/power/state
	echo "$s2idle_demo_l" >/proc/sys/kernel/printk
	echo Y >/sys/module/printk/parameters/console_suspend
	echo 0 >/sys/power/pm_debug_messages
	s2idle_demo_d=$(($(s2idle_demo_c3) - s2idle_demo_0))
	echo "  C3 entered $s2idle_demo_d times in suspend-to-idle"
}

s2idle_demo_listed() {
	grep -q "^# wakeup user:[0-9a-f]* 100 all $$ " /proc/latency_constraints &&
		grep -q "^# s2idle 100 user:" /proc/latency_constraints
}

echo
echo "== Suspend-to-idle honours the system wakeup limit (/dev/cpu_wakeup_latency) =="
if [ ! -c /dev/cpu_wakeup_latency ] || ! grep -qw freeze /sys/power/state ||
   [ ! -w /sys/power/pm_debug_messages ] || [ "$(s2idle_demo_c3)" = "" ]; then
	echo "(skipped: /dev/cpu_wakeup_latency, s2idle or PM_DEBUG missing)"
	demo_fail "/dev/cpu_wakeup_latency, s2idle or PM_DEBUG missing"
else
	s2idle_demo_suspend
	demo_check "with no wakeup holder, s2idle enters C3" [ "$s2idle_demo_d" -gt 0 ]
	echo "\$ exec 3>/dev/cpu_wakeup_latency; printf 00000064 >&3     # 100 us, hex"
	exec 3>/dev/cpu_wakeup_latency
	printf 00000064 >&3
	echo "\$ grep -e '^# wakeup' -e '^# s2idle' /proc/latency_constraints"
	grep -e '^# wakeup' -e '^# s2idle' /proc/latency_constraints
	demo_check "the holder and the s2idle limit are listed" s2idle_demo_listed
	s2idle_demo_suspend
	demo_check "under 100 us, s2idle never enters C3" [ "$s2idle_demo_d" -eq 0 ]
	exec 3>&-
fi
unset s2idle_demo_n s2idle_demo_s s2idle_demo_0 s2idle_demo_d s2idle_demo_l
unset -f s2idle_demo_c3 s2idle_demo_suspend s2idle_demo_listed
