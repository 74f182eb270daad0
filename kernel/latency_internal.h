/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * STUB - NOT THE REAL FILE.  kernel/latency_internal.h belongs to the
 * registry (kernel/latency.c); this placeholder only declares the two hooks
 * that kernel/latency_dev.c needs, so that the user branch compiles on its
 * own.  On merge, keep the registry's version of this file and make sure it
 * still provides both declarations below.
 */

#ifndef _KERNEL_LATENCY_INTERNAL_H
#define _KERNEL_LATENCY_INTERNAL_H

#include <linux/types.h>

struct seq_file;

/*
 * Like set_acceptable_latency(), and records @tgid and @comm as the owner
 * shown by /proc/latency_constraints.  Process context, may sleep.
 */
int latency_set_user(const char *id, int usecs, pid_t tgid, const char *comm);

/* Print the whole /proc/latency_constraints listing under the registry lock. */
void latency_show(struct seq_file *m);

#endif /* _KERNEL_LATENCY_INTERNAL_H */
