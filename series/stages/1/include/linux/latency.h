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
#include <linux/mutex_types.h>
#include <linux/notifier.h>
#include <linux/rbtree_types.h>
#include <linux/spinlock_types.h>
#include <linux/types.h>
#include <linux/workqueue_types.h>

/*
 * A constraint of INFINITE_LATENCY usecs, or of anything above it, means
 * "no constraint at all".  It is also the system value while no constraint
 * is held.
 */
#define INFINITE_LATENCY	1000000

/* Longest identifier accepted, not counting the terminating NUL. */
#define LATENCY_ID_MAX		63

struct latency_registry;

/**
 * struct latency_request - a constraint held in a registry
 * @rbnode: private: in the registry's tree of values
 * @identifier: the holder's name
 * @name_node: private: in the registry's tree of names
 * @usecs: the constraint in microseconds
 *
 * What the registry keeps of each named constraint it holds; the layout is
 * private to kernel/latency*.c.
 */
struct latency_request {
	struct rb_node rbnode;
	const char *identifier;
	struct rb_node name_node;
	int usecs;
};

/**
 * struct latency_registry - a set of constraints and the minimum it publishes
 * @lock: serialises every change of the trees and of the published value
 * @value: the minimum of the constraints, for lock-free readers
 * @all: the constraints, sorted by value
 * @names: the constraints, sorted by identifier
 * @notifiers: called with @value when it changes
 * @notify_lock: serialises runs of @notifiers; protects @notified
 * @notified: the last value given to @notifiers
 * @work: calls @notifiers after a call that cannot sleep
 *
 * The system registry, latency_system, is the one behind the API; KUnit
 * tests private ones.  The layout is private to kernel/latency*.c.
 */
struct latency_registry {
	raw_spinlock_t lock;	/* see the locking rule in latency.c */
	int value;
	struct rb_root_cached all;
	struct rb_root names;
	struct blocking_notifier_head notifiers;
	struct mutex notify_lock;	/* serialises notifier runs */
	int notified;
	struct work_struct work;
};

#ifdef CONFIG_LATENCY
/*
 * The calls on a registry of the caller's choice: the system one,
 * latency_system, behind the API below, or a private one (KUnit).  @owner
 * is the task of a user-space holder, NULL for a kernel one.  Each is
 * documented with its form below.
 */
struct task_struct;
int latency_registry_set(struct latency_registry *r, const char *identifier,
			 int usecs, struct task_struct *owner);
int latency_registry_modify(struct latency_registry *r,
			    const char *identifier, int usecs);
int latency_registry_remove(struct latency_registry *r,
			    const char *identifier);
void latency_registry_sync(struct latency_registry *r);

int register_latency_notifier(struct notifier_block *nb);

/* Private: read it only through the calls below. */
extern struct latency_registry latency_system;

/**
 * system_latency_constraint - the system-wide maximum acceptable latency
 *
 * The minimum over every constraint held, or INFINITE_LATENCY when none is
 * held (also before any initcall has run).  A decision must not take a
 * state whose exit latency is larger than this value; a state whose exit
 * latency equals it is acceptable.
 *
 * Context: Any context, including hard interrupt and the idle loop.  A
 * lock-free read of one integer.
 * Return: The system-wide constraint in microseconds, 0..INFINITE_LATENCY.
 */
static inline int system_latency_constraint(void)
{
	return READ_ONCE(latency_system.value);
}

/**
 * set_acceptable_latency - set the maximum latency acceptable
 * @identifier: string that identifies this driver
 * @usecs: maximum acceptable latency for this driver, in microseconds
 *
 * Informs the kernel that this device (driver) can accept at most @usecs
 * of latency, for power management and similar tradeoffs.  Calling it with
 * an identifier that is already held changes that constraint, without
 * allocating memory.  A value above INFINITE_LATENCY means "no constraint".
 * When the system value changes, the latency notifiers have been called
 * with it by the time this function returns.
 *
 * @identifier is 1 to LATENCY_ID_MAX printable ASCII characters without
 * blanks, not starting with '#'; the registry keeps a copy.
 *
 * Context: Process context; may sleep.
 * Return: 0 on success, -EINVAL for a bad identifier or a negative value
 * (with a warning), -ENOMEM when a new constraint cannot be allocated.
 */
static inline int set_acceptable_latency(const char *identifier, int usecs)
{
	return latency_registry_set(&latency_system, identifier, usecs, NULL);
}

/**
 * modify_acceptable_latency - change the maximum latency acceptable
 * @identifier: string that identifies this driver
 * @usecs: new maximum acceptable latency for this driver, in microseconds
 *
 * Changes a constraint added by set_acceptable_latency().  An unknown
 * identifier is ignored: nothing changes.  The new value is visible to
 * system_latency_constraint() at once; the latency notifiers are called
 * later, from process context, and synchronize_acceptable_latency() waits
 * for them.
 *
 * Context: Any context, including hard interrupt; never sleeps.
 * Return: 0 on success, -ENOENT for an unknown identifier, -EINVAL for a
 * bad identifier or a negative value (with a warning).
 */
static inline int modify_acceptable_latency(const char *identifier, int usecs)
{
	return latency_registry_modify(&latency_system, identifier, usecs);
}

/**
 * remove_acceptable_latency - remove the maximum latency acceptable
 * @identifier: string that identifies this driver
 *
 * Removes a constraint and frees what was needed to track it.  An unknown
 * identifier is ignored.  Like modify_acceptable_latency(), the notifiers
 * are called later, from process context.
 *
 * Context: Any context, including hard interrupt; never sleeps.
 * Return: 0 on success, -ENOENT for an unknown identifier, -EINVAL for a
 * bad identifier (with a warning).
 */
static inline int remove_acceptable_latency(const char *identifier)
{
	return latency_registry_remove(&latency_system, identifier);
}

/**
 * synchronize_acceptable_latency - make every consumer act on the constraint
 *
 * Delivers a pending change, then calls the latency notifiers with the
 * current system value whether or not it changed, and returns when they
 * have acted on it.  The typical use is after modify_acceptable_latency(),
 * which does not wait.
 *
 * Context: Process context; may sleep.  Must not be called from a latency
 * notifier.
 */
static inline void synchronize_acceptable_latency(void)
{
	latency_registry_sync(&latency_system);
}

/**
 * unregister_latency_notifier - stop being told of changes
 * @nb: the notifier given to register_latency_notifier()
 *
 * Context: Process context; may sleep.
 * Return: 0, or -ENOENT when @nb is not registered.
 */
static inline int unregister_latency_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_unregister(&latency_system.notifiers, nb);
}

#else /* !CONFIG_LATENCY: nothing is held, every call succeeds */

static inline int set_acceptable_latency(const char *identifier, int usecs)
{
	return 0;
}

static inline int modify_acceptable_latency(const char *identifier,
					    int usecs)
{
	return 0;
}

static inline int remove_acceptable_latency(const char *identifier)
{
	return 0;
}

static inline void synchronize_acceptable_latency(void) {}

static inline int register_latency_notifier(struct notifier_block *nb)
{
	return 0;
}

static inline int unregister_latency_notifier(struct notifier_block *nb)
{
	return 0;
}

static inline int system_latency_constraint(void)
{
	return INFINITE_LATENCY;
}
#endif /* CONFIG_LATENCY */

#endif /* _LINUX_LATENCY_H */
