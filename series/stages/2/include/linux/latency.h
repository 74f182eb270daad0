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
 * struct latency_request - a constraint whose memory its holder provides
 * @rbnode: private: in the registry's tree of values
 * @registry: private: the registry that holds it, NULL while it is not held
 * @identifier: the holder's name, as given to latency_request_init(); NULL
 *	for a CPU latency QoS request, which is named by @caller
 * @name_node: private: in the registry's tree of names (@identifier set)
 * @caller: private: where a CPU latency QoS request was added from
 * @serial: private: orders the CPU latency QoS requests of equal value
 * @usecs: the constraint in microseconds
 * @allocated: private: true for a constraint made by set_acceptable_latency()
 *
 * The handle form of a constraint, for a holder that changes it often or
 * must not allocate: the holder embeds the request in a structure of its
 * own, names it once with latency_request_init(), and keeps it and the
 * identifier string alive while it is added.  Adding and removing a
 * request allocate nothing and check no name; changing it needs no lookup
 * by name.  It shares the namespace and the listing of the named
 * constraints.  Calls on one request are serialised by its holder.  Every
 * struct pm_qos_request of the CPU latency QoS embeds one.
 */
struct latency_request {
	struct rb_node rbnode;
	struct latency_registry *registry;
	const char *identifier;
	union {
		struct rb_node name_node;
		struct {
			unsigned long caller;
			u64 serial;
		};
	};
	int usecs;
	bool allocated;
};

/**
 * struct latency_registry - a set of constraints and the minimum it publishes
 * @lock: serialises every change of the trees and of the published value
 * @value: the minimum of the constraints, for lock-free readers
 * @all: the constraints, sorted by value
 * @names: the constraints that have an identifier, sorted by it
 * @serial: the last serial number given to a CPU latency QoS request
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
	u64 serial;
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
int latency_registry_add_request(struct latency_registry *r,
				 struct latency_request *req, int usecs);
int latency_registry_update_request(struct latency_registry *r,
				    struct latency_request *req, int usecs);
int latency_registry_remove_request(struct latency_registry *r,
				    struct latency_request *req);
void latency_registry_sync(struct latency_registry *r);

int latency_request_init(struct latency_request *req, const char *identifier);
int register_latency_notifier(struct notifier_block *nb);

/* Private: read it only through the calls below. */
extern struct latency_registry latency_system;

/**
 * latency_request_active - whether a request is held
 * @req: the request
 *
 * As for a struct pm_qos_request in 6.12, a request is held when it points
 * to the registry, a value that memory never initialised (a request on the
 * stack) practically never has: adding such a request works, and removing
 * it warns and changes nothing.
 *
 * Context: Any context.
 * Return: true from latency_request_add() to latency_request_remove().
 */
static inline bool latency_request_active(const struct latency_request *req)
{
	return READ_ONCE(req->registry) == &latency_system;
}

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
 * Return: 0 on success, -EINVAL for a bad identifier or a negative value,
 * -EBUSY for an identifier held through a struct latency_request (each
 * with a warning), -ENOMEM when a new constraint cannot be allocated.
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
 * bad identifier or a negative value, -EBUSY for an identifier held
 * through a struct latency_request (each with a warning).
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
 * bad identifier, -EBUSY for an identifier held through a struct
 * latency_request (each with a warning).
 */
static inline int remove_acceptable_latency(const char *identifier)
{
	return latency_registry_remove(&latency_system, identifier);
}

/**
 * latency_request_add - hold a constraint through a request handle
 * @req: the request, initialised by latency_request_init(), not active
 * @usecs: maximum acceptable latency, in microseconds
 *
 * Adds @usecs under the request's identifier like set_acceptable_latency(),
 * without allocating: the registry links @req itself.  When the system
 * value changes, it is in effect by the time this function returns, as
 * after set_acceptable_latency().  The named calls refuse the identifier while
 * @req holds it; the listing shows it like any kernel holder.
 *
 * Context: Process context; may sleep.
 * Return: 0 on success, -EINVAL for a negative value or a request not
 * initialised or already active, -EEXIST for an identifier already held
 * (each with a warning).
 */
static inline int latency_request_add(struct latency_request *req, int usecs)
{
	return latency_registry_add_request(&latency_system, req, usecs);
}

/**
 * latency_request_update - change a constraint held through a handle
 * @req: the request, added by latency_request_add()
 * @usecs: new maximum acceptable latency, in microseconds
 *
 * Like modify_acceptable_latency() without the lookup by name: the value
 * is visible to system_latency_constraint() at once, the notifiers are
 * called later, from process context.
 *
 * Context: Any context, including hard interrupt; never sleeps.
 * Return: 0 on success, -EINVAL for a negative value or a request not
 * active (with a warning).
 */
static inline int latency_request_update(struct latency_request *req, int usecs)
{
	return latency_registry_update_request(&latency_system, req, usecs);
}

/**
 * latency_request_remove - stop holding a constraint held through a handle
 * @req: the request, added by latency_request_add()
 *
 * Like remove_acceptable_latency(); @req is inactive afterwards and may be
 * added again or freed.
 *
 * Context: Any context, including hard interrupt; never sleeps.
 * Return: 0 on success, -EINVAL for a request not active (with a warning).
 */
static inline int latency_request_remove(struct latency_request *req)
{
	return latency_registry_remove_request(&latency_system, req);
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

static inline int latency_request_init(struct latency_request *req,
				       const char *identifier)
{
	return 0;
}

static inline bool latency_request_active(const struct latency_request *req)
{
	return false;
}

static inline int latency_request_add(struct latency_request *req, int usecs)
{
	return 0;
}

static inline int latency_request_update(struct latency_request *req,
					 int usecs)
{
	return 0;
}

static inline int latency_request_remove(struct latency_request *req)
{
	return 0;
}

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
