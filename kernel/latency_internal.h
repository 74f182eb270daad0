/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internals of the latency-constraint registry, shared by kernel/latency.c,
 * its user-space interfaces (latency_dev.c), the CPU latency QoS and the
 * KUnit suite.  Drivers use <linux/latency.h>.
 */

#ifndef _KERNEL_LATENCY_INTERNAL_H
#define _KERNEL_LATENCY_INTERNAL_H

#include <linux/latency.h>
#include <linux/rbtree.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/types.h>

struct file;
struct seq_file;

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

/**
 * struct latency_node - a constraint in the tree of one of its CPUs
 * @rbnode: in that CPU's struct latency_cpu tree
 * @req: the constraint
 */
struct latency_node {
	struct rb_node rbnode;
	struct latency_request *req;
};

/**
 * struct latency_cpus - the CPUs of a constraint that does not apply to all
 * @mask: the CPUs: possible ones, at least one
 * @rcu: frees it once unlinked, after the wake-ups that may read @mask
 * @node: one for each CPU of @mask, in its order
 */
struct latency_cpus {
	struct cpumask mask;
	struct rcu_head rcu;
	struct latency_node node[];
};

/* A static registry whose limits bound idle; @none means no constraint. */
#define LATENCY_REGISTRY_INIT(r, percpu, none) {			\
	.lock = __RAW_SPIN_LOCK_UNLOCKED(r.lock), .value = none,	\
	.seq = SEQCNT_RAW_SPINLOCK_ZERO(r.seq, &r.lock),		\
	.all = RB_ROOT_CACHED, .some = RB_ROOT, .names = RB_ROOT,	\
	.cpu = percpu, .notifiers = BLOCKING_NOTIFIER_INIT(r.notifiers), \
	.notify_lock = __MUTEX_INITIALIZER(r.notify_lock),		\
	.notified = none, .max = none, .idle = true,			\
	.work = __WORK_INITIALIZER(r.work, latency_workfn) }

int latency_registry_add_qos(struct latency_registry *r,
			     struct latency_request *req, int usecs,
			     unsigned long caller);
struct latency_request *latency_find(struct latency_registry *r,
				     const char *id);

/* Room for the name a holder is listed and traced by. */
#define LATENCY_NAME_LEN	(LATENCY_ID_MAX + 1)
const char *latency_name(const char *identifier, unsigned long caller,
			 char buf[LATENCY_NAME_LEN]);

/* A constraint for every CPU: see set_acceptable_latency(). */
static inline int latency_registry_set(struct latency_registry *r,
				       const char *identifier, int usecs,
				       struct task_struct *owner)
{
	return latency_registry_set_cpus(r, identifier, usecs, NULL, owner);
}

static inline int latency_registry_value(struct latency_registry *r)
{
	return READ_ONCE(r->value);
}

/* The limit of @cpu in @r: cpu_latency_constraint() of any registry. */
static inline int latency_registry_cpu_value(struct latency_registry *r,
					     int cpu)
{
	return latency_limit(r, per_cpu_ptr(r->cpu, cpu));
}

/* What a change of a CPU's limit asks of it, if it is idle. */
enum latency_wake {
	LATENCY_WAKE_NONE,
	LATENCY_WAKE_DEEP,	/* in a state too deep: interrupt it */
	LATENCY_WAKE_SHALLOW,	/* a deeper state is allowed now: wake it */
};

/*
 * What a change asks of a CPU idle in a state of @exit_ns, whose next
 * deeper state is @next_ns (0: none), its limit @old_ns before the change
 * and @new_ns now (S64_MAX: none).  DEEP, interrupt it, depends on the
 * present alone: a state too deep for the limit now.  SHALLOW, wake it so
 * that its governor may go deeper, is a heuristic: an error costs power
 * until its next wake-up, never latency.
 */
static inline enum latency_wake latency_idle_decide(s64 old_ns, s64 new_ns,
						    u64 exit_ns, u32 next_ns)
{
	if (exit_ns > new_ns)
		return LATENCY_WAKE_DEEP;
	if (next_ns && next_ns > old_ns && next_ns <= new_ns)
		return LATENCY_WAKE_SHALLOW;
	return LATENCY_WAKE_NONE;
}

#if IS_ENABLED(CONFIG_KUNIT)
struct kernel_param;
void latency_workfn(struct work_struct *work);
struct latency_constraint *latency_alloc(size_t len, gfp_t gfp);
int latency_kernel_param_set(const char *val, const struct kernel_param *kp);
int latency_kernel_param_get(char *buffer, const struct kernel_param *kp);
int latency_kernel_default(bool tick_counts_elapsed);
int latency_registry_add_kernel(struct latency_registry *r, int usecs);
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

/* The same order in a CPU's tree, whose nodes point to their constraint. */
static inline bool latency_node_less(struct rb_node *a, const struct rb_node *b)
{
	return latency_less(&rb_entry(a, struct latency_node, rbnode)->req->rbnode,
			    &rb_entry(b, struct latency_node, rbnode)->req->rbnode);
}

/* The constraint that sets @cpu's own minimum in @r, or NULL. */
static inline struct latency_request *
latency_cpu_first(struct latency_registry *r, int cpu)
{
	struct rb_node *node = rb_first_cached(&per_cpu_ptr(r->cpu, cpu)->tree);

	return node ? rb_entry(node, struct latency_node, rbnode)->req : NULL;
}

/* latency_dev.c: a holder per open file, of either device; the listing. */
int latency_dev_hold(struct file *file, struct latency_registry *r);
void latency_dev_unhold(struct file *file);
int latency_dev_set(struct file *file, int usecs);
int latency_registry_show(struct latency_registry *r, struct seq_file *m);

#endif /* _KERNEL_LATENCY_INTERNAL_H */
