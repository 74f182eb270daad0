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
#include <linux/list.h>
#include <linux/notifier.h>
#include <linux/rbtree_types.h>
#include <linux/types.h>

/*
 * A constraint of INFINITE_LATENCY usecs, or of anything above it, means
 * "no constraint at all".  It is also the system value while no constraint
 * is held.
 */
#define INFINITE_LATENCY	1000000

/* Longest identifier accepted, not counting the terminating NUL. */
#define LATENCY_ID_MAX		63

/**
 * struct latency_request - a constraint whose memory its holder provides
 * @hnode: private to kernel/latency.c
 * @rbnode: private to kernel/latency.c
 * @identifier: the holder's name, as given to latency_request_init(); NULL
 *	for a CPU latency QoS request, which is named by @caller
 * @caller: private: where a CPU latency QoS request was added from
 * @hash: private to kernel/latency.c (for a CPU latency QoS request, a
 *	serial number)
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
	struct hlist_node hnode;
	struct rb_node rbnode;
	const char *identifier;
	unsigned long caller;
	u32 hash;
	int usecs;
	bool allocated;
};

/**
 * latency_request_active - whether a request is held
 * @req: the request
 *
 * Context: Any context.
 * Return: true from latency_request_add() to latency_request_remove().
 */
static inline bool latency_request_active(const struct latency_request *req)
{
	return !hlist_unhashed_lockless(&req->hnode);
}

#ifdef CONFIG_LATENCY
int set_acceptable_latency(const char *identifier, int usecs);
int modify_acceptable_latency(const char *identifier, int usecs);
int remove_acceptable_latency(const char *identifier);
void synchronize_acceptable_latency(void);

int latency_request_init(struct latency_request *req, const char *identifier);
int latency_request_add(struct latency_request *req, int usecs);
int latency_request_update(struct latency_request *req, int usecs);
int latency_request_remove(struct latency_request *req);

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
