/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internals of the latency-constraint registry, shared by kernel/latency.c,
 * its user-space device and its KUnit suite.  Nothing outside those should
 * include this file: drivers use <linux/latency.h>.
 */

#ifndef _KERNEL_LATENCY_INTERNAL_H
#define _KERNEL_LATENCY_INTERNAL_H

#include <linux/hashtable.h>
#include <linux/latency.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/rbtree.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct file;
struct seq_file;

/**
 * struct latency_constraint - a named constraint the registry allocated
 * @req: the constraint itself, with @req.identifier pointing to @identifier
 *	and @req.allocated set
 * @pid: thread group of the user-space holder (a reference), NULL for a
 *	kernel holder
 * @comm: command of the user-space holder, empty for a kernel holder
 * @dead: on the registry's @dead list once removed, until freed
 * @identifier: the holder's name, NUL-terminated
 *
 * The registry links struct latency_request; a request made by
 * set_acceptable_latency() or by the user-space device is the @req of one
 * of these, one made by latency_request_add() is its holder's.
 */
struct latency_constraint {
	struct latency_request req;
	struct pid *pid;
	char comm[TASK_COMM_LEN];
	struct llist_node dead;
	char identifier[];
};

/**
 * struct latency_node - a constraint in the tree of one of its CPUs
 * @rbnode: in the per-CPU tree of struct latency_registry, sorted as
 *	@by_usecs
 * @req: the constraint
 */
struct latency_node {
	struct rb_node rbnode;
	struct latency_request *req;
};

/**
 * struct latency_cpus - the CPUs of a constraint that does not apply to all
 * @mask: the CPUs: possible ones, at least one
 * @dead: on the registry's @dead_cpus list once removed, until freed
 * @node: one for each CPU of @mask, in its order
 *
 * Allocated, with the CPU set given, when a constraint for some CPUs is
 * added or given a new set; changing its value allocates nothing.
 */
struct latency_cpus {
	struct cpumask mask;
	struct llist_node dead;
	struct latency_node node[];
};

#define LATENCY_HASH_BITS	10

/**
 * struct latency_registry - a set of constraints and its cached minimum
 * @lock: serialises every writer of @names, @by_usecs, @rightmost, @local,
 *	@count, @serial, @trees, *@value and @cpu_value
 * @names: the constraints that have a name (struct latency_request), hashed
 *	by identifier
 * @by_usecs: every constraint for all CPUs, sorted (latency_less()); the
 *	leftmost sets the minimum
 * @rightmost: the rightmost node of @by_usecs, NULL when it is empty
 * @local: every constraint for some CPUs, sorted likewise, for the listing
 * @count: number of constraints held
 * @serial: the last serial number given to a CPU latency QoS request, which
 *	orders those of equal value in the listing
 * @value: where the minimum of @by_usecs is published for lock-free readers
 * @own_value: storage for @value of a registry other than the system one
 * @trees: per CPU, the constraints for some CPUs that include it (struct
 *	latency_node), sorted likewise
 * @cpu_value: per CPU, the smaller of *@value and of the leftmost of its
 *	tree, published for lock-free readers; kept for every possible CPU
 * @notifiers: called with the new minimum when it changes
 * @notify_lock: serialises runs of @notifiers and protects @notified
 * @notified: the last value given to @notifiers
 * @dead: constraints removed but not yet freed (struct latency_constraint)
 * @dead_cpus: CPU sets removed but not yet freed (struct latency_cpus)
 * @notify_work: frees @dead, and delivers a change made by modify, remove or
 *	the request calls
 *
 * The system registry is the one behind the exported API; KUnit makes
 * private ones so that its tests never disturb it.
 */
struct latency_registry {
	raw_spinlock_t lock;		/* see the locking rule in latency.c */
	DECLARE_HASHTABLE(names, LATENCY_HASH_BITS);
	struct rb_root_cached by_usecs;
	struct rb_node *rightmost;
	struct rb_root local;
	unsigned int count;
	u32 serial;
	int *value;
	int own_value;
	struct rb_root_cached __percpu *trees;
	int __percpu *cpu_value;
	struct blocking_notifier_head notifiers;
	struct mutex notify_lock;	/* serialises notifier runs */
	int notified;
	struct llist_head dead;
	struct llist_head dead_cpus;
	struct work_struct notify_work;
};

int latency_registry_set_cpus(struct latency_registry *r,
			      const char *identifier, int usecs,
			      const struct cpumask *cpus,
			      struct task_struct *owner);
int latency_registry_modify(struct latency_registry *r,
			    const char *identifier, int usecs);
int latency_registry_remove(struct latency_registry *r,
			    const char *identifier);
int latency_registry_add_kernel(struct latency_registry *r, int usecs);
int latency_registry_add_request(struct latency_registry *r,
				 struct latency_request *req, int usecs,
				 const struct cpumask *cpus);
int latency_registry_update_request(struct latency_registry *r,
				    struct latency_request *req, int usecs);
int latency_registry_remove_request(struct latency_registry *r,
				    struct latency_request *req);
int latency_registry_add_qos(struct latency_registry *r,
			     struct latency_request *req, int usecs,
			     unsigned long caller);
void latency_registry_sync(struct latency_registry *r);
int latency_registry_show(struct latency_registry *r, struct seq_file *m);
/* A constraint for every CPU: see set_acceptable_latency(). */
static inline int latency_registry_set(struct latency_registry *r,
				       const char *identifier, int usecs,
				       struct task_struct *owner)
{
	return latency_registry_set_cpus(r, identifier, usecs, NULL, owner);
}

#if IS_ENABLED(CONFIG_LATENCY_KUNIT_TEST)
int latency_registry_init(struct latency_registry *r);
void latency_registry_destroy(struct latency_registry *r);
void latency_registry_flush(struct latency_registry *r);
int latency_registry_get(struct latency_registry *r, const char *identifier);
unsigned int latency_registry_check(struct latency_registry *r);
u32 latency_idle_exit_ns(int cpu);
int latency_idle_woken(int cpu);
int latency_registry_cpu_value(struct latency_registry *r, int cpu);
#endif

/* What a change of the system value asks of an idle CPU. */
enum latency_wake {
	LATENCY_WAKE_NONE,
	LATENCY_WAKE_DEEP,	/* in a state too deep: interrupt it */
	LATENCY_WAKE_SHALLOW,	/* a deeper state is allowed now: wake it */
};

#if IS_ENABLED(CONFIG_KUNIT)
struct kernel_param;
enum latency_wake latency_idle_decide(s64 old_ns, s64 new_ns, u32 exit_ns,
				      u32 next_ns);
struct latency_constraint *latency_alloc(size_t len);
int latency_kernel_param_set(const char *val, const struct kernel_param *kp);
int latency_kernel_param_get(char *buffer, const struct kernel_param *kp);
int latency_kernel_default(bool tick_counts_elapsed);
#endif

/*
 * The listing's order: by value, then named holders by identifier, then
 * PM QoS requests (no identifier) in the order they were added.  The
 * tree's comparison, inline in its walks.
 */
static inline bool latency_less(struct rb_node *a, const struct rb_node *b)
{
	const struct latency_request *ra, *rb;

	ra = rb_entry(a, struct latency_request, rbnode);
	rb = rb_entry(b, struct latency_request, rbnode);
	if (ra->usecs != rb->usecs)
		return ra->usecs < rb->usecs;
	if (ra->identifier && rb->identifier)
		return strcmp(ra->identifier, rb->identifier) < 0;
	if (ra->identifier || rb->identifier)
		return !!ra->identifier;
	return ra->hash < rb->hash;
}

/* The same order in a CPU's tree, whose nodes point to their constraint. */
static inline bool latency_node_less(struct rb_node *a, const struct rb_node *b)
{
	return latency_less(&rb_entry(a, struct latency_node, rbnode)->req->rbnode,
			    &rb_entry(b, struct latency_node, rbnode)->req->rbnode);
}

static inline int latency_registry_value(struct latency_registry *r)
{
	return READ_ONCE(*r->value);
}

/* latency_dev.c: a holder per open file, of either device. */
int latency_dev_hold(struct file *file);
void latency_dev_unhold(struct file *file);
int latency_dev_set(struct file *file, int usecs);

/* The registry behind set_acceptable_latency() and friends. */
extern struct latency_registry latency_system;

#endif /* _KERNEL_LATENCY_INTERNAL_H */
