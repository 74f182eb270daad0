#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# harness/idle-insns.sh KBUILD: compile drivers/cpuidle/cpuidle.c from the
# pristine base with the command kbuild used for the patched one, and
# print what the series adds to cpuidle_enter_state(), which every idle
# entry of every cpuidle driver runs: the instruction counts of both, and
# the instructions of the common path (no demotion) from the first store
# to latency_idle to the branch past the demotion, which is not taken.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
kbuild=$1
tree=$top/build/linux-source-6.12
src=drivers/cpuidle/cpuidle.c
pristine=$top/build/pristine/$src
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmd=$(sed -n 's/^savedcmd_drivers\/cpuidle\/cpuidle.o := //p' \
	"$kbuild/drivers/cpuidle/.cpuidle.o.cmd" | sed 's/;.*//')
cmd=$(echo "$cmd" | sed "s|-Wp,-MMD,[^ ]*||; s| -o drivers/cpuidle/cpuidle.o | -o $tmp/base.o |; s| [^ ]*$src *\$| -I$tree/drivers/cpuidle $pristine|")
(cd "$kbuild" && eval "$cmd")

count() {
	objdump -d --no-show-raw-insn "$1" --disassemble=cpuidle_enter_state |
		grep -c '^ *[0-9a-f]*:	'
}
echo "cpuidle_enter_state(): $(count "$tmp/base.o") instructions in 6.12, $(count "$kbuild/drivers/cpuidle/cpuidle.o") with the series"
echo "added to the common path, from the first store to latency_idle (after"
echo "the exit latencies are loaded) to the branch past the demotion, not taken:"
objdump -dr --no-show-raw-insn "$kbuild/drivers/cpuidle/cpuidle.o" \
	--disassemble=cpuidle_enter_state |
	awk '/R_X86_64.*latency_idle/ && !on { on = 1; print prev }
	     on { print }
	     on && /__system_latency_constraint/ { seen = 1 }
	     seen && /\tj[a-z]+ / { exit }
	     { prev = $0 }' |
	grep -v 'R_X86_64' | sed 's/^ *[0-9a-f]*:\t//; s/^\t*//; s/ *#.*//'
echo "and on exit, the two stores of latency_idle_exit()."
