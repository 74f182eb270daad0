/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cst.asl - give QEMU's CPUs C-states, so that acpi_idle becomes the cpuidle
 * driver and the latency constraint has something to forbid.
 *
 * QEMU 7.2 -M pc declares its CPUs as Processor() objects \_SB.CPUS.C000,
 * C001, ... without _CST.  This SSDT adds one:
 *
 *   C1  FFixedHW                     latency   1 us  ("ACPI HLT")
 *   C2  SystemIO 0x614 (PMBASE+0x14) latency  20 us
 *   C3  SystemIO 0x615 (PMBASE+0x15) latency 200 us
 *
 * The C2/C3 "entries" are reads of I/O ports that QEMU does not implement:
 * the vCPU does not sleep any deeper than with HLT.  Use them only to see
 * which state the kernel selected: the usage counters
 * /sys/devices/system/cpu/cpuN/cpuidle/stateM/usage.  With C2/C3 present the
 * kernel declares the TSC unstable and switches to hpet: expected.
 *
 * One Scope per vCPU, up to 4: harness/boot.sh defines CPU1, CPU2, CPU3
 * (iasl -D) for those QEMU declares.  A CPU that QEMU did not declare must
 * not be named here: a Scope (\_SB.CPUS.C002) still lets the table load,
 * but logs "ACPI BIOS Error (bug): Could not resolve symbol
 * [\_SB.CPUS.C002]".
 */
DefinitionBlock ("", "SSDT", 2, "LATNCY", "ACPICST", 0x00000001)
{
	External (\_SB.CPUS.C000, ProcessorObj)
#ifdef CPU1
	External (\_SB.CPUS.C001, ProcessorObj)
#endif
#ifdef CPU2
	External (\_SB.CPUS.C002, ProcessorObj)
#endif
#ifdef CPU3
	External (\_SB.CPUS.C003, ProcessorObj)
#endif

	/* The _CST package shared by every CPU (ACPI 6.4, 8.4.1.1). */
	Method (LCST, 0, NotSerialized)
	{
		Return (Package (0x04) {
			0x03,
			Package (0x04) {
				ResourceTemplate () {
					Register (FFixedHW, 0x00, 0x00,
						  0x0000000000000000, ,)
				},
				0x01,		/* C1 */
				0x0001,		/* latency, us */
				0x000003E8	/* power, mW */
			},
			Package (0x04) {
				ResourceTemplate () {
					Register (SystemIO, 0x08, 0x00,
						  0x0000000000000614, ,)
				},
				0x02,		/* C2 */
				0x0014,		/* 20 us */
				0x000001F4
			},
			Package (0x04) {
				ResourceTemplate () {
					Register (SystemIO, 0x08, 0x00,
						  0x0000000000000615, ,)
				},
				0x03,		/* C3 */
				0x00C8,		/* 200 us */
				0x00000064
			}
		})
	}

	Scope (\_SB.CPUS.C000)
	{
		Method (_CST, 0, NotSerialized)
		{
			Return (\LCST ())
		}
	}

#ifdef CPU1
	Scope (\_SB.CPUS.C001)
	{
		Method (_CST, 0, NotSerialized)
		{
			Return (\LCST ())
		}
	}
#endif
#ifdef CPU2
	Scope (\_SB.CPUS.C002)
	{
		Method (_CST, 0, NotSerialized)
		{
			Return (\LCST ())
		}
	}
#endif
#ifdef CPU3
	Scope (\_SB.CPUS.C003)
	{
		Method (_CST, 0, NotSerialized)
		{
			Return (\LCST ())
		}
	}
#endif
}
