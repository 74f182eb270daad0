// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency.c: explicit system-wide latency-expectation infrastructure
 *
 * Device drivers state the latency constraint they have, each under a
 * name (listed in /proc/latency_constraints); power management trades
 * latency for power within them.  CPU idle is the user: each deeper
 * C-state saves more power but takes longer to leave.  An audio driver
 * whose hardware interrupts with 200 usec of samples left in its DMA
 * buffer holds, say, 150 usec while it plays.
 *
 * A constraint applies to all CPUs, or to a set of CPUs.  The system value
 * is the minimum over those for all CPUs; each CPU also has the minimum of
 * those for a set that includes it.  Both are published for lock-free
 * readers: a CPU's limit is the smaller of the two, so that a change of the
 * system value costs the same on 2 CPUs and on 8192.
 *
 * Every change is one call of one primitive, __latency_apply(), under the
 * registry lock: it moves the holder in the trees (O(log n), O(k log n) for
 * a set of k CPUs), then publishes what moved.  After the lock is dropped,
 * latency_idle_wake() interrupts the CPUs idle in a state too deep for
 * their limit now, decided from that alone, and the notifier chain runs in
 * process context.  A holder that must not allocate embeds a struct
 * latency_request (the CPU latency QoS does).
 *
 * (C) Copyright 2006 Intel Corporation
 * Author: Arjan van de Ven <arjan@linux.intel.com>
 */

#define pr_fmt(fmt) "latency: " fmt

#include <linux/bug.h>
#include <linux/cpumask.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched/idle.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "latency_internal.h"

#define CREATE_TRACE_POINTS
#include <trace/events/latency.h>
EXPORT_TRACEPOINT_SYMBOL_GPL(latency_idle_wake);

/*
 * Give the chain the current value unless it has it: two changes that cancel
 * out before it runs give no call, a change is never delivered twice.
 */
static void latency_notify(struct latency_registry *r, bool always)
{
	int value;

	mutex_lock(&r->notify_lock);
	value = latency_registry_value(r);
	if (always || value != r->notified) {
		r->notified = value;
		blocking_notifier_call_chain(&r->notifiers, value, NULL);
	}
	mutex_unlock(&r->notify_lock);
}

/* After a call that cannot sleep: deliver its change. */
VISIBLE_IF_KUNIT void latency_workfn(struct work_struct *work)
{
	latency_notify(container_of(work, struct latency_registry, work), false);
}
EXPORT_SYMBOL_IF_KUNIT(latency_workfn);

#define LATENCY_CPU_INIT { .tree = RB_ROOT_CACHED, .value = INFINITE_LATENCY }
DEFINE_PER_CPU(struct latency_cpu, latency_cpu) = LATENCY_CPU_INIT;
EXPORT_PER_CPU_SYMBOL_GPL(latency_cpu);

/*
 * Locking rule: every change of a registry's trees and published values is
 * made under its ->lock, a raw spinlock taken with raw_spin_lock_irqsave():
 * modify, remove and the request calls may be called from hard interrupt
 * context, on PREEMPT_RT too.  Nothing under ->lock sleeps, allocates,
 * frees or loops over CPUs it does not change; what a change unlinks is
 * freed after an RCU grace period, so that the wake-up may read a CPU set
 * after the lock is dropped.  Readers of the values take no lock.  The
 * notifiers run under ->notify_lock, a mutex, never under ->lock, and must
 * not change a constraint.  Statically "no constraint" (the wakeup class:
 * all CPUs only, up to S32_MAX as upstream): a query before any initcall
 * forbids no idle state.
 */
struct latency_registry latency_system =
	LATENCY_REGISTRY_INIT(latency_system, &latency_cpu, INFINITE_LATENCY);
EXPORT_SYMBOL_GPL(latency_system);	/* for the inline readers */
struct latency_registry latency_wakeup =
	LATENCY_REGISTRY_INIT(latency_wakeup, NULL, S32_MAX);
EXPORT_SYMBOL_GPL(latency_wakeup);

/*
 * Kernel callers' mistakes get -EINVAL and one warning naming the mistake;
 * the registry is left untouched.  User space never reaches these checks
 * with bad input: latency_dev.c rejects it first, without a warning.
 */
static int latency_check_id(const char *id)
{
	size_t i;

	if (WARN_ONCE(!id || !*id, "latency: NULL or empty identifier\n"))
		return -EINVAL;
	for (i = 0; id[i]; i++) {
		/* Printable ASCII, no blank, no '#' first: a listing word. */
		if (WARN_ONCE(id[i] <= ' ' || id[i] > '~' || i == LATENCY_ID_MAX ||
			      id[0] == '#',
			      "latency: identifier too long or not printable\n"))
			return -EINVAL;
	}
	return 0;
}

static int latency_check_usecs(int usecs)
{
	return WARN_ONCE(usecs < 0, "latency: negative latency %d\n", usecs) ? -EINVAL : 0;
}

/* A set must name a possible CPU; the others are dropped (a smaller machine). */
static int latency_check_cpus(struct latency_registry *r,
			      const struct cpumask *cpus)
{
	if (WARN_ONCE(!r->cpu || !cpus || !cpumask_intersects(cpus, cpu_possible_mask),
		      "latency: a CPU set with no possible CPU, or in a class without sets\n"))
		return -EINVAL;
	return 0;
}

/* A CPU set, its nodes (one per CPU, maybe over a page) in no tree yet. */
static struct latency_cpus *latency_cpus_alloc(const struct cpumask *mask,
					       gfp_t gfp)
{
	struct latency_cpus *cpus;
	unsigned int n;

	n = cpumask_weight_and(mask, cpu_possible_mask);
	cpus = kvzalloc(struct_size(cpus, node, n), gfp);
	if (cpus)
		cpumask_and(&cpus->mask, mask, cpu_possible_mask);
	return cpus;
}

static int latency_name_cmp(const void *key, const struct rb_node *node)
{
	return strcmp(key, rb_entry(node, struct latency_request,
				    name_node)->identifier);
}

static bool latency_name_less(struct rb_node *a, const struct rb_node *b)
{
	return latency_name_cmp(rb_entry(a, struct latency_request,
					 name_node)->identifier, b) < 0;
}

struct latency_request *latency_find(struct latency_registry *r,
				     const char *id)
{
	struct rb_node *node = rb_find(id, &r->names, latency_name_cmp);

	lockdep_assert_held(&r->lock);
	return node ? rb_entry(node, struct latency_request, name_node) : NULL;
}

/* Free a removed named constraint once no wake-up can read its CPU set. */
static void latency_free_rcu(struct rcu_head *head)
{
	struct latency_constraint *c = container_of(head, typeof(*c), rcu);

	put_pid(c->pid);
	kfree(c);
}

/* Any context: neither call_rcu() nor kvfree_rcu() sleeps, on PREEMPT_RT too. */
static void latency_dispose(struct latency_request *req,
			    struct latency_cpus *cpus)
{
	if (req && req->allocated)
		call_rcu(&container_of(req, struct latency_constraint, req)->rcu,
			 latency_free_rcu);
	if (cpus)
		kvfree_rcu(cpus, rcu);
}

/* What latency_apply() does to a request. */
enum latency_action {
	LATENCY_ADD,
	LATENCY_UPDATE,
	LATENCY_MOVE,		/* an update with a new CPU set */
	LATENCY_REMOVE,
};

/*
 * What one change did, for what follows once the lock is dropped: the
 * system value before and after, the holder's value before, whether a CPU's
 * own minimum moved, the holder's CPU set after and the one it took.
 */
struct latency_change {
	int old_system;
	int system;
	int old;
	bool cpu_moved;
	const struct latency_cpus *cpus;
	struct latency_cpus *old_cpus;
};

/* Put @req, a constraint for some CPUs, in its trees (@link), or out. */
static void latency_link_cpus(struct latency_registry *r,
			      struct latency_request *req, bool link)
{
	struct latency_cpus *cpus = req->cpus;
	unsigned int i = 0;
	int cpu;

	if (link)
		rb_add(&req->rbnode, &r->some, latency_less);
	else
		rb_erase(&req->rbnode, &r->some);
	for_each_cpu(cpu, &cpus->mask) {
		struct rb_root_cached *tree = &per_cpu_ptr(r->cpu, cpu)->tree;
		struct latency_node *node = &cpus->node[i++];

		if (link) {
			node->req = req;
			rb_add_cached(&node->rbnode, tree, latency_node_less);
		} else {
			rb_erase_cached(&node->rbnode, tree);
		}
	}
}

/* Put @req in its trees (@link), or take it out. */
static __always_inline void latency_link(struct latency_registry *r,
					 struct latency_request *req, bool link)
{
	if (req->cpus)
		latency_link_cpus(r, req, link);
	else if (link)
		rb_add_cached(&req->rbnode, &r->all, latency_less);
	else
		rb_erase_cached(&req->rbnode, &r->all);
}

/*
 * Whether @req, for all CPUs, keeps its place in the order with @usecs: it
 * passes not the neighbour it moves toward (moving down, the first has none).
 */
static __always_inline bool latency_keeps_order(struct latency_registry *r,
						struct latency_request *req,
						int usecs)
{
	int old = req->usecs;
	struct rb_node *next;
	bool keeps;

	if (usecs <= old && rb_first_cached(&r->all) == &req->rbnode)
		return true;
	next = usecs > old ? rb_next(&req->rbnode) : rb_prev(&req->rbnode);
	req->usecs = usecs;
	keeps = !next || (usecs > old ? latency_less(&req->rbnode, next) :
					latency_less(next, &req->rbnode));
	req->usecs = old;
	return keeps;
}

/* Publish the own minimum of each CPU of @cpus; true when one changed. */
static bool latency_publish_cpus(struct latency_registry *r,
				 const struct latency_cpus *cpus)
{
	bool moved = false;
	int cpu;

	if (!cpus)
		return false;
	for_each_cpu(cpu, &cpus->mask) {
		struct latency_request *first = latency_cpu_first(r, cpu);
		int *value = &per_cpu_ptr(r->cpu, cpu)->value;
		int min = first ? first->usecs : r->max;

		if (min != *value) {
			WRITE_ONCE(*value, min);
			moved = true;
		}
	}
	return moved;
}

/*
 * The system value, alone in a write section of the seqcount: an idle
 * entry waits in latency_limit() for one store at most.  A move between
 * all CPUs and some lowers one of a CPU's two values and raises the other,
 * the lowering first: a reader that saw the raise also sees the section.
 */
static void latency_publish_system(struct latency_registry *r, int value)
{
	write_seqcount_begin(&r->seq);
	WRITE_ONCE(r->value, value);
	write_seqcount_end(&r->seq);
	smp_wmb();	/* before the CPUs' values that follow */
}

/*
 * The name a holder is listed and traced by: its identifier, or for a CPU
 * latency QoS request "pm_qos:" and the function that added it, in @buf
 * (a module's __init code and a kernel without KALLSYMS have none); "func
 * [module]" loses its blank, so that the name stays one word.
 */
const char *latency_name(const char *identifier, unsigned long caller,
			 char buf[LATENCY_NAME_LEN])
{
	struct module *mod;
	char *blank;

	if (identifier)
		return identifier;
	snprintf(buf, LATENCY_NAME_LEN, "pm_qos:%ps", (void *)caller);
	if (str_has_prefix(buf + 7, "0x")) {
		/* No symbol: "[module]" or "[-]", never an address (KASLR). */
		preempt_disable();
		mod = __module_address(caller);
		scnprintf(buf + 7, LATENCY_NAME_LEN - 7, "[%s]",
			  mod ? module_name(mod) : "-");
		preempt_enable();
	}
	blank = strchr(buf, ' ');
	if (blank)
		memmove(blank, blank + 1, strlen(blank));
	return buf;
}

/* Trace a change.  Apart, so that its buffer costs nothing while off. */
static noinline void latency_trace(struct latency_registry *r,
				   const struct latency_request *req,
				   enum latency_action action, int old,
				   const struct latency_cpus *set)
{
	const struct cpumask *cpus = set ? &set->mask : NULL;
	int system = r->value;
	char buf[LATENCY_NAME_LEN];
	const char *name = latency_name(req->identifier, req->caller, buf);

	if (r == &latency_wakeup)
		trace_latency_wakeup(name, action == LATENCY_ADD ? r->max : old,
				     action == LATENCY_REMOVE ? r->max : req->usecs,
				     NULL, system);
	else if (action == LATENCY_ADD)
		trace_latency_add(name, INFINITE_LATENCY, req->usecs, cpus, system);
	else if (action == LATENCY_UPDATE)
		trace_latency_update(name, old, req->usecs, cpus, system);
	else
		trace_latency_remove(name, old, INFINITE_LATENCY, cpus, system);
}

/* Whether @action is traced: a move is traced as a remove and an add. */
static __always_inline bool latency_trace_enabled(struct latency_registry *r,
						  enum latency_action action)
{
	if (r != &latency_system)
		return r == &latency_wakeup && trace_latency_wakeup_enabled();
	return action == LATENCY_UPDATE ? trace_latency_update_enabled() :
	       (action != LATENCY_REMOVE && trace_latency_add_enabled()) ||
	       (action != LATENCY_ADD && trace_latency_remove_enabled());
}

/*
 * The one primitive, under ->lock, for every holder: add @req with the set
 * @cpus (NULL: all) and @usecs (at most ->max), give it @usecs (update), or
 * @usecs and the set @cpus (move), or remove it; make the tree changes, then
 * publish the system value and the minimum of each CPU it had or has.
 */
static __always_inline void
__latency_apply(struct latency_registry *r, struct latency_request *req,
		enum latency_action action, int usecs,
		struct latency_cpus *cpus, struct latency_change *ch)
{
	struct latency_cpus *now = action == LATENCY_UPDATE ? req->cpus : cpus;
	struct latency_cpus *old = NULL;
	struct rb_node *first;
	bool relink;

	lockdep_assert_held(&r->lock);
	ch->old_system = r->value;
	ch->old = action == LATENCY_ADD ? r->max : req->usecs;
	usecs = min(usecs, r->max);
	relink = action != LATENCY_UPDATE || now ||
		 !latency_keeps_order(r, req, usecs);
	if (action == LATENCY_ADD) {
		req->cpus = cpus;
		if (req->identifier)
			rb_add(&req->name_node, &r->names, latency_name_less);
		WRITE_ONCE(req->registry, r);
	} else if (relink) {
		latency_link(r, req, false);
	}
	req->usecs = usecs;
	if (action == LATENCY_MOVE || action == LATENCY_REMOVE) {
		old = req->cpus;
		req->cpus = cpus;
	}
	if (action == LATENCY_REMOVE) {
		if (req->identifier)
			rb_erase(&req->name_node, &r->names);
		WRITE_ONCE(req->registry, NULL);
	} else if (relink) {
		latency_link(r, req, true);
	}

	first = rb_first_cached(&r->all);
	ch->system = first ? rb_entry(first, struct latency_request,
				      rbnode)->usecs : r->max;
	/* Tightenings first: see latency_publish_system(). */
	if (ch->system < ch->old_system)
		latency_publish_system(r, ch->system);
	ch->cpu_moved = latency_publish_cpus(r, old) |
			latency_publish_cpus(r, now);
	if (ch->system > ch->old_system)
		latency_publish_system(r, ch->system);
	ch->cpus = now;
	ch->old_cpus = old;

	if (!latency_trace_enabled(r, action))
		return;
	if (action == LATENCY_MOVE) {
		latency_trace(r, req, LATENCY_REMOVE, ch->old, old);
		action = LATENCY_ADD;
	}
	latency_trace(r, req, action, ch->old,
		      action == LATENCY_REMOVE ? old : now);
}

/* The named calls' copy; each request call has its own, inlined. */
static noinline void latency_apply(struct latency_registry *r,
				   struct latency_request *req,
				   enum latency_action action, int usecs,
				   struct latency_cpus *cpus,
				   struct latency_change *ch)
{
	__latency_apply(r, req, action, usecs, cpus, ch);
}

DEFINE_PER_CPU(struct latency_idle, latency_idle);
EXPORT_PER_CPU_SYMBOL_GPL(latency_idle);

/* Serialises the waiting calls of latency_idle_wake(); protects the mask. */
static DEFINE_MUTEX(latency_wake_lock);
static struct cpumask latency_wake_mask;

static void latency_idle_ipi(void *unused)
{
	latency_idle_exit();	/* out of its state, as in C1: sti; hlt */
}

/* The smallest limit before the changes the queued wake-up stands for. */
static atomic_t latency_wake_old = ATOMIC_INIT(INFINITE_LATENCY);
static void latency_wake_workfn(struct work_struct *work);
static DECLARE_WORK(latency_wake_work, latency_wake_workfn);

/*
 * Make the limits published by a change reach the idle CPUs: interrupt
 * those of @a and @b (all possible CPUs with @wait or for a new system
 * value) idle in a state too deep for their limit now, and wake those
 * whose limit was @old where it now allows a deeper state; with @wait,
 * return when each too deep has run latency_idle_ipi(): out of its state
 * until it enters one under its limit now.  Never the running CPU, which
 * reads them when it idles.  @from: the system value before, for the event.
 * cpuidle_enter_state() publishes a CPU's state, then reads its limit
 * (latency_idle_enter()); this reads the states after the limits were
 * published: with a full barrier on both sides, either this sees the
 * state, or that CPU sees the new limit and enters a state that fits.
 *
 * Context: Any; process context with @wait.  Preemptible but per CPU,
 * under the RCU read lock for a change of some CPUs' limits only.  With
 * interrupts off, where it would grow with the machine, a work item of the
 * high-priority workqueue, queued on this CPU, does it for every CPU.
 */
static void latency_idle_wake(int from, int old, const struct cpumask *a,
			      const struct cpumask *b, bool wait)
{
	unsigned int deep = 0, shallow = 0;
	int cpu, self;

	if (!wait && irqs_disabled()) {
		cpu = atomic_read(&latency_wake_old);
		while (old < cpu &&
		       !atomic_try_cmpxchg(&latency_wake_old, &cpu, old))
			;
		queue_work(system_highpri_wq, &latency_wake_work);
		return;
	}
	if (wait) {
		mutex_lock(&latency_wake_lock);
		cpumask_clear(&latency_wake_mask);
	}
	smp_mb();	/* pairs with the one in latency_idle_enter() */
	self = raw_smp_processor_id();
	for_each_cpu_or(cpu, a, b) {
		enum latency_wake w;

		if (cpu == self)
			continue;
		guard(preempt)();	/* no CPU goes offline meanwhile */
		if (!cpu_online(cpu))
			continue;
		w = latency_idle_decide(latency_usecs_to_ns(old),
					latency_usecs_to_ns(cpu_latency_constraint(cpu)),
					latency_idle_exit_ns(cpu),
					READ_ONCE(per_cpu(latency_idle, cpu).next_ns));
		deep += w == LATENCY_WAKE_DEEP;
		shallow += w == LATENCY_WAKE_SHALLOW;
		if (w == LATENCY_WAKE_DEEP && wait)
			__cpumask_set_cpu(cpu, &latency_wake_mask);
		else if (w != LATENCY_WAKE_NONE)
			wake_up_if_idle(cpu);
	}
	if (wait && deep)
		on_each_cpu_mask(&latency_wake_mask, latency_idle_ipi, NULL, true);
	if (wait)
		mutex_unlock(&latency_wake_lock);
	trace_latency_idle_wake(from, min(system_latency_constraint(),
					  wakeup_latency_constraint()),
				deep, shallow, wait);
}

static void latency_wake_workfn(struct work_struct *work)
{
	int old = atomic_xchg(&latency_wake_old, INFINITE_LATENCY);

	latency_idle_wake(old, old, cpu_possible_mask, cpu_none_mask, false);
}

/*
 * After a change of @r, the lock dropped: make the new limits reach the
 * idle CPUs (->idle), dispose of the CPU set it took, and give a new system
 * value to the notifiers, now (@sync) or from the work item (none queued
 * with no notifier).
 */
static __always_inline void latency_changed(struct latency_registry *r,
					    const struct latency_change *ch,
					    bool sync)
{
	bool moved = ch->system != ch->old_system;

	if ((moved || sync) && r->idle)
		latency_idle_wake(ch->old_system, moved ? ch->old_system :
				  latency_registry_value(r), cpu_possible_mask,
				  cpu_none_mask, sync);
	else if (ch->cpu_moved && r->idle)
		latency_idle_wake(ch->old_system, ch->old,
				  ch->cpus ? &ch->cpus->mask : cpu_none_mask,
				  ch->old_cpus ? &ch->old_cpus->mask :
						 cpu_none_mask, false);
	latency_dispose(NULL, ch->old_cpus);
	/* A synchronous call also delivers what an earlier one left queued. */
	if (!moved && !sync)
		return;
	smp_mb();	/* the value, then the chain: see register_latency_notifier() */
	if (!rcu_access_pointer(r->notifiers.head))
		return;
	if (sync)
		latency_notify(r, false);
	else
		schedule_work(&r->work);
}

/* The one allocation of a holder: KUnit stubs it to fail, failslab too. */
VISIBLE_IF_KUNIT struct latency_constraint *latency_alloc(size_t len, gfp_t gfp)
{
	struct latency_constraint *c;

	KUNIT_STATIC_STUB_REDIRECT(latency_alloc, len, gfp);
	return kzalloc(struct_size(c, identifier, len + 1), gfp);
}
EXPORT_SYMBOL_IF_KUNIT(latency_alloc);

/* What a user-space holder (@owner) makes the kernel allocate is its own. */
#define latency_gfp(owner)	((owner) ? GFP_KERNEL_ACCOUNT : GFP_KERNEL)

static struct latency_constraint *latency_new(const char *id,
					      struct task_struct *owner)
{
	size_t len = strlen(id);
	struct latency_constraint *c = latency_alloc(len, latency_gfp(owner));

	if (!c)
		return NULL;
	memcpy(c->identifier, id, len + 1);
	c->req.identifier = c->identifier;
	c->req.allocated = true;
	if (owner) {
		c->pid = get_task_pid(owner, PIDTYPE_TGID);
		get_task_comm(c->comm, owner);
	}
	return c;
}

/* A name held through a request handle is its holder's: not the named calls'. */
static int latency_busy(const char *id)
{
	WARN_ONCE(1, "latency: \"%s\" is held through a latency_request\n", id);
	return -EBUSY;
}

/* See set_acceptable_latency_cpus(); @owner is a user-space holder's task. */
int latency_registry_set_cpus(struct latency_registry *r,
			      const char *identifier, int usecs,
			      const struct cpumask *cpus,
			      struct task_struct *owner)
{
	struct latency_constraint *new = NULL;
	struct latency_cpus *set;
	struct latency_request *req;
	struct latency_change ch;
	unsigned long flags;
	bool busy;
	int ret;

	might_sleep();
	ret = latency_check_id(identifier) ?: latency_check_usecs(usecs) ?:
	      (cpus ? latency_check_cpus(r, cpus) : 0);
	if (ret)
		return ret;
	set = cpus ? latency_cpus_alloc(cpus, latency_gfp(owner)) : NULL;
	if (cpus && !set)
		return -ENOMEM;
	for (;;) {
		raw_spin_lock_irqsave(&r->lock, flags);
		req = latency_find(r, identifier);
		if (req || new)
			break;
		raw_spin_unlock_irqrestore(&r->lock, flags);
		/* An unknown name: allocate outside the lock, look again. */
		new = latency_new(identifier, owner);
		if (!new) {
			kvfree(set);
			return -ENOMEM;
		}
	}
	busy = req && !req->allocated;
	if (!req) {
		latency_apply(r, &new->req, LATENCY_ADD, usecs, set, &ch);
		new = NULL;
		set = NULL;
	} else if (!busy && (set ? req->cpus && cpumask_equal(&req->cpus->mask,
							      &set->mask) :
				   !req->cpus)) {
		latency_apply(r, req, LATENCY_UPDATE, usecs, NULL, &ch);
	} else if (!busy) {
		latency_apply(r, req, LATENCY_MOVE, usecs, set, &ch);
		set = NULL;
	}
	raw_spin_unlock_irqrestore(&r->lock, flags);
	kvfree(set);
	if (new) {	/* somebody added the name while we allocated */
		put_pid(new->pid);
		kfree(new);
	}
	if (busy)
		return latency_busy(identifier);
	latency_changed(r, &ch, true);
	return 0;
}
EXPORT_SYMBOL_GPL(latency_registry_set_cpus);

/* modify and remove: look the holder up, apply @action, in any context. */
static int latency_named_op(struct latency_registry *r, const char *identifier,
			    enum latency_action action, int usecs)
{
	struct latency_request *req;
	struct latency_change ch;
	unsigned long flags;
	bool busy, sets;
	int ret;

	ret = latency_check_id(identifier) ?: latency_check_usecs(usecs);
	if (ret)
		return ret;

	raw_spin_lock_irqsave(&r->lock, flags);
	req = latency_find(r, identifier);
	busy = req && !req->allocated;
	if (req && !busy)
		latency_apply(r, req, action, usecs, NULL, &ch);
	/* The CPU sets the wake-up reads (only then) stay alive until it ends. */
	sets = req && !busy && ch.system == ch.old_system;
	if (sets)
		rcu_read_lock();
	raw_spin_unlock_irqrestore(&r->lock, flags);
	if (req && !busy)
		latency_changed(r, &ch, false);
	if (sets)
		rcu_read_unlock();

	if (!req)
		return -ENOENT;
	if (busy)
		return latency_busy(identifier);
	if (action == LATENCY_REMOVE)
		latency_dispose(req, NULL);
	return 0;
}

/* See modify_acceptable_latency(). */
int latency_registry_modify(struct latency_registry *r,
			    const char *identifier, int usecs)
{
	return latency_named_op(r, identifier, LATENCY_UPDATE, usecs);
}
EXPORT_SYMBOL_GPL(latency_registry_modify);

/* See remove_acceptable_latency(). */
int latency_registry_remove(struct latency_registry *r,
			    const char *identifier)
{
	return latency_named_op(r, identifier, LATENCY_REMOVE, 0);
}
EXPORT_SYMBOL_GPL(latency_registry_remove);

/**
 * latency_request_init - give a request its identifier
 * @req: the request: zeroed, or removed since it was last added
 * @identifier: the holder's name, as for set_acceptable_latency(); the
 *	registry does not copy it: it must stay valid and unchanged until
 *	@req is last removed
 *
 * Context: Any context.
 * Return: 0, or -EINVAL with a warning: a bad identifier, an active @req.
 */
int latency_request_init(struct latency_request *req, const char *identifier)
{
	if (WARN_ONCE(!req, "latency: NULL request\n"))
		return -EINVAL;
	if (latency_check_id(identifier))
		return -EINVAL;
	if (WARN_ONCE(READ_ONCE(req->registry),
		      "latency: %s() of an active request\n", __func__))
		return -EINVAL;
	*req = (struct latency_request) { .identifier = identifier,
					  .usecs = INFINITE_LATENCY };
	return 0;
}
EXPORT_SYMBOL_GPL(latency_request_init);

/*
 * Every call on a request handle, and the CPU latency QoS's: under the
 * lock, check that @req is held by @r exactly when @action needs it and,
 * for an add, that its identifier is free (a CPU latency QoS request, given
 * its @caller, has none but a serial number), then apply @action; deliver
 * the change now (@sync) or later.  An add gives @req the CPU set @cpus
 * (NULL: all), @req's if it returns 0.  Calls on one request are serialised
 * by its holder, so that its set lives through the wake-up.
 */
static __always_inline int
latency_request_op(struct latency_registry *r, struct latency_request *req,
		   enum latency_action action, int usecs, unsigned long caller,
		   struct latency_cpus *cpus, bool sync)
{
	bool add = action == LATENCY_ADD;
	struct latency_change ch __uninitialized;
	bool active, fail = false;
	unsigned long flags;

	raw_spin_lock_irqsave(&r->lock, flags);
	active = req->registry == r;
	if (add && !active && caller) {
		req->serial = ++r->serial;
		req->identifier = NULL;
		req->caller = caller;
		req->allocated = false;
		__latency_apply(r, req, action, usecs, cpus, &ch);
	} else {
		fail = active == add || (add && latency_find(r, req->identifier));
		if (!fail)
			__latency_apply(r, req, action, usecs, cpus, &ch);
	}
	raw_spin_unlock_irqrestore(&r->lock, flags);

	if (fail && (WARN_ONCE(add && active, "latency: request added twice\n") ||
		     WARN_ONCE(!add && !active, "latency: request not added\n")))
		return -EINVAL;
	if (WARN_ONCE(fail, "latency: \"%s\" is already held\n",
		      req->identifier))
		return -EEXIST;
	latency_changed(r, &ch, sync);
	return 0;
}

/* See latency_request_add_cpus(); @cpus NULL for all. */
int latency_registry_add_request(struct latency_registry *r,
				 struct latency_request *req, int usecs,
				 const struct cpumask *cpus)
{
	struct latency_cpus *set;
	int ret;

	might_sleep();
	if (WARN_ONCE(!req || !req->identifier,
		      "latency: request added before latency_request_init()\n"))
		return -EINVAL;
	ret = latency_check_usecs(usecs) ?:
	      (cpus ? latency_check_cpus(r, cpus) : 0);
	if (ret)
		return ret;
	set = cpus ? latency_cpus_alloc(cpus, GFP_KERNEL) : NULL;
	if (cpus && !set)
		return -ENOMEM;
	ret = latency_request_op(r, req, LATENCY_ADD, usecs, 0, set, true);
	if (ret)
		kvfree(set);
	return ret;
}
EXPORT_SYMBOL_GPL(latency_registry_add_request);

/* See latency_request_update(). */
int latency_registry_update_request(struct latency_registry *r,
				    struct latency_request *req, int usecs)
{
	if (WARN_ONCE(!req, "latency: NULL request\n"))
		return -EINVAL;
	return latency_check_usecs(usecs) ?:
	       latency_request_op(r, req, LATENCY_UPDATE, usecs, 0, NULL, false);
}
EXPORT_SYMBOL_GPL(latency_registry_update_request);

/* See latency_request_remove(). */
int latency_registry_remove_request(struct latency_registry *r,
				    struct latency_request *req)
{
	if (WARN_ONCE(!req, "latency: NULL request\n"))
		return -EINVAL;
	return latency_request_op(r, req, LATENCY_REMOVE, 0, 0, NULL, false);
}
EXPORT_SYMBOL_GPL(latency_registry_remove_request);

/*
 * A CPU latency QoS request, named by @caller in the listing and the trace
 * events.  In any context, as cpu_latency_qos_add_request() always was:
 * it does not wait, the notifiers are called later.
 */
int latency_registry_add_qos(struct latency_registry *r,
			     struct latency_request *req, int usecs,
			     unsigned long caller)
{
	return latency_request_op(r, req, LATENCY_ADD, usecs,
				  caller ?: _RET_IP_, NULL, false);
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_add_qos);

/* See synchronize_acceptable_latency(). */
void latency_registry_sync(struct latency_registry *r)
{
	might_sleep();
	flush_work(&r->work);
	if (r->idle)
		latency_idle_wake(latency_registry_value(r),
				  latency_registry_value(r), cpu_possible_mask,
				  cpu_none_mask, true);
	latency_notify(r, true);
}
EXPORT_SYMBOL_GPL(latency_registry_sync);

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

