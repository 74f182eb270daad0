/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * processor_idle.h - helpers of processor_idle.c shared with its KUnit test
 */

#ifndef _ACPI_PROCESSOR_IDLE_H
#define _ACPI_PROCESSOR_IDLE_H

#include <linux/cpuidle.h>

#if IS_ENABLED(CONFIG_KUNIT)
int acpi_idle_latency_fit(const struct cpuidle_state *states,
			  const struct cpuidle_state_usage *usage, int first,
			  int index, int limit);
#endif

#endif /* _ACPI_PROCESSOR_IDLE_H */
