#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# harness/idle-insns.sh KBUILD: compile drivers/acpi/processor_idle.c from
# the pristine base with the command kbuild used for the patched one, and
# print acpi_idle_enter()'s instructions that the series added (the common
# path runs those up to the first jg; the rest is the demotion path).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
kbuild=$1
tree=$top/build/linux-source-6.12
pristine=$top/build/pristine/drivers/acpi/processor_idle.c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmd=$(sed -n 's/^savedcmd_drivers\/acpi\/processor_idle.o := //p' \
	"$kbuild/drivers/acpi/.processor_idle.o.cmd" | sed 's/;.*//')
cmd=$(echo "$cmd" | sed "s|-Wp,-MMD,[^ ]*||; s| -o drivers/acpi/processor_idle.o | -o $tmp/base.o |; s| [^ ]*drivers/acpi/processor_idle.c *\$| -I$tree/drivers/acpi $pristine|")
(cd "$kbuild" && eval "$cmd")

dis() {
	objdump -d --no-show-raw-insn "$1" --disassemble=acpi_idle_enter |
		sed -n 's/^ *[0-9a-f]*:\t//p' | sed 's/ *#.*//; s/0x[0-9a-f]*/N/g; s/[0-9a-f]\{6,\} <[^>]*>/L/g'
}
dis "$tmp/base.o" >"$tmp/base.s"
dis "$kbuild/drivers/acpi/processor_idle.o" >"$tmp/new.s"
echo "acpi_idle_enter(): $(wc -l <"$tmp/base.s") instructions in 6.12, $(wc -l <"$tmp/new.s") with the series"
echo "added to the common path (no demotion), from the read of the constraint"
echo "to the branch to acpi_idle_enter_demoted(), which is not taken:"
objdump -dr --no-show-raw-insn "$kbuild/drivers/acpi/processor_idle.o" \
	--disassemble=acpi_idle_enter |
	awk '/__system_latency_constraint/ { on = 1; print prev; next }
	     on { print } on && /\tj[a-z]+ / { exit } { prev = $0 }' |
	sed 's/^ *[0-9a-f]*:\t//; s/^\t*//'
