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
 * The system value is the minimum of them, published for lock-free readers.
 *
 * Every change is one call of one primitive, __latency_apply(), under the
 * registry lock: it moves the holder in the trees (O(log n)), then
 * publishes once.  After the lock is dropped, the notifier chain runs in
 * process context.  A holder that must not allocate embeds a struct
 * latency_request (the CPU latency QoS does).
 *
 * (C) Copyright 2006 Intel Corporation
 * Author: Arjan van de Ven <arjan@linux.intel.com>
 */

#define pr_fmt(fmt) "latency: " fmt

#include <linux/bug.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "latency_internal.h"

/*
 * Give the chain the current value unless it already has it.  Two changes
 * that cancel out before the chain runs give no call at all; a change is
 * never delivered twice.
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

/*
 * Locking rule: every change of a registry's trees, and of the values it
 * publishes, is made under its ->lock, a raw spinlock taken with
 * raw_spin_lock_irqsave(): modify, remove and the request calls may be
 * called from hard interrupt context, on PREEMPT_RT too.  Nothing under
 * ->lock sleeps, allocates or frees; what a change unlinks is freed after
 * an RCU grace period.  Readers of the values take no lock.  The notifier
 * chain runs under ->notify_lock, a mutex, never under ->lock; a notifier
 * must not change a constraint.  Statically INFINITE_LATENCY, so that a
 * query made before any initcall does not forbid every idle state.
 */
struct latency_registry latency_system = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(latency_system.lock),
	.value = INFINITE_LATENCY,
	.all = RB_ROOT_CACHED,
	.names = RB_ROOT,
	.notifiers = BLOCKING_NOTIFIER_INIT(latency_system.notifiers),
	.notify_lock = __MUTEX_INITIALIZER(latency_system.notify_lock),
	.notified = INFINITE_LATENCY,
	.work = __WORK_INITIALIZER(latency_system.work, latency_workfn),
};
EXPORT_SYMBOL_GPL(latency_system);	/* for the inline readers */

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
	if (WARN_ONCE(usecs < 0, "latency: negative latency %d\n", usecs))
		return -EINVAL;
	return 0;
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

static struct latency_request *latency_find(struct latency_registry *r,
					    const char *id)
{
	struct rb_node *node;

	lockdep_assert_held(&r->lock);
	node = rb_find(id, &r->names, latency_name_cmp);
	return node ? rb_entry(node, struct latency_request, name_node) : NULL;
}

/* Free a removed named constraint, an RCU grace period after its removal. */
static void latency_free_rcu(struct rcu_head *head)
{
	struct latency_constraint *c = container_of(head, struct latency_constraint,
						    rcu);

	put_pid(c->pid);
	kfree(c);
}

/* Any context: call_rcu() does not sleep, on PREEMPT_RT too. */
static void latency_dispose(struct latency_request *req)
{
	if (req->allocated)
		call_rcu(&container_of(req, struct latency_constraint, req)->rcu,
			 latency_free_rcu);
}

/* What latency_apply() does to a request. */
enum latency_action {
	LATENCY_ADD,
	LATENCY_UPDATE,
	LATENCY_REMOVE,
};

/*
 * What one change did, for what follows it once the lock is dropped: the
 * system value before and after.
 */
struct latency_change {
	int old_system;
	int system;
};

/* Put @req in its tree (@link), or take it out. */
static __always_inline void latency_link(struct latency_registry *r,
					 struct latency_request *req, bool link)
{
	if (link)
		rb_add_cached(&req->rbnode, &r->all, latency_less);
	else
		rb_erase_cached(&req->rbnode, &r->all);
}

/*
 * Whether @req keeps its place in the order
 * with the value @usecs: it cannot pass the neighbour it moves toward
 * (the smallest, moving down, has none).
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

/*
 * The one primitive, under ->lock, for every kind of holder: add @req with
 * the value @usecs (above INFINITE_LATENCY stored as INFINITE_LATENCY), give
 * it @usecs, or remove it.  Every tree change first, then one publication:
 * the system value.  @req->registry says whether it is held.
 */
static __always_inline void
__latency_apply(struct latency_registry *r, struct latency_request *req,
		enum latency_action action, int usecs,
		struct latency_change *ch)
{
	struct rb_node *first;
	bool relink;

	lockdep_assert_held(&r->lock);
	ch->old_system = r->value;
	usecs = min(usecs, INFINITE_LATENCY);
	relink = action != LATENCY_UPDATE ||
		 !latency_keeps_order(r, req, usecs);
	if (action == LATENCY_ADD) {
		if (req->identifier)
			rb_add(&req->name_node, &r->names, latency_name_less);
		WRITE_ONCE(req->registry, r);
	} else if (relink) {
		latency_link(r, req, false);
	}
	req->usecs = usecs;
	if (action == LATENCY_REMOVE) {
		if (req->identifier)
			rb_erase(&req->name_node, &r->names);
		WRITE_ONCE(req->registry, NULL);
	} else if (relink) {
		latency_link(r, req, true);
	}

	first = rb_first_cached(&r->all);
	ch->system = first ? rb_entry(first, struct latency_request,
				      rbnode)->usecs : INFINITE_LATENCY;
	if (ch->system != r->value)
		WRITE_ONCE(r->value, ch->system);
}

/* The named calls' copy; each request call has its own, inlined. */
static noinline void latency_apply(struct latency_registry *r,
				   struct latency_request *req,
				   enum latency_action action, int usecs,
				   struct latency_change *ch)
{
	__latency_apply(r, req, action, usecs, ch);
}

/*
 * After a change of @r, the lock dropped: give a new system value to the
 * notifier chain, now when the caller may sleep (@sync), else from the work
 * item; with no notifier registered, nothing is queued (see
 * register_latency_notifier()).
 */
static __always_inline void latency_changed(struct latency_registry *r,
					    const struct latency_change *ch,
					    bool sync)
{
	bool moved = ch->system != ch->old_system;

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
VISIBLE_IF_KUNIT struct latency_constraint *latency_alloc(size_t len)
{
	struct latency_constraint *c;

	KUNIT_STATIC_STUB_REDIRECT(latency_alloc, len);
	return kzalloc(struct_size(c, identifier, len + 1), GFP_KERNEL);
}
EXPORT_SYMBOL_IF_KUNIT(latency_alloc);

static struct latency_constraint *latency_new(const char *id,
					      struct task_struct *owner)
{
	size_t len = strlen(id);
	struct latency_constraint *c = latency_alloc(len);

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

/*
 * A name held through a request handle belongs to its holder: the named
 * calls must not change it, let alone free it.
 */
static int latency_busy(const char *id)
{
	WARN_ONCE(1, "latency: \"%s\" is held through a latency_request\n", id);
	return -EBUSY;
}

/* See set_acceptable_latency(); @owner is a user-space holder's task. */
int latency_registry_set(struct latency_registry *r, const char *identifier,
			 int usecs, struct task_struct *owner)
{
	struct latency_constraint *new = NULL;
	struct latency_request *req;
	struct latency_change ch;
	unsigned long flags;
	bool busy;
	int ret;

	might_sleep();
	ret = latency_check_id(identifier) ?: latency_check_usecs(usecs);
	if (ret)
		return ret;
	for (;;) {
		raw_spin_lock_irqsave(&r->lock, flags);
		req = latency_find(r, identifier);
		if (req || new)
			break;
		raw_spin_unlock_irqrestore(&r->lock, flags);
		/* An unknown name: allocate outside the lock, look again. */
		new = latency_new(identifier, owner);
		if (!new)
			return -ENOMEM;
	}
	busy = req && !req->allocated;
	if (!req) {
		latency_apply(r, &new->req, LATENCY_ADD, usecs, &ch);
		new = NULL;
	} else if (!busy) {
		latency_apply(r, req, LATENCY_UPDATE, usecs, &ch);
	}
	raw_spin_unlock_irqrestore(&r->lock, flags);
	if (new) {	/* somebody added the name while we allocated */
		put_pid(new->pid);
		kfree(new);
	}
	if (busy)
		return latency_busy(identifier);
	latency_changed(r, &ch, true);
	return 0;
}
EXPORT_SYMBOL_GPL(latency_registry_set);

/* modify and remove: look the holder up, apply @action, in any context. */
static int latency_named_op(struct latency_registry *r, const char *identifier,
			    enum latency_action action, int usecs)
{
	struct latency_request *req;
	struct latency_change ch;
	unsigned long flags;
	bool busy;
	int ret;

	ret = latency_check_id(identifier) ?: latency_check_usecs(usecs);
	if (ret)
		return ret;

	raw_spin_lock_irqsave(&r->lock, flags);
	req = latency_find(r, identifier);
	busy = req && !req->allocated;
	if (req && !busy)
		latency_apply(r, req, action, usecs, &ch);
	raw_spin_unlock_irqrestore(&r->lock, flags);
	if (req && !busy)
		latency_changed(r, &ch, false);

	if (!req)
		return -ENOENT;
	if (busy)
		return latency_busy(identifier);
	if (action == LATENCY_REMOVE)
		latency_dispose(req);
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
 * its @caller, has none: it gets a serial number instead), then apply
 * @action; deliver the change now (@sync) or from the work item.  Calls on
 * one request are serialised by its holder.
 */
static __always_inline int
latency_request_op(struct latency_registry *r, struct latency_request *req,
		   enum latency_action action, int usecs, unsigned long caller,
		   bool sync)
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
		__latency_apply(r, req, action, usecs, &ch);
	} else {
		fail = active == add || (add && latency_find(r, req->identifier));
		if (!fail)
			__latency_apply(r, req, action, usecs, &ch);
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

/* See latency_request_add(). */
int latency_registry_add_request(struct latency_registry *r,
				 struct latency_request *req, int usecs)
{
	might_sleep();
	if (WARN_ONCE(!req || !req->identifier,
		      "latency: request added before latency_request_init()\n"))
		return -EINVAL;
	return latency_check_usecs(usecs) ?:
	       latency_request_op(r, req, LATENCY_ADD, usecs, 0, true);
}
EXPORT_SYMBOL_GPL(latency_registry_add_request);

/* See latency_request_update(). */
int latency_registry_update_request(struct latency_registry *r,
				    struct latency_request *req, int usecs)
{
	if (WARN_ONCE(!req, "latency: NULL request\n"))
		return -EINVAL;
	return latency_check_usecs(usecs) ?:
	       latency_request_op(r, req, LATENCY_UPDATE, usecs, 0, false);
}
EXPORT_SYMBOL_GPL(latency_registry_update_request);

/* See latency_request_remove(). */
int latency_registry_remove_request(struct latency_registry *r,
				    struct latency_request *req)
{
	if (WARN_ONCE(!req, "latency: NULL request\n"))
		return -EINVAL;
	return latency_request_op(r, req, LATENCY_REMOVE, 0, 0, false);
}
EXPORT_SYMBOL_GPL(latency_registry_remove_request);

/*
 * A CPU latency QoS request, named by @caller in the listing.  In any
 * context, as cpu_latency_qos_add_request() always was: it does not wait,
 * the notifiers are called later.
 */
int latency_registry_add_qos(struct latency_registry *r,
			     struct latency_request *req, int usecs,
			     unsigned long caller)
{
	return latency_request_op(r, req, LATENCY_ADD, usecs,
				  caller ?: _RET_IP_, false);
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_add_qos);

/*
 * The built-in "kernel" constraint, unless one exists: whatever was set
 * before the initcall stays.  Nothing else adds "kernel" this early.
 */
int latency_registry_add_kernel(struct latency_registry *r, int usecs)
{
	unsigned long flags;
	bool held;

	raw_spin_lock_irqsave(&r->lock, flags);
	held = latency_find(r, "kernel");
	raw_spin_unlock_irqrestore(&r->lock, flags);
	return held ? -EEXIST : latency_registry_set(r, "kernel", usecs, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_add_kernel);

/* See synchronize_acceptable_latency(). */
void latency_registry_sync(struct latency_registry *r)
{
	might_sleep();
	flush_work(&r->work);
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

