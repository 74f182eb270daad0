// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency.c: explicit system-wide latency-expectation infrastructure
 *
 * The purpose of this infrastructure is to allow device drivers to state
 * the latency constraint they have, and to collect and summarize these
 * expectations globally.  The accumulated result is then used by power
 * management and similar users to make decisions that trade latency for
 * something else.
 *
 * An example user of this is CPU idle: each deeper C-state saves more
 * power but takes longer to leave.  To choose well, the idle code needs to
 * know how much wake-up latency the system can accept right now.
 *
 * An example announcer of latency is an audio driver that knows it will get
 * an interrupt when the hardware has 200 usec of samples left in its DMA
 * buffer; such a driver sets a constraint of, say, 150 usec while it plays,
 * and removes it when it stops.
 *
 * Multiple drivers each announce their maximum accepted latency; a string
 * identifier keeps them apart and names them in /proc/latency_constraints.
 * The system value is the minimum over all of them, published for lock-free
 * readers.  Whenever it changes, the CPUs idle in a state now too deep are
 * interrupted, whichever cpuidle driver runs (latency_idle_wake()), and the
 * latency notifier chain is called from process context, so that other
 * consumers can act on the new value.
 *
 * Constraints are hashed by identifier and kept in an rbtree sorted by value
 * with both ends cached: every update is O(log n), O(1) at either end,
 * reading the system value is O(1), and an update of an existing
 * constraint never allocates memory.  A holder that changes its constraint
 * often, or must not allocate, embeds a struct latency_request instead and
 * holds it through latency_request_add() and friends: no allocation, no
 * lookup by name, in the same namespace and listing.  Every call ends in
 * one primitive, latency_apply(); the named calls are a lookup in front of
 * it, the CPU latency QoS a request without a name.
 *
 * (C) Copyright 2006 Intel Corporation
 * Author: Arjan van de Ven <arjan@linux.intel.com>
 */

#define pr_fmt(fmt) "latency: " fmt

#include <linux/bug.h>
#include <linux/cpumask.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/llist.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/proc_fs.h>
#include <linux/sched/idle.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/string_helpers.h>
#include <linux/stringhash.h>
#include <linux/sysfs.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "latency_internal.h"

#define CREATE_TRACE_POINTS
#include <trace/events/latency.h>

/*
 * The published minimum of the system registry.  Only latency.c writes it,
 * under latency_system.lock; everybody reads it through
 * system_latency_constraint().  Statically INFINITE_LATENCY, so that a query
 * made before any initcall does not forbid every C-state.
 */
int __system_latency_constraint = INFINITE_LATENCY;
EXPORT_SYMBOL_GPL(__system_latency_constraint);

/*
 * Each CPU's published limit, read through cpu_latency_constraint(): the
 * smaller of the system value and of the constraints held for that CPU
 * alone, kept for every possible CPU.  And the trees of those constraints.
 */
DEFINE_PER_CPU(int, __cpu_latency_constraint) = INFINITE_LATENCY;
EXPORT_PER_CPU_SYMBOL_GPL(__cpu_latency_constraint);
static DEFINE_PER_CPU(struct rb_root_cached, latency_system_trees) =
	RB_ROOT_CACHED;

static void latency_notify_workfn(struct work_struct *work);

static void latency_free(struct latency_constraint *c)
{
	put_pid(c->pid);
	/* No call for the common case, a constraint for all CPUs. */
	if (unlikely(c->req.cpus))
		kfree(c->req.cpus);
	kfree(c);
}

/* Free what remove unlinked.  Process context. */
static void latency_free_dead(struct latency_registry *r)
{
	struct latency_constraint *c, *tmp;
	struct latency_cpus *cpus, *next;

	llist_for_each_entry_safe(c, tmp, llist_del_all(&r->dead), dead)
		latency_free(c);
	llist_for_each_entry_safe(cpus, next, llist_del_all(&r->dead_cpus), dead)
		kfree(cpus);
}

/*
 * Locking rule: every change to a registry's constraints, and to the value it
 * publishes, is made under its ->lock, a raw spinlock taken with
 * raw_spin_lock_irqsave(): modify, remove and the request calls may be called
 * from hard interrupt context, on PREEMPT_RT too.  Nothing under ->lock
 * sleeps, allocates or frees: remove frees what it unlinked after dropping
 * it (on PREEMPT_RT, where kfree() may sleep, it hands it to ->notify_work),
 * and the listing copies a few holders at a time and prints them after
 * dropping it.  Readers of the value take no lock.  The notifier chain runs
 * under ->notify_lock, a mutex, never under ->lock; a notifier must therefore
 * not change a constraint.
 */
struct latency_registry latency_system = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(latency_system.lock),
	.by_usecs = RB_ROOT_CACHED,
	.local = RB_ROOT,
	.value = &__system_latency_constraint,
	.own_value = INFINITE_LATENCY,
	.trees = &latency_system_trees,
	.cpu_value = &__cpu_latency_constraint,
	.notifiers = BLOCKING_NOTIFIER_INIT(latency_system.notifiers),
	.notify_lock = __MUTEX_INITIALIZER(latency_system.notify_lock),
	.notified = INFINITE_LATENCY,
	.dead = LLIST_HEAD_INIT(latency_system.dead),
	.dead_cpus = LLIST_HEAD_INIT(latency_system.dead_cpus),
	.notify_work = __WORK_INITIALIZER(latency_system.notify_work,
					  latency_notify_workfn),
};
EXPORT_SYMBOL_IF_KUNIT(latency_system);

/*
 * Kernel callers' mistakes get -EINVAL and one warning naming the mistake;
 * the registry is left untouched.  User space never reaches these checks
 * with bad input: latency_dev.c rejects it first, without a warning.
 *
 * latency_hash_id() hashes an identifier and checks on the way what is
 * cheap to check: NULL, empty, too long.  latency_check_chars() checks the
 * characters; it runs when a constraint is added, or when a lookup found
 * nothing, since every stored identifier is valid.
 */
static int latency_hash_id(const char *id, u64 *hashlen)
{
	if (WARN_ONCE(!id, "latency: NULL identifier\n"))
		return -EINVAL;
	*hashlen = hashlen_string(NULL, id);
	if (WARN_ONCE(!hashlen_len(*hashlen), "latency: empty identifier\n"))
		return -EINVAL;
	if (WARN_ONCE(hashlen_len(*hashlen) > LATENCY_ID_MAX,
		      "latency: identifier longer than %d characters\n",
		      LATENCY_ID_MAX))
		return -EINVAL;
	return 0;
}

static int latency_check_chars(const char *id)
{
	size_t i;

	for (i = 0; id[i]; i++) {
		/* Printable ASCII without blanks keeps the listing parseable. */
		if (WARN_ONCE(id[i] <= ' ' || id[i] > '~',
			      "latency: identifier with a blank or non-printable character\n"))
			return -EINVAL;
	}
	if (WARN_ONCE(id[0] == '#', "latency: identifier starting with '#'\n"))
		return -EINVAL;
	return 0;
}

static int latency_check_usecs(int usecs)
{
	if (WARN_ONCE(usecs < 0, "latency: negative latency %d\n", usecs))
		return -EINVAL;
	return 0;
}

/*
 * A set of CPUs must name a possible CPU; the others it names are dropped,
 * so that a set valid on one machine still works on a smaller one.
 */
static int latency_check_cpus(const struct cpumask *cpus)
{
	if (WARN_ONCE(!cpus || !cpumask_intersects(cpus, cpu_possible_mask),
		      "latency: a CPU set without a possible CPU\n"))
		return -EINVAL;
	return 0;
}

/* The CPU set of a constraint, its nodes not yet in any tree. */
static struct latency_cpus *latency_cpus_alloc(const struct cpumask *mask)
{
	struct latency_cpus *cpus;
	unsigned int n;

	n = cpumask_weight_and(mask, cpu_possible_mask);
	cpus = kzalloc(struct_size(cpus, node, n), GFP_KERNEL);
	if (cpus)
		cpumask_and(&cpus->mask, mask, cpu_possible_mask);
	return cpus;
}

/* Whether a constraint with @cpus applies to the possible CPUs of @mask. */
static bool latency_same_cpus(const struct latency_cpus *cpus,
			      const struct cpumask *mask)
{
	int cpu;

	if (!cpus || !mask)
		return !cpus && !mask;
	for_each_possible_cpu(cpu) {
		if (cpumask_test_cpu(cpu, mask) !=
		    cpumask_test_cpu(cpu, &cpus->mask))
			return false;
	}
	return true;
}

/* Above INFINITE_LATENCY means "no constraint", stored as INFINITE_LATENCY. */
static int latency_clamp(int usecs)
{
	return min(usecs, INFINITE_LATENCY);
}

static u32 latency_hash(const char *id)
{
	return hashlen_hash(hashlen_string(NULL, id));
}

static struct latency_request *
latency_find(struct latency_registry *r, const char *id, u32 hash)
{
	struct latency_request *req;

	lockdep_assert_held(&r->lock);
	hash_for_each_possible(r->names, req, hnode, hash) {
		if (req->hash == hash && req->identifier &&
		    !strcmp(req->identifier, id))
			return req;
	}
	return NULL;
}

static struct latency_request *latency_leftmost(struct latency_registry *r)
{
	struct rb_node *node = rb_first_cached(&r->by_usecs);

	return node ? rb_entry(node, struct latency_request, rbnode) : NULL;
}

/* Room for the name a holder is listed and traced by. */
#define LATENCY_NAME_LEN	(LATENCY_ID_MAX + 1)

/*
 * The name a holder is listed and traced by: its identifier, or for a CPU
 * latency QoS request "pm_qos:" and the function that added it, written
 * into @buf.  "func [module]" loses its blank, so that the name stays one
 * word of the listing.
 */
static const char *latency_name(const char *identifier, unsigned long caller,
				char buf[LATENCY_NAME_LEN])
{
	char *blank;

	if (identifier)
		return identifier;
	snprintf(buf, LATENCY_NAME_LEN, "pm_qos:%ps", (void *)caller);
	blank = strchr(buf, ' ');
	if (blank)
		memmove(blank, blank + 1, strlen(blank));
	return buf;
}

/* What a change made published (latency_apply()). */
#define LATENCY_NEW_SYSTEM	1	/* the system value: for the notifiers */
#define LATENCY_NEW_CPU		2	/* a CPU's limit: for the idle CPUs */

/* The request in @cpu's tree that sets its limit, or NULL. */
static struct latency_request *latency_cpu_first(struct latency_registry *r,
						 int cpu)
{
	struct rb_node *node = rb_first_cached(per_cpu_ptr(r->trees, cpu));

	return node ? rb_entry(node, struct latency_node, rbnode)->req : NULL;
}

/* Publish the limit of @cpu after a change; true when it changed. */
static bool latency_publish_cpu(struct latency_registry *r, int cpu)
{
	struct latency_request *first = latency_cpu_first(r, cpu);
	int *value = per_cpu_ptr(r->cpu_value, cpu);
	int min = *r->value;

	if (first)
		min = min(min, first->usecs);
	if (min == *value)
		return false;
	WRITE_ONCE(*value, min);
	return true;
}

/*
 * The system value changed: publish the limit of every possible CPU with
 * it, so that the idle path reads one value.  Apart, so that the calls
 * that change no value do not pay for its loop in their stack frame.
 */
static noinline unsigned int latency_publish_cpus(struct latency_registry *r)
{
	unsigned int changed = LATENCY_NEW_SYSTEM;
	int cpu;

	for_each_possible_cpu(cpu) {
		if (latency_publish_cpu(r, cpu))
			changed |= LATENCY_NEW_CPU;
	}
	return changed;
}

/* Publish the minimum after a change of a constraint for all CPUs. */
static inline unsigned int latency_publish(struct latency_registry *r)
{
	struct latency_request *first = latency_leftmost(r);
	int min = first ? first->usecs : INFINITE_LATENCY;

	lockdep_assert_held(&r->lock);
	if (min == *r->value)
		return 0;
	WRITE_ONCE(*r->value, min);
	return latency_publish_cpus(r);
}

/* What latency_apply() does to a request. */
enum latency_action {
	LATENCY_ADD,
	LATENCY_UPDATE,
	LATENCY_REMOVE,
};

/*
 * The tree with its rightmost node cached as well as its leftmost: a
 * request moved at either end, where most holders sit (the minimum, and
 * "no constraint"), finds its neighbour in O(1).
 */
static inline void latency_insert(struct latency_registry *r,
				  struct latency_request *req)
{
	rb_add_cached(&req->rbnode, &r->by_usecs, latency_less);
	if (!r->rightmost || latency_less(r->rightmost, &req->rbnode))
		r->rightmost = &req->rbnode;
}

static inline void latency_erase(struct latency_registry *r,
				 struct latency_request *req)
{
	if (r->rightmost == &req->rbnode)
		r->rightmost = rb_prev(&req->rbnode);
	rb_erase_cached(&req->rbnode, &r->by_usecs);
}

/* Whether @req, whose value moved up (@up) or down, is still in order. */
static bool latency_in_order(struct latency_registry *r,
			     struct latency_request *req, bool up)
{
	struct rb_node *node = &req->rbnode;

	if (up)
		return node == r->rightmost ||
		       latency_less(node, rb_next(node));
	return node == rb_first_cached(&r->by_usecs) ||
	       latency_less(rb_prev(node), node);
}

/*
 * latency_apply() for a constraint with a CPU set: in @local for the
 * listing, and in the tree of each of its CPUs, whose limit it publishes.
 * O(log n) for each CPU it names, n the constraints held for that CPU.
 */
static noinline unsigned int latency_apply_cpus(struct latency_registry *r,
						struct latency_request *req,
						enum latency_action action)
{
	struct latency_cpus *cpus = req->cpus;
	unsigned int changed = 0, i = 0;
	int cpu;

	if (action != LATENCY_ADD)
		rb_erase(&req->rbnode, &r->local);
	if (action != LATENCY_REMOVE)
		rb_add(&req->rbnode, &r->local, latency_less);
	for_each_cpu(cpu, &cpus->mask) {
		struct rb_root_cached *tree = per_cpu_ptr(r->trees, cpu);
		struct latency_node *node = &cpus->node[i++];

		if (action != LATENCY_ADD)
			rb_erase_cached(&node->rbnode, tree);
		if (action != LATENCY_REMOVE) {
			node->req = req;
			rb_add_cached(&node->rbnode, tree, latency_node_less);
		}
		if (latency_publish_cpu(r, cpu))
			changed = LATENCY_NEW_CPU;
	}
	return changed;
}

/*
 * Trace a change.  Apart, so that its name buffer is neither zeroed nor
 * guarded on every call (INIT_STACK_ALL_ZERO, STACKPROTECTOR_STRONG) while
 * no event is on.
 */
static noinline void latency_trace(const struct latency_request *req,
				   enum latency_action action, int old,
				   int system)
{
	const struct cpumask *cpus = req->cpus ? &req->cpus->mask : NULL;
	char buf[LATENCY_NAME_LEN];
	const char *name = latency_name(req->identifier, req->caller, buf);

	switch (action) {
	case LATENCY_ADD:
		trace_latency_add(name, req->usecs, cpus, system);
		break;
	case LATENCY_UPDATE:
		trace_latency_update(name, old, req->usecs, cpus, system);
		break;
	case LATENCY_REMOVE:
		trace_latency_remove(name, old, cpus, system);
		break;
	}
}

static __always_inline bool latency_tracing(enum latency_action action)
{
	switch (action) {
	case LATENCY_ADD:
		return trace_latency_add_enabled();
	case LATENCY_UPDATE:
		return trace_latency_update_enabled();
	default:
		return trace_latency_remove_enabled();
	}
}

/*
 * The one primitive, under ->lock, for every kind of holder: add @req with
 * the value @usecs (above INFINITE_LATENCY stored as INFINITE_LATENCY),
 * give it @usecs, or remove it; keep the trees sorted, publish the minimum
 * and the CPUs' limits, and trace the change.  @req's identifier, hash and
 * CPU set are set before it is added.  An active request is hashed: by name, or,
 * without one, to itself (hlist_add_fake()), since it is never looked up;
 * hash_del() undoes either.  Inlined with @action constant, so that each
 * call keeps only its own case, and costs no more call levels than a CPU
 * latency QoS call had in 6.12.
 *
 * Return: LATENCY_NEW_SYSTEM and LATENCY_NEW_CPU, for what it changed.
 */
static __always_inline unsigned int latency_apply(struct latency_registry *r,
						  struct latency_request *req,
						  enum latency_action action,
						  int usecs)
{
	int old = req->usecs;
	unsigned int changed;

	lockdep_assert_held(&r->lock);
	usecs = latency_clamp(usecs);
	switch (action) {
	case LATENCY_ADD:
		req->usecs = usecs;
		/* A request without a name is never looked up: not hashed. */
		if (req->identifier)
			hash_add(r->names, &req->hnode, req->hash);
		else
			hlist_add_fake(&req->hnode);
		if (!req->cpus)
			latency_insert(r, req);
		r->count++;
		break;
	case LATENCY_UPDATE:
		req->usecs = usecs;
		/*
		 * Still before the neighbour it moves towards: the tree needs
		 * no change.  It cannot have passed the one it moves away from.
		 */
		if (req->cpus || latency_in_order(r, req, usecs > old))
			break;
		latency_erase(r, req);
		latency_insert(r, req);
		break;
	case LATENCY_REMOVE:
		hash_del(&req->hnode);
		if (!req->cpus)
			latency_erase(r, req);
		r->count--;
		break;
	}
	changed = req->cpus ? latency_apply_cpus(r, req, action) :
			      latency_publish(r);
	if (r == &latency_system && latency_tracing(action))
		latency_trace(req, action, old, *r->value);
	return changed;
}

/*
 * A name held through a request handle belongs to its holder: the named
 * calls must not change it, let alone free it.
 */
static int latency_busy(const char *id)
{
	WARN_ONCE(1, "latency: \"%s\" is held through a latency_request\n", id);
	return -EBUSY;
}

/*
 * Give the chain the current value unless it already has it.  Two changes
 * that cancel out before the chain runs give no call at all; a change is
 * never delivered twice.
 */
static void latency_notify(struct latency_registry *r)
{
	int value;

	mutex_lock(&r->notify_lock);
	value = latency_registry_value(r);
	if (value != r->notified) {
		r->notified = value;
		blocking_notifier_call_chain(&r->notifiers, value, NULL);
	}
	mutex_unlock(&r->notify_lock);
}

DEFINE_PER_CPU(struct latency_idle, latency_idle) = {
	.woken = INFINITE_LATENCY,
};

/* The system value latency_idle_wake() was last called for. */
static int latency_idle_value = INFINITE_LATENCY;

/* Serialises the waiting calls of latency_idle_wake(); protects the mask. */
static DEFINE_MUTEX(latency_idle_lock);
static struct cpumask latency_idle_mask;

/**
 * latency_idle_decide - what a change of the system value asks of a CPU
 * @old_ns: the system value before the change, in ns (S64_MAX: none)
 * @new_ns: the system value after it
 * @exit_ns: exit latency of the state the CPU is idle in, 0 if not idle
 * @next_ns: exit latency of the next deeper state of its driver, 0 if none
 *
 * Context: Any context; a pure function of its arguments.
 * Return: %LATENCY_WAKE_DEEP when the CPU sleeps deeper than @new_ns
 * allows: it must be interrupted.  %LATENCY_WAKE_SHALLOW when @new_ns
 * allows the next deeper state and @old_ns did not: a wake-up lets its
 * governor choose again.  %LATENCY_WAKE_NONE otherwise: the change makes
 * no difference to this CPU.
 */
VISIBLE_IF_KUNIT enum latency_wake
latency_idle_decide(s64 old_ns, s64 new_ns, u32 exit_ns, u32 next_ns)
{
	if (exit_ns > new_ns)
		return LATENCY_WAKE_DEEP;
	if (next_ns && next_ns > old_ns && next_ns <= new_ns)
		return LATENCY_WAKE_SHALLOW;
	return LATENCY_WAKE_NONE;
}
EXPORT_SYMBOL_IF_KUNIT(latency_idle_decide);

static void latency_idle_ipi(void *unused)
{
	/* Taking the interrupt was the point: this CPU has left its state. */
}

/*
 * The limits of some CPUs changed (published already): interrupt the CPUs
 * idle in a state too deep for their new limit, and wake those that it
 * allows to go deeper.  With @wait, return only when each of the former
 * has left its state.  Each CPU's transition, from the limit the last
 * decision for it was made with (->woken) to its limit now, is decided
 * once, by whichever call takes it; with @every, every online CPU is
 * checked against its limit even when that did not change.  No interrupt
 * at all for a change that crosses no CPU's state.
 *
 * cpuidle_enter_state() publishes a CPU's state, then reads its limit
 * (latency_idle_enter()); this reads the CPUs' states after the limits
 * were published.  With a full barrier on both sides, either this sees
 * the state, or that CPU sees its new limit and enters a state that fits.
 *
 * Context: Any context with @wait false (wake_up_if_idle() takes only the
 * runqueue's raw lock); process context with @wait.
 */
static void latency_idle_wake(bool wait, bool every)
{
	int new = latency_registry_value(&latency_system);
	int old = xchg(&latency_idle_value, new);
	unsigned int deep = 0, shallow = 0;
	int cpu, this;

	if (!IS_ENABLED(CONFIG_SMP))
		return;		/* the only CPU is the one running this */
	if (wait) {
		mutex_lock(&latency_idle_lock);
		cpumask_clear(&latency_idle_mask);
	}
	smp_mb();	/* pairs with the one in latency_idle_enter() */
	this = get_cpu();
	for_each_online_cpu(cpu) {
		struct latency_idle *li = per_cpu_ptr(&latency_idle, cpu);
		int to = cpu_latency_constraint(cpu);
		int from;

		if (!every && READ_ONCE(li->woken) == to)
			continue;
		from = xchg(&li->woken, to);
		if (cpu == this)
			continue;
		switch (latency_idle_decide(latency_usecs_to_ns(from),
					    latency_usecs_to_ns(to),
					    READ_ONCE(li->exit_ns),
					    READ_ONCE(li->next_ns))) {
		case LATENCY_WAKE_DEEP:
			deep++;
			if (wait) {
				__cpumask_set_cpu(cpu, &latency_idle_mask);
				break;
			}
			wake_up_if_idle(cpu);
			break;
		case LATENCY_WAKE_SHALLOW:
			shallow++;
			wake_up_if_idle(cpu);
			break;
		case LATENCY_WAKE_NONE:
			break;
		}
	}
	if (wait && deep)
		smp_call_function_many(&latency_idle_mask, latency_idle_ipi,
				       NULL, true);
	put_cpu();
	if (wait)
		mutex_unlock(&latency_idle_lock);
	trace_latency_idle_wake(old, new, deep, shallow, wait);
}

/*
 * Values of @r changed (@changed, from latency_apply()): make the CPUs'
 * limits reach the idle CPUs (for the system registry), then the system
 * value the notifier chain, now when the caller may sleep (@sync), else
 * from the work item; with no notifier registered, nothing is queued (see
 * register_latency_notifier()).
 */
static __always_inline void latency_changed(struct latency_registry *r,
					    unsigned int changed, bool sync)
{
	if (r == &latency_system)
		latency_idle_wake(sync, false);
	if (!(changed & LATENCY_NEW_SYSTEM))
		return;
	smp_mb();	/* the value, then the chain: see register_latency_notifier() */
	if (!rcu_access_pointer(r->notifiers.head))
		return;
	if (sync)
		latency_notify(r);
	else
		schedule_work(&r->notify_work);
}

/*
 * After modify, remove and the request calls, which may run in hard
 * interrupt context: free what remove unlinked, and deliver the change.
 */
static void latency_notify_workfn(struct work_struct *work)
{
	struct latency_registry *r;

	r = container_of(work, struct latency_registry, notify_work);
	latency_free_dead(r);
	latency_notify(r);
}

/*
 * The registry's only allocation.  KUnit replaces it to inject failures;
 * failslab reaches it too.
 */
VISIBLE_IF_KUNIT struct latency_constraint *latency_alloc(size_t len)
{
	struct latency_constraint *c;

	KUNIT_STATIC_STUB_REDIRECT(latency_alloc, len);
	return kzalloc(struct_size(c, identifier, len + 1), GFP_KERNEL);
}
EXPORT_SYMBOL_IF_KUNIT(latency_alloc);

/**
 * latency_registry_set_cpus - add or change a constraint of a registry
 * @r: the registry
 * @identifier: the holder's name
 * @usecs: the constraint in microseconds
 * @cpus: the CPUs it applies to, NULL for all
 * @owner: the user-space task that holds it, or NULL for a kernel holder
 *
 * The registry-level calls below are the exported API's on a registry of
 * the caller's choice (KUnit uses private ones); each is documented with
 * its exported form: here set_acceptable_latency_cpus().
 *
 * Context: Process context; may sleep.
 * Return: 0, -EINVAL for bad arguments, -EBUSY for a name held through a
 * request handle, -ENOMEM.
 */
int latency_registry_set_cpus(struct latency_registry *r,
			      const char *identifier, int usecs,
			      const struct cpumask *cpus,
			      struct task_struct *owner)
{
	struct latency_cpus *new_cpus = NULL, *old_cpus = NULL;
	struct latency_constraint *new = NULL;
	struct latency_request *req;
	unsigned int changed = 0;
	unsigned long flags;
	bool handle, same;
	u64 hashlen;
	size_t len;
	int ret;

	might_sleep();
	ret = latency_hash_id(identifier, &hashlen) ?:
	      latency_check_chars(identifier) ?: latency_check_usecs(usecs) ?:
	      (cpus ? latency_check_cpus(cpus) : 0);
	if (ret)
		return ret;
	len = hashlen_len(hashlen);

	for (;;) {
		raw_spin_lock_irqsave(&r->lock, flags);
		req = latency_find(r, identifier, hashlen_hash(hashlen));
		same = req && latency_same_cpus(req->cpus, cpus);
		/* Ready when nothing is missing: holder, CPU set. */
		if ((req || new) && (same || !cpus || new_cpus))
			break;
		raw_spin_unlock_irqrestore(&r->lock, flags);

		/*
		 * Unknown name, or a new CPU set: allocate outside the lock,
		 * then look again.
		 */
		if (!req && !new) {
			new = latency_alloc(len);
			if (!new)
				goto nomem;
			memcpy(new->identifier, identifier, len + 1);
			new->req.identifier = new->identifier;
			new->req.hash = hashlen_hash(hashlen);
			new->req.allocated = true;
			if (owner) {
				new->pid = get_task_pid(owner, PIDTYPE_TGID);
				get_task_comm(new->comm, owner);
			}
		}
		if (cpus && !new_cpus) {
			new_cpus = latency_cpus_alloc(cpus);
			if (!new_cpus)
				goto nomem;
		}
	}

	handle = req && !req->allocated;
	if (!req) {
		new->req.cpus = new_cpus;
		new_cpus = NULL;
		changed = latency_apply(r, &new->req, LATENCY_ADD, usecs);
		new = NULL;
	} else if (!handle && same) {
		changed = latency_apply(r, req, LATENCY_UPDATE, usecs);
	} else if (!handle) {
		/* A new CPU set: the holder leaves its CPUs for the new ones. */
		changed = latency_apply(r, req, LATENCY_REMOVE, 0);
		old_cpus = req->cpus;
		req->cpus = new_cpus;
		new_cpus = NULL;
		changed |= latency_apply(r, req, LATENCY_ADD, usecs);
	}
	raw_spin_unlock_irqrestore(&r->lock, flags);

	/* Somebody added the same name or CPU set while we allocated. */
	if (new)
		latency_free(new);
	if (unlikely(new_cpus || old_cpus)) {
		kfree(new_cpus);
		kfree(old_cpus);
	}

	if (handle)
		return latency_busy(identifier);
	if (changed)
		latency_changed(r, changed, true);
	return 0;

nomem:
	if (new)
		latency_free(new);
	kfree(new_cpus);
	return -ENOMEM;
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_set_cpus);

/*
 * What remove does with what it unlinked: a named constraint @c, or the
 * CPU set @cpus of a request handle, either NULL.
 */
static void latency_dispose(struct latency_registry *r,
			    struct latency_constraint *c,
			    struct latency_cpus *cpus)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
		/* kfree() may sleep there: the work item frees it. */
		if (c)
			llist_add(&c->dead, &r->dead);
		if (cpus)
			llist_add(&cpus->dead, &r->dead_cpus);
		schedule_work(&r->notify_work);
	} else {
		/* Any context: kfree() never sleeps. */
		if (c)
			latency_free(c);
		if (unlikely(cpus))
			kfree(cpus);
	}
}

/*
 * modify and remove: look the holder of @identifier up and apply @action
 * to it, in any context.
 */
static __always_inline int latency_named_op(struct latency_registry *r,
					    const char *identifier,
					    enum latency_action action,
					    int usecs)
{
	struct latency_request *req;
	unsigned int changed = 0;
	unsigned long flags;
	bool handle;
	u64 hashlen;
	int ret;

	ret = latency_hash_id(identifier, &hashlen) ?: latency_check_usecs(usecs);
	if (ret)
		return ret;

	raw_spin_lock_irqsave(&r->lock, flags);
	req = latency_find(r, identifier, hashlen_hash(hashlen));
	handle = req && !req->allocated;
	if (req && !handle)
		changed = latency_apply(r, req, action, usecs);
	raw_spin_unlock_irqrestore(&r->lock, flags);

	if (!req)
		return latency_check_chars(identifier) ?: -ENOENT;
	if (handle)
		return latency_busy(identifier);
	if (action == LATENCY_REMOVE)
		latency_dispose(r, container_of(req, struct latency_constraint,
						req), NULL);
	if (changed)
		latency_changed(r, changed, false);
	return 0;
}

/* See modify_acceptable_latency(). */
int latency_registry_modify(struct latency_registry *r,
			    const char *identifier, int usecs)
{
	return latency_named_op(r, identifier, LATENCY_UPDATE, usecs);
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_modify);

/* See remove_acceptable_latency(). */
int latency_registry_remove(struct latency_registry *r,
			    const char *identifier)
{
	return latency_named_op(r, identifier, LATENCY_REMOVE, 0);
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_remove);

/**
 * latency_request_init - give a request its identifier
 * @req: the request: zeroed, or not active
 * @identifier: the holder's name, as for set_acceptable_latency(); the
 *	registry does not copy it: it must stay valid and unchanged until
 *	@req is last removed
 *
 * Checks and hashes @identifier once, so that latency_request_add() need
 * not.
 *
 * Context: Any context.
 * Return: 0, or -EINVAL for a bad identifier or an active @req (with a
 * warning).
 */
int latency_request_init(struct latency_request *req, const char *identifier)
{
	u64 hashlen;
	int ret;

	if (WARN_ONCE(!req, "latency: NULL request\n"))
		return -EINVAL;
	ret = latency_hash_id(identifier, &hashlen) ?:
	      latency_check_chars(identifier);
	if (ret)
		return ret;
	if (WARN_ONCE(latency_request_active(req),
		      "latency: %s() of an active request\n", __func__))
		return -EINVAL;
	INIT_HLIST_NODE(&req->hnode);
	RB_CLEAR_NODE(&req->rbnode);
	req->cpus = NULL;
	req->identifier = identifier;
	req->hash = hashlen_hash(hashlen);
	req->usecs = INFINITE_LATENCY;
	req->allocated = false;
	return 0;
}
EXPORT_SYMBOL_GPL(latency_request_init);

/*
 * Every call on a request handle, and the CPU latency QoS's: under the
 * lock, check that @req is active exactly when @action needs it and, for
 * an add, that its identifier is free (a CPU latency QoS request, given
 * its @caller, has none: it gets a serial number instead), then apply
 * @action; deliver a change now (@sync) or from the work item.  An add
 * gives @req the CPU set @cpus (NULL: all), which is @req's from then on
 * if it returns 0; a remove frees it.
 */
static __always_inline int latency_request_op(struct latency_registry *r,
					      struct latency_request *req,
					      enum latency_action action,
					      int usecs, unsigned long caller,
					      struct latency_cpus *cpus,
					      bool sync)
{
	bool add = action == LATENCY_ADD;
	struct latency_cpus *gone = NULL;
	unsigned int changed = 0;
	unsigned long flags;
	bool held = false;
	bool active;

	raw_spin_lock_irqsave(&r->lock, flags);
	active = latency_request_active(req);
	if (add && !active && caller) {
		req->identifier = NULL;
		req->caller = caller;
		req->hash = ++r->serial;
		req->allocated = false;
	} else if (add && !active) {
		held = latency_find(r, req->identifier, req->hash);
	}
	if (active != add && !held) {
		if (add)
			req->cpus = cpus;
		changed = latency_apply(r, req, action, usecs);
		if (action == LATENCY_REMOVE) {
			gone = req->cpus;
			req->cpus = NULL;
		}
	}
	raw_spin_unlock_irqrestore(&r->lock, flags);

	if (WARN_ONCE(add && active, "latency: request added twice\n") ||
	    WARN_ONCE(!add && !active, "latency: request not added\n"))
		return -EINVAL;
	if (WARN_ONCE(held, "latency: \"%s\" is already held\n",
		      req->identifier))
		return -EEXIST;
	if (unlikely(gone))
		latency_dispose(r, NULL, gone);
	if (changed)
		latency_changed(r, changed, sync);
	return 0;
}

/* See latency_request_add_cpus(); @cpus NULL for all. */
int latency_registry_add_request(struct latency_registry *r,
				 struct latency_request *req, int usecs,
				 const struct cpumask *cpus)
{
	struct latency_cpus *new_cpus = NULL;
	int ret;

	might_sleep();
	if (WARN_ONCE(!req || !req->identifier,
		      "latency: request added before latency_request_init()\n"))
		return -EINVAL;
	ret = latency_check_usecs(usecs) ?:
	      (cpus ? latency_check_cpus(cpus) : 0);
	if (ret)
		return ret;
	if (cpus) {
		new_cpus = latency_cpus_alloc(cpus);
		if (!new_cpus)
			return -ENOMEM;
	}
	ret = latency_request_op(r, req, LATENCY_ADD, usecs, 0, new_cpus, true);
	if (ret)
		kfree(new_cpus);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_add_request);

/* See latency_request_update(). */
int latency_registry_update_request(struct latency_registry *r,
				    struct latency_request *req, int usecs)
{
	if (WARN_ONCE(!req, "latency: NULL request\n"))
		return -EINVAL;
	return latency_check_usecs(usecs) ?:
	       latency_request_op(r, req, LATENCY_UPDATE, usecs, 0, NULL, false);
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_update_request);

/* See latency_request_remove(). */
int latency_registry_remove_request(struct latency_registry *r,
				    struct latency_request *req)
{
	if (WARN_ONCE(!req, "latency: NULL request\n"))
		return -EINVAL;
	return latency_request_op(r, req, LATENCY_REMOVE, 0, 0, NULL, false);
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_remove_request);

/**
 * latency_registry_add_qos - add a CPU latency QoS request to a registry
 * @r: the registry
 * @req: the request: zeroed, or removed since it was last added
 * @usecs: the constraint in microseconds, 0 or more
 * @caller: where the request is added from, which names it
 *
 * The CPU latency QoS class of PM QoS holds its requests here, each
 * without an identifier: the listing and the trace events name it by
 * @caller.  Unlike latency_registry_add_request(), callable where
 * cpu_latency_qos_add_request() always was: the notifiers are called
 * later, from process context.  It is updated and removed as any request.
 *
 * Context: Any context, including hard interrupt; never sleeps.
 * Return: 0, or -EINVAL for a request already active (with a warning).
 */
int latency_registry_add_qos(struct latency_registry *r,
			     struct latency_request *req, int usecs,
			     unsigned long caller)
{
	return latency_request_op(r, req, LATENCY_ADD, usecs,
				  caller ?: _RET_IP_, NULL, false);
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_add_qos);

/**
 * latency_registry_add_kernel - add the built-in "kernel" constraint
 * @r: the registry
 * @usecs: its value
 *
 * Adds the holder "kernel" unless one exists: whatever was registered before
 * the initcall stays as it was.
 *
 * Context: Process context; may sleep.
 * Return: 0, -EEXIST when "kernel" is already held, or -ENOMEM.
 */
int latency_registry_add_kernel(struct latency_registry *r, int usecs)
{
	unsigned long flags;
	bool held;

	raw_spin_lock_irqsave(&r->lock, flags);
	held = latency_find(r, "kernel", latency_hash("kernel"));
	raw_spin_unlock_irqrestore(&r->lock, flags);
	if (held)
		return -EEXIST;
	/*
	 * Nothing else adds "kernel" this early: a race with another
	 * set_acceptable_latency("kernel") would only replace the value.
	 */
	return latency_registry_set(r, "kernel", usecs, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_add_kernel);

/**
 * latency_registry_sync - make a registry's value reach its consumers
 * @r: the registry
 *
 * See synchronize_acceptable_latency().
 *
 * Context: Process context; may sleep.
 */
void latency_registry_sync(struct latency_registry *r)
{
	int value;

	might_sleep();
	flush_work(&r->notify_work);
	if (r == &latency_system)
		latency_idle_wake(true, true);
	mutex_lock(&r->notify_lock);
	value = latency_registry_value(r);
	r->notified = value;
	blocking_notifier_call_chain(&r->notifiers, value, NULL);
	mutex_unlock(&r->notify_lock);
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_sync);

#if IS_ENABLED(CONFIG_LATENCY_KUNIT_TEST)
/*
 * Only for the KUnit suite (tools/testing/kunit/latency_test.c): private
 * registries, which must not disturb the system one, and what it inspects
 * them with.
 */

/**
 * latency_registry_init - initialise a private registry
 * @r: the registry
 *
 * For KUnit, which must not disturb the system registry.
 *
 * Context: Process context.
 * Return: 0, or -ENOMEM.
 */
int latency_registry_init(struct latency_registry *r)
{
	int cpu;

	r->trees = alloc_percpu(struct rb_root_cached);
	r->cpu_value = alloc_percpu(int);
	if (!r->trees || !r->cpu_value) {
		free_percpu(r->trees);
		free_percpu(r->cpu_value);
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu) {
		*per_cpu_ptr(r->trees, cpu) = RB_ROOT_CACHED;
		*per_cpu_ptr(r->cpu_value, cpu) = INFINITE_LATENCY;
	}
	raw_spin_lock_init(&r->lock);
	hash_init(r->names);
	r->by_usecs = RB_ROOT_CACHED;
	r->rightmost = NULL;
	r->local = RB_ROOT;
	r->count = 0;
	r->serial = 0;
	r->own_value = INFINITE_LATENCY;
	r->value = &r->own_value;
	BLOCKING_INIT_NOTIFIER_HEAD(&r->notifiers);
	mutex_init(&r->notify_lock);
	r->notified = INFINITE_LATENCY;
	init_llist_head(&r->dead);
	init_llist_head(&r->dead_cpus);
	INIT_WORK(&r->notify_work, latency_notify_workfn);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_init);

/* Free the constraints of one tree of a registry being destroyed. */
static void latency_destroy_tree(struct rb_root *root)
{
	struct latency_request *req, *tmp;

	rbtree_postorder_for_each_entry_safe(req, tmp, root, rbnode) {
		hash_del(&req->hnode);
		if (req->allocated) {
			latency_free(container_of(req, struct latency_constraint,
						  req));
			continue;
		}
		/* A request handle is left inactive, to its holder. */
		kfree(req->cpus);
		req->cpus = NULL;
	}
}

/**
 * latency_registry_destroy - free every constraint of a private registry
 * @r: the registry, initialised by latency_registry_init()
 *
 * Context: Process context; waits for a pending notification.
 */
void latency_registry_destroy(struct latency_registry *r)
{
	cancel_work_sync(&r->notify_work);
	latency_free_dead(r);
	latency_destroy_tree(&r->by_usecs.rb_root);
	latency_destroy_tree(&r->local);
	r->by_usecs = RB_ROOT_CACHED;
	r->rightmost = NULL;
	r->local = RB_ROOT;
	r->count = 0;
	WRITE_ONCE(*r->value, INFINITE_LATENCY);
	free_percpu(r->trees);
	free_percpu(r->cpu_value);
	r->trees = NULL;
	r->cpu_value = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_destroy);

/**
 * latency_registry_flush - deliver a pending notification now
 * @r: the registry
 *
 * Context: Process context; may sleep.
 */
void latency_registry_flush(struct latency_registry *r)
{
	flush_work(&r->notify_work);
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_flush);

/**
 * latency_registry_get - the value a holder holds
 * @r: the registry
 * @identifier: the holder's name
 *
 * Context: Any context.
 * Return: The holder's value, or -ENOENT.
 */
int latency_registry_get(struct latency_registry *r, const char *identifier)
{
	struct latency_request *req;
	unsigned long flags;
	int ret = -ENOENT;

	raw_spin_lock_irqsave(&r->lock, flags);
	req = latency_find(r, identifier, latency_hash(identifier));
	if (req)
		ret = req->usecs;
	raw_spin_unlock_irqrestore(&r->lock, flags);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_get);

/**
 * latency_registry_check - count inconsistencies of a registry
 * @r: the registry
 *
 * Recomputes the minimum and the number of constraints the slow way, from
 * the hash table and the requests without a name, and compares them with
 * the sorted tree, the count and the published value.
 *
 * Context: Any context; O(n).
 * Return: The number of inconsistencies found, 0 for a sound registry.
 */
unsigned int latency_registry_check(struct latency_registry *r)
{
	struct latency_request *req, *prev = NULL;
	unsigned int hashed = 0, sorted = 0, bad = 0;
	int min = INFINITE_LATENCY;
	struct rb_node *node;
	unsigned long flags;
	int bkt, cpu;

	raw_spin_lock_irqsave(&r->lock, flags);
	hash_for_each(r->names, bkt, req, hnode) {
		hashed++;
		if (!req->cpus)
			min = min(min, req->usecs);
		if (req->usecs < 0 || req->usecs > INFINITE_LATENCY)
			bad++;
		if (!req->identifier) {
			bad++;	/* only named requests are in the table */
			continue;
		}
		if (req->hash != latency_hash(req->identifier))
			bad++;
		if (latency_find(r, req->identifier, req->hash) != req)
			bad++;	/* a duplicate name */
	}
	for (node = rb_first(&r->by_usecs.rb_root); node; node = rb_next(node)) {
		req = rb_entry(node, struct latency_request, rbnode);
		if (prev && latency_less(&req->rbnode, &prev->rbnode))
			bad++;
		prev = req;
		sorted++;
		if (req->identifier)
			continue;
		/* A request without a name: active, hashed to itself. */
		hashed++;
		min = min(min, req->usecs);
		if (req->usecs < 0 || req->usecs > INFINITE_LATENCY ||
		    !hlist_fake(&req->hnode))
			bad++;
	}
	/* Constraints for some CPUs: named, sorted, with a possible CPU. */
	prev = NULL;
	for (node = rb_first(&r->local); node; node = rb_next(node)) {
		req = rb_entry(node, struct latency_request, rbnode);
		if (prev && latency_less(&req->rbnode, &prev->rbnode))
			bad++;
		prev = req;
		sorted++;
		if (!req->identifier || !req->cpus ||
		    !cpumask_subset(&req->cpus->mask, cpu_possible_mask) ||
		    cpumask_empty(&req->cpus->mask))
			bad++;
	}
	if (hashed != r->count || sorted != r->count)
		bad++;
	if (r->rightmost != rb_last(&r->by_usecs.rb_root))
		bad++;
	if (latency_registry_value(r) != min)
		bad++;
	/* Each CPU's tree holds exactly its constraints; its limit. */
	for_each_possible_cpu(cpu) {
		struct rb_node *last = NULL;
		unsigned int nodes = 0, members = 0;
		int want = latency_registry_value(r);

		node = rb_first_cached(per_cpu_ptr(r->trees, cpu));
		for (; node; last = node, node = rb_next(node)) {
			struct latency_node *ln;

			ln = rb_entry(node, struct latency_node, rbnode);
			nodes++;
			if (last && latency_node_less(node, last))
				bad++;
			if (!ln->req->cpus ||
			    !cpumask_test_cpu(cpu, &ln->req->cpus->mask))
				bad++;
		}
		for (node = rb_first(&r->local); node; node = rb_next(node)) {
			req = rb_entry(node, struct latency_request, rbnode);
			if (req->cpus && cpumask_test_cpu(cpu, &req->cpus->mask)) {
				members++;
				want = min(want, req->usecs);
			}
		}
		if (nodes != members ||
		    READ_ONCE(*per_cpu_ptr(r->cpu_value, cpu)) != want)
			bad++;
	}
	raw_spin_unlock_irqrestore(&r->lock, flags);
	return bad;
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_check);

/**
 * latency_idle_exit_ns - the idle state @cpu has published
 * @cpu: a CPU
 *
 * Context: Any context.
 * Return: The exit latency, in ns, of the state @cpu is idle in or about
 * to enter, 0 if it is not idle.
 */
u32 latency_idle_exit_ns(int cpu)
{
	return READ_ONCE(per_cpu(latency_idle, cpu).exit_ns);
}
EXPORT_SYMBOL_IF_KUNIT(latency_idle_exit_ns);

/* The limit of @cpu the last wake-up decision for it was made with. */
int latency_idle_woken(int cpu)
{
	return READ_ONCE(per_cpu(latency_idle, cpu).woken);
}
EXPORT_SYMBOL_IF_KUNIT(latency_idle_woken);

/**
 * latency_registry_cpu_value - the limit a registry publishes for a CPU
 * @r: the registry
 * @cpu: a possible CPU
 *
 * Context: Any context.
 * Return: What cpu_latency_constraint(@cpu) returns for the system registry.
 */
int latency_registry_cpu_value(struct latency_registry *r, int cpu)
{
	return READ_ONCE(*per_cpu_ptr(r->cpu_value, cpu));
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_cpu_value);
#endif /* CONFIG_LATENCY_KUNIT_TEST */

/*
 * What the listing copies of a holder under the lock, to print it after
 * dropping the lock.  @pid holds a reference until then.
 */
struct latency_entry {
	int usecs;
	struct pid *pid;
	char comm[TASK_COMM_LEN];
	bool named;
	bool all;
	unsigned long caller;
	u32 hash;
	char identifier[LATENCY_ID_MAX + 1];
	struct cpumask cpus;
};

/* Holders copied per hold of the lock: what bounds a reader's irq-off time. */
#define LATENCY_SHOW_BATCH	16

static void latency_entry_copy(struct latency_entry *e,
			       const struct latency_request *req)
{
	const struct latency_constraint *c = NULL;

	if (req->allocated)
		c = container_of(req, struct latency_constraint, req);
	e->usecs = req->usecs;
	e->pid = c ? get_pid(c->pid) : NULL;
	strscpy(e->comm, c ? c->comm : "", sizeof(e->comm));
	e->named = req->identifier;
	e->caller = req->caller;
	e->hash = req->hash;
	strscpy(e->identifier, req->identifier ?: "", sizeof(e->identifier));
	e->all = !req->cpus;
	if (req->cpus)
		cpumask_copy(&e->cpus, &req->cpus->mask);
}

/*
 * A holder's pid as the reader's pid namespace sees it; a holder outside
 * that namespace shows neither pid nor comm.  The comm, which its task sets
 * at will, is escaped as in /proc/PID/status, so that it cannot add a line.
 */
static void latency_entry_show(struct seq_file *m, struct latency_entry *e,
			       struct pid_namespace *ns)
{
	pid_t nr = e->pid ? pid_nr_ns(e->pid, ns) : 0;
	char buf[LATENCY_NAME_LEN];

	seq_printf(m, "%s %d ",
		   latency_name(e->named ? e->identifier : NULL, e->caller, buf),
		   e->usecs);
	if (e->all)
		seq_puts(m, "all ");
	else
		seq_printf(m, "%*pbl ", cpumask_pr_args(&e->cpus));
	if (nr) {
		seq_printf(m, "%d ", nr);
		seq_escape_str(m, e->comm, ESCAPE_SPACE | ESCAPE_SPECIAL,
			       "\n\\");
		seq_putc(m, '\n');
	} else {
		seq_puts(m, "- -\n");
	}
	put_pid(e->pid);
}

/* The first holder of @root after @key in the listing's order, or NULL. */
static struct rb_node *latency_after(struct rb_root *root,
				     struct latency_request *key)
{
	struct rb_node *node = root->rb_node, *after = NULL;

	while (node) {
		if (latency_less(&key->rbnode, node)) {
			after = node;
			node = node->rb_left;
		} else {
			node = node->rb_right;
		}
	}
	return after;
}

/*
 * The holder a "# cpu" or "# system" line names: the one that sets a value
 * below INFINITE_LATENCY, copied under the lock.
 */
struct latency_holder {
	bool named;
	unsigned long caller;
	char identifier[LATENCY_ID_MAX + 1];
};

static void latency_holder_copy(struct latency_holder *h,
				const struct latency_request *req)
{
	h->named = !req || req->identifier;
	h->caller = req ? req->caller : 0;
	strscpy(h->identifier, req && req->identifier ? req->identifier : "-",
		sizeof(h->identifier));
}

static void latency_holder_show(struct seq_file *m, const char *what, int n,
				int value, struct latency_holder *h)
{
	char buf[LATENCY_NAME_LEN];

	seq_printf(m, "# %s", what);
	if (n >= 0)
		seq_printf(m, " %d", n);
	seq_printf(m, " %d %s\n", value,
		   latency_name(h->named ? h->identifier : NULL, h->caller, buf));
}

/*
 * The holder that sets @cpu's limit: the first of its own tree or of the
 * system tree, NULL when nothing constrains it.
 */
static struct latency_request *latency_cpu_holder(struct latency_registry *r,
						  int cpu)
{
	struct latency_request *sys = latency_leftmost(r);
	struct latency_request *own = latency_cpu_first(r, cpu);

	if (own && (!sys || latency_less(&own->rbnode, &sys->rbnode)))
		sys = own;
	return sys && sys->usecs < INFINITE_LATENCY ? sys : NULL;
}

/* One "# cpu N usecs holder" line for each possible CPU. */
static void latency_show_cpus(struct latency_registry *r, struct seq_file *m)
{
	struct latency_holder h;
	unsigned long flags;
	int cpu, value;

	for_each_possible_cpu(cpu) {
		raw_spin_lock_irqsave(&r->lock, flags);
		value = READ_ONCE(*per_cpu_ptr(r->cpu_value, cpu));
		latency_holder_copy(&h, latency_cpu_holder(r, cpu));
		raw_spin_unlock_irqrestore(&r->lock, flags);
		latency_holder_show(m, "cpu", cpu, value, &h);
	}
}

/**
 * latency_registry_show - print a registry in the listing format
 * @r: the registry
 * @m: where to print
 *
 * One line per holder, sorted by value then identifier, with the CPUs it
 * applies to; one line per possible CPU naming the limit in force there
 * and the holder that sets it; a last line naming the system value and the
 * holder that sets it.  The format is an ABI:
 * Documentation/ABI/testing/procfs-latency_constraints.
 *
 * The lock is held only to copy LATENCY_SHOW_BATCH holders, or one CPU's
 * line, at a time, never while printing: each line shows what it shows as
 * it was at some moment of the read, the last line the system value at the
 * end of it.
 *
 * Context: Process context; may sleep.
 * Return: 0, or -ENOMEM.
 */
int latency_registry_show(struct latency_registry *r, struct seq_file *m)
{
	struct pid_namespace *ns = task_active_pid_ns(current);
	char key_id[LATENCY_ID_MAX + 1];
	struct latency_request key = { .identifier = key_id };
	struct rb_node *all, *some;
	struct latency_holder holder;
	struct latency_entry *e;
	int value = INFINITE_LATENCY;
	unsigned long flags;
	bool start = true;
	int n, i;

	e = kvmalloc_array(LATENCY_SHOW_BATCH, sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	seq_puts(m, "# identifier usecs cpus pid comm\n");
	do {
		raw_spin_lock_irqsave(&r->lock, flags);
		/* Both trees at once, in the listing's order. */
		all = start ? rb_first_cached(&r->by_usecs) :
		      latency_after(&r->by_usecs.rb_root, &key);
		some = start ? rb_first(&r->local) :
		       latency_after(&r->local, &key);
		for (n = 0; (all || some) && n < LATENCY_SHOW_BATCH; n++) {
			struct rb_node **next;

			next = !some || (all && latency_less(all, some)) ?
			       &all : &some;
			latency_entry_copy(&e[n], rb_entry(*next, struct latency_request,
							   rbnode));
			*next = rb_next(*next);
		}
		raw_spin_unlock_irqrestore(&r->lock, flags);

		for (i = 0; i < n; i++)
			latency_entry_show(m, &e[i], ns);
		if (n) {
			key.usecs = e[n - 1].usecs;
			key.identifier = e[n - 1].named ? key_id : NULL;
			key.hash = e[n - 1].hash;
			strscpy(key_id, e[n - 1].identifier, sizeof(key_id));
		}
		start = false;
	} while (all || some);
	kvfree(e);

	latency_show_cpus(r, m);
	raw_spin_lock_irqsave(&r->lock, flags);
	value = latency_registry_value(r);
	latency_holder_copy(&holder, value < INFINITE_LATENCY ?
				     latency_leftmost(r) : NULL);
	raw_spin_unlock_irqrestore(&r->lock, flags);
	latency_holder_show(m, "system", -1, value, &holder);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_show);

/**
 * set_acceptable_latency - set the maximum latency acceptable
 * @identifier: string that identifies this driver
 * @usecs: maximum acceptable latency for this driver, in microseconds
 *
 * Informs the kernel that this device (driver) can accept at most @usecs
 * of latency, for power management and similar tradeoffs.  Calling it with
 * an identifier that is already held changes that constraint, without
 * allocating memory.  A value above INFINITE_LATENCY means "no constraint".
 * When the system value changes, it is in effect by the time this function
 * returns, whichever cpuidle driver runs: no CPU is idle in a state whose
 * exit latency exceeds it, and the latency notifiers have been called with
 * it.
 *
 * @identifier is 1 to LATENCY_ID_MAX printable ASCII characters without
 * blanks, not starting with '#'; the registry keeps a copy.
 *
 * Context: Process context; may sleep.
 * Return: 0 on success, -EINVAL for a bad identifier or a negative value,
 * -EBUSY for an identifier held through a struct latency_request (each
 * with a warning), -ENOMEM when a new constraint cannot be allocated.
 */
int set_acceptable_latency(const char *identifier, int usecs)
{
	return latency_registry_set(&latency_system, identifier, usecs, NULL);
}
EXPORT_SYMBOL_GPL(set_acceptable_latency);

/**
 * set_acceptable_latency_cpus - set the maximum latency acceptable on some CPUs
 * @identifier: string that identifies this driver
 * @usecs: maximum acceptable latency for this driver, in microseconds
 * @cpus: the CPUs it applies to; those not possible are ignored
 *
 * As set_acceptable_latency(), for the CPUs of @cpus only: a driver whose
 * interrupt is affine to one CPU, a service pinned to some.  The limit of
 * each CPU (cpu_latency_constraint()) is the minimum of the constraints for
 * all CPUs and of those for a set that includes it; the system value
 * (system_latency_constraint()) does not count this one.  The set is taken
 * over possible CPUs: a constraint for an offline CPU applies when it comes
 * online.  Called for an identifier already held, it changes the value and
 * the set (set_acceptable_latency() makes it apply to all CPUs again);
 * modify_acceptable_latency() and remove_acceptable_latency() work on it as
 * on any named constraint.  When a CPU's limit is lowered, no CPU is idle
 * in a state that exceeds its limit by the time this function returns.
 *
 * Context: Process context; may sleep.
 * Return: 0 on success, -EINVAL for a bad identifier, a negative value or
 * a set without a possible CPU, -EBUSY for an identifier held through a
 * struct latency_request (each with a warning), -ENOMEM.
 */
int set_acceptable_latency_cpus(const char *identifier, int usecs,
				const struct cpumask *cpus)
{
	if (latency_check_cpus(cpus))
		return -EINVAL;
	return latency_registry_set_cpus(&latency_system, identifier, usecs,
					 cpus, NULL);
}
EXPORT_SYMBOL_GPL(set_acceptable_latency_cpus);

/**
 * modify_acceptable_latency - change the maximum latency acceptable
 * @identifier: string that identifies this driver
 * @usecs: new maximum acceptable latency for this driver, in microseconds
 *
 * Changes a constraint added by set_acceptable_latency().  An unknown
 * identifier is ignored: nothing changes.  The new value is visible to
 * system_latency_constraint() at once, and a CPU idle in a state now too
 * deep is sent an interrupt, which is not waited for; the latency notifiers
 * are called later, from process context.  Call
 * synchronize_acceptable_latency() to wait until it is in effect.
 *
 * Context: Any context, including hard interrupt; never sleeps.
 * Return: 0 on success, -ENOENT for an unknown identifier, -EINVAL for a
 * bad identifier or a negative value, -EBUSY for an identifier held
 * through a struct latency_request (each with a warning).
 */
int modify_acceptable_latency(const char *identifier, int usecs)
{
	return latency_registry_modify(&latency_system, identifier, usecs);
}
EXPORT_SYMBOL_GPL(modify_acceptable_latency);

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
int remove_acceptable_latency(const char *identifier)
{
	return latency_registry_remove(&latency_system, identifier);
}
EXPORT_SYMBOL_GPL(remove_acceptable_latency);

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
int latency_request_add(struct latency_request *req, int usecs)
{
	return latency_registry_add_request(&latency_system, req, usecs, NULL);
}
EXPORT_SYMBOL_GPL(latency_request_add);

/**
 * latency_request_add_cpus - hold a constraint for some CPUs through a handle
 * @req: the request, initialised by latency_request_init(), not active
 * @usecs: maximum acceptable latency, in microseconds
 * @cpus: the CPUs it applies to, as for set_acceptable_latency_cpus()
 *
 * As latency_request_add(), for the CPUs of @cpus only.  The registry
 * allocates the set here; latency_request_update() allocates nothing,
 * latency_request_remove() frees it.
 *
 * Context: Process context; may sleep.
 * Return: 0 on success, -EINVAL for a negative value, a set without a
 * possible CPU, or a request not initialised or already active, -EEXIST
 * for an identifier already held (each with a warning), -ENOMEM.
 */
int latency_request_add_cpus(struct latency_request *req, int usecs,
			     const struct cpumask *cpus)
{
	if (latency_check_cpus(cpus))
		return -EINVAL;
	return latency_registry_add_request(&latency_system, req, usecs, cpus);
}
EXPORT_SYMBOL_GPL(latency_request_add_cpus);

/**
 * latency_request_update - change a constraint held through a handle
 * @req: the request, added by latency_request_add()
 * @usecs: new maximum acceptable latency, in microseconds
 *
 * Like modify_acceptable_latency() without the lookup by name: the value
 * is visible to system_latency_constraint() at once, the CPUs idle too
 * deep are sent an interrupt, the notifiers are called later, from process
 * context.
 *
 * Context: Any context, including hard interrupt; never sleeps.
 * Return: 0 on success, -EINVAL for a negative value or a request not
 * active (with a warning).
 */
int latency_request_update(struct latency_request *req, int usecs)
{
	return latency_registry_update_request(&latency_system, req, usecs);
}
EXPORT_SYMBOL_GPL(latency_request_update);

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
int latency_request_remove(struct latency_request *req)
{
	return latency_registry_remove_request(&latency_system, req);
}
EXPORT_SYMBOL_GPL(latency_request_remove);

/**
 * synchronize_acceptable_latency - make every consumer act on the constraint
 *
 * Delivers a pending change, interrupts every CPU still idle in a state
 * whose exit latency exceeds the current system value and waits until each
 * has left it, whichever cpuidle driver runs, then calls the latency
 * notifiers with the value whether or not it changed, and returns when they
 * have acted on it: no overlong latency decision is active any more.  The
 * typical use is after modify_acceptable_latency(), which does not wait.
 *
 * Context: Process context; may sleep.  Must not be called from a latency
 * notifier.
 */
void synchronize_acceptable_latency(void)
{
	latency_registry_sync(&latency_system);
}
EXPORT_SYMBOL_GPL(synchronize_acceptable_latency);

/**
 * register_latency_notifier - be told when the system constraint changes
 * @nb: the notifier; its callback gets the new value as @action
 *
 * The callback runs in process context whenever the value returned by
 * system_latency_constraint() changes, whichever call changed it.  It is
 * expected to act on the new value before returning (see
 * synchronize_acceptable_latency()), and must not change a constraint.
 *
 * Context: Process context; may sleep.
 * Return: 0, or -EEXIST when @nb is already registered.
 */
int register_latency_notifier(struct notifier_block *nb)
{
	struct latency_registry *r = &latency_system;
	int ret;

	/*
	 * Changes made while no notifier was registered were not delivered:
	 * start from the value now.  A change published after this read
	 * finds the notifier and is delivered.
	 */
	mutex_lock(&r->notify_lock);
	ret = blocking_notifier_chain_register(&r->notifiers, nb);
	smp_mb();	/* the chain, then the value: pairs with latency_changed() */
	r->notified = latency_registry_value(r);
	mutex_unlock(&r->notify_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(register_latency_notifier);

/**
 * unregister_latency_notifier - stop being told of changes
 * @nb: the notifier given to register_latency_notifier()
 *
 * Context: Process context; may sleep.
 * Return: 0, or -ENOENT when @nb is not registered.
 */
int unregister_latency_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_unregister(&latency_system.notifiers, nb);
}
EXPORT_SYMBOL_GPL(unregister_latency_notifier);

/*
 * The built-in "kernel" constraint of the 2006 code: two timer ticks, since
 * a longer C-state exit lost timer ticks.  That still holds for a kernel
 * built without CONFIG_TICK_ONESHOT (neither NO_HZ_COMMON nor
 * HIGH_RES_TIMERS): its tick is tick_handle_periodic(), and tick_periodic()
 * advances jiffies by one per timer interrupt (do_timer(1)), so an
 * interrupt delayed past the next period costs a jiffy.  With TICK_ONESHOT
 * the tick is an hrtimer, stopped in idle under NO_HZ_IDLE, and
 * tick_do_update_jiffies64() counts the periods elapsed from the
 * clocksource: no exit latency loses a tick, and the holder would only
 * forbid states (intel_idle's 2.6 ms and 10 ms ones) that cost nothing in
 * time keeping.  "latency.kernel=<usecs>" forces a value, "off" drops it;
 * a kernel whose tick is periodic at run time (nohz=off highres=off) may
 * want the former.
 */
static int latency_kernel_usecs;	/* -1: no holder */
static bool latency_kernel_given;	/* latency.kernel= was on the command line */

/**
 * latency_kernel_default - the built-in constraint a kernel needs
 * @tick_counts_elapsed: whether the tick catches up the periods it missed
 *	(CONFIG_TICK_ONESHOT)
 *
 * Return: Two ticks in microseconds, or -1 for no holder at all.
 */
VISIBLE_IF_KUNIT int latency_kernel_default(bool tick_counts_elapsed)
{
	return tick_counts_elapsed ? -1 : 2 * USEC_PER_SEC / HZ;
}
EXPORT_SYMBOL_IF_KUNIT(latency_kernel_default);

VISIBLE_IF_KUNIT int latency_kernel_param_set(const char *val,
					      const struct kernel_param *kp)
{
	int usecs, ret;

	if (sysfs_streq(val, "off")) {
		usecs = -1;
	} else {
		ret = kstrtoint(val, 10, &usecs);
		if (ret || usecs < 0)
			return -EINVAL;
		usecs = latency_clamp(usecs);
	}
	latency_kernel_usecs = usecs;
	latency_kernel_given = true;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(latency_kernel_param_set);

VISIBLE_IF_KUNIT int latency_kernel_param_get(char *buffer,
					      const struct kernel_param *kp)
{
	if (latency_kernel_usecs < 0)
		return sysfs_emit(buffer, "off\n");
	return sysfs_emit(buffer, "%d\n", latency_kernel_usecs);
}
EXPORT_SYMBOL_IF_KUNIT(latency_kernel_param_get);

static const struct kernel_param_ops latency_kernel_param_ops = {
	.set = latency_kernel_param_set,
	.get = latency_kernel_param_get,
};
module_param_cb(kernel, &latency_kernel_param_ops, NULL, 0444);
MODULE_PARM_DESC(kernel, "built-in constraint in usecs, or \"off\"");

/*
 * latency.cpus=<cpulist>:<usecs>, up to LATENCY_BOOT_MAX times: constraints
 * for some CPUs that hold from the first initcall on, before user space
 * runs (the isolated CPUs of a real-time system, say).  Each is held as
 * "boot:<n>", n counting the parameters from 0 in the order given; any
 * caller may change or remove it by that name.  The list is parsed here,
 * checked against the possible CPUs at the initcall.
 */
#define LATENCY_BOOT_MAX	8

struct latency_boot {
	struct cpumask cpus;
	int usecs;
};

static struct latency_boot latency_boot[LATENCY_BOOT_MAX] __initdata;
static unsigned int latency_boot_count __initdata;

static int __init latency_cpus_setup(char *str)
{
	struct latency_boot *b = &latency_boot[latency_boot_count];
	char *colon = strrchr(str, ':');
	int ret;

	if (latency_boot_count == LATENCY_BOOT_MAX) {
		pr_err("latency.cpus=%s: more than %d, ignored\n", str,
		       LATENCY_BOOT_MAX);
		return 1;
	}
	if (!colon || kstrtoint(colon + 1, 10, &b->usecs) || b->usecs < 0)
		goto bad;
	*colon = '\0';
	ret = cpulist_parse(str, &b->cpus);
	*colon = ':';
	if (ret)
		goto bad;
	latency_boot_count++;
	return 1;
bad:
	pr_err("latency.cpus=%s: not <cpulist>:<usecs>, ignored\n", str);
	return 1;
}
__setup("latency.cpus=", latency_cpus_setup);

static void __init latency_boot_add(void)
{
	char id[16];
	unsigned int i;
	int ret;

	for (i = 0; i < latency_boot_count; i++) {
		struct latency_boot *b = &latency_boot[i];

		if (!cpumask_intersects(&b->cpus, cpu_possible_mask)) {
			pr_err("latency.cpus=%*pbl:%d: no possible CPU, ignored\n",
			       cpumask_pr_args(&b->cpus), b->usecs);
			continue;
		}
		snprintf(id, sizeof(id), "boot:%u", i);
		ret = latency_registry_set_cpus(&latency_system, id, b->usecs,
						&b->cpus, NULL);
		if (ret)
			pr_err("cannot add the \"%s\" constraint: %d\n", id, ret);
	}
}

#ifdef CONFIG_PROC_FS
static int latency_proc_show(struct seq_file *m, void *v)
{
	return latency_registry_show(&latency_system, m);
}
#endif

static int __init latency_init(void)
{
	int ret;

#ifdef CONFIG_PROC_FS
	proc_create_single("latency_constraints", 0444, NULL,
			   latency_proc_show);
#endif
	latency_boot_add();
	if (!latency_kernel_given)
		latency_kernel_usecs =
			latency_kernel_default(IS_ENABLED(CONFIG_TICK_ONESHOT));
	if (latency_kernel_usecs < 0)
		return 0;
	ret = latency_registry_add_kernel(&latency_system,
					  latency_kernel_usecs);
	if (ret && ret != -EEXIST)
		pr_err("cannot add the \"kernel\" constraint: %d\n", ret);
	return 0;
}
core_initcall(latency_init);
