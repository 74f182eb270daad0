/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latency.h: explicit system-wide latency-expectation infrastructure
 *
 * Drivers announce, under a name of their own, the largest wake-up latency
 * in microseconds that they can tolerate; power management code (CPU idle)
 * reads the minimum of all of them and never picks a state whose exit
 * latency exceeds it.  See Documentation/latency.txt.
 *
 * (C) Copyright 2006 Intel Corporation
 * Author: Arjan van de Ven <arjan@linux.intel.com>
 */

#ifndef _LINUX_LATENCY_H
#define _LINUX_LATENCY_H

#include <linux/compiler.h>
#include <linux/notifier.h>

/*
 * A constraint of INFINITE_LATENCY usecs, or of anything above it, means
 * "no constraint at all".  It is also the system value while no constraint
 * is held.
 */
#define INFINITE_LATENCY	1000000

/* Longest identifier accepted, not counting the terminating NUL. */
#define LATENCY_ID_MAX		63

int set_acceptable_latency(const char *identifier, int usecs);
int modify_acceptable_latency(const char *identifier, int usecs);
int remove_acceptable_latency(const char *identifier);
void synchronize_acceptable_latency(void);

int register_latency_notifier(struct notifier_block *nb);
int unregister_latency_notifier(struct notifier_block *nb);

/* Private: read it only through system_latency_constraint(). */
extern int __system_latency_constraint;

/**
 * system_latency_constraint - the system-wide maximum acceptable latency
 *
 * The minimum over every constraint currently held, or INFINITE_LATENCY
 * when none is held (also before any initcall has run).  A power management
 * decision must not take a state whose exit latency is larger than this
 * value; a state whose exit latency equals it is acceptable.
 *
 * Context: Any context, including hard interrupt and the idle loop.  A
 * lock-free read of one integer.
 * Return: The system-wide constraint in microseconds, 0..INFINITE_LATENCY.
 */
static inline int system_latency_constraint(void)
{
	return READ_ONCE(__system_latency_constraint);
}

#endif /* _LINUX_LATENCY_H */
