/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * STUB - NOT THE REAL FILE.  This header belongs to the registry
 * (kernel/latency.c).  This placeholder repeats only the two declarations
 * of it that kernel/latency_dev.c uses, so that the user branch compiles
 * on its own.  On merge, keep the registry's version.
 */

#ifndef _KERNEL_LATENCY_INTERNAL_H
#define _KERNEL_LATENCY_INTERNAL_H

struct latency_registry;
struct task_struct;

/*
 * Like set_acceptable_latency() on @r; a new holder records the tgid and
 * comm of @owner for /proc/latency_constraints.  Process context.
 */
int latency_registry_set(struct latency_registry *r, const char *identifier,
			 int usecs, struct task_struct *owner);

/* The registry behind set_acceptable_latency() and friends. */
extern struct latency_registry latency_system;

#endif /* _KERNEL_LATENCY_INTERNAL_H */
