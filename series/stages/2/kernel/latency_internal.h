/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internals of the latency-constraint registry, shared by kernel/latency.c,
 * the CPU latency QoS and the KUnit suite.  Drivers use <linux/latency.h>.
 */

#ifndef _KERNEL_LATENCY_INTERNAL_H
#define _KERNEL_LATENCY_INTERNAL_H

#include <linux/latency.h>
#include <linux/rbtree.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/types.h>

/**
 * struct latency_constraint - a named constraint the registry allocated
 * @req: the constraint itself, with @req.identifier pointing to @identifier
 *	and @req.allocated set
 * @pid: thread group of the user-space holder (a reference), NULL for a
 *	kernel holder
 * @comm: command of the user-space holder, empty for a kernel holder
 * @rcu: frees it once removed
 * @identifier: the holder's name, NUL-terminated
 */
struct latency_constraint {
	struct latency_request req;
	struct pid *pid;
	char comm[TASK_COMM_LEN];
	struct rcu_head rcu;
	char identifier[];
};

int latency_registry_add_qos(struct latency_registry *r,
			     struct latency_request *req, int usecs,
			     unsigned long caller);
int latency_registry_add_kernel(struct latency_registry *r, int usecs);

static inline int latency_registry_value(struct latency_registry *r)
{
	return READ_ONCE(r->value);
}

#if IS_ENABLED(CONFIG_KUNIT)
void latency_workfn(struct work_struct *work);
struct latency_constraint *latency_alloc(size_t len);
#endif

/* Two holders of one value: named ones by identifier, then PM QoS requests. */
static inline bool latency_tie_less(const struct latency_request *ra,
				    const struct latency_request *rb)
{
	if (ra->identifier && rb->identifier)
		return strcmp(ra->identifier, rb->identifier) < 0;
	if (ra->identifier || rb->identifier)
		return !!ra->identifier;
	return ra->serial < rb->serial;
}

/*
 * The listing's order: by value, then named holders by identifier, then
 * PM QoS requests (no identifier) in the order they were added.
 */
static inline bool latency_less(struct rb_node *a, const struct rb_node *b)
{
	const struct latency_request *ra, *rb;

	ra = rb_entry(a, struct latency_request, rbnode);
	rb = rb_entry(b, struct latency_request, rbnode);
	return ra->usecs < rb->usecs ||
	       (ra->usecs == rb->usecs && latency_tie_less(ra, rb));
}

#endif /* _KERNEL_LATENCY_INTERNAL_H */
