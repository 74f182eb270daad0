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

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/mutex_types.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/rbtree_types.h>
#include <linux/seqlock.h>
#include <linux/spinlock_types.h>
#include <linux/time64.h>
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

struct latency_cpus;
struct latency_registry;

/**
 * struct latency_request - a constraint whose memory its holder provides
 * @rbnode: private: in the registry's tree of values
 * @registry: private: the registry that holds it, NULL while it is not held
 * @identifier: the holder's name, as given to latency_request_init(); NULL
 *	for a CPU latency QoS request, which is named by @caller
 * @cpus: private: the CPUs the constraint applies to, NULL for every CPU
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
	struct latency_cpus *cpus;
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
 * struct latency_cpu - what a registry keeps for each CPU
 * @tree: the constraints held for a set of CPUs that includes this one,
 *	sorted by value (their struct latency_node)
 * @value: the smallest of them, INFINITE_LATENCY when there is none
 */
struct latency_cpu {
	struct rb_root_cached tree;
	int value;
};

/**
 * struct latency_registry - a set of constraints and the minima it publishes
 * @lock: serialises every change of the trees and of the published values
 * @value: the minimum of the constraints for all CPUs, for lock-free readers
 * @seq: written around @value alone: a reader of a CPU's limit
 *	(latency_limit()) never sees one larger than before and after a change
 * @all: the constraints for all CPUs, sorted by value
 * @some: the constraints for some CPUs, sorted likewise (for the listing)
 * @names: the constraints that have an identifier, sorted by it
 * @serial: the last serial number given to a CPU latency QoS request
 * @cpu: per CPU, its tree and the minimum published for it
 * @notifiers: called with @value when it changes
 * @notify_lock: serialises runs of @notifiers; protects @notified
 * @notified: the last value given to @notifiers
 * @work: calls @notifiers after a call that cannot sleep
 * @max: the value that means "no constraint", the largest one held
 * @idle: whether its limits bound CPU idle, so that a change wakes the CPUs
 *
 * The system registry, latency_system, is the one behind the API; the
 * system wakeup registry, latency_wakeup, bounds suspend-to-idle too
 * (wakeup_latency_constraint()); KUnit tests private ones.  The layout is
 * private to kernel/latency*.c.
 */
struct latency_registry {
	raw_spinlock_t lock;	/* see the locking rule in latency.c */
	int value;
	seqcount_raw_spinlock_t seq;
	struct rb_root_cached all;
	struct rb_root some;
	struct rb_root names;
	u64 serial;
	struct latency_cpu __percpu *cpu;
	struct blocking_notifier_head notifiers;
	struct mutex notify_lock;	/* serialises notifier runs */
	int notified;
	struct work_struct work;
	int max;
	bool idle;
};

#ifdef CONFIG_LATENCY
/*
 * The calls on a registry of the caller's choice: the system one,
 * latency_system, behind the API below, or a private one (KUnit).  @owner
 * is the task of a user-space holder, NULL for a kernel one; @cpus NULL
 * means all CPUs.  Each is documented with its form below.
 */
struct task_struct;
int latency_registry_set_cpus(struct latency_registry *r,
			      const char *identifier, int usecs,
			      const struct cpumask *cpus,
			      struct task_struct *owner);
int latency_registry_modify(struct latency_registry *r,
			    const char *identifier, int usecs);
int latency_registry_remove(struct latency_registry *r,
			    const char *identifier);
int latency_registry_add_request(struct latency_registry *r,
				 struct latency_request *req, int usecs,
				 const struct cpumask *cpus);
int latency_registry_update_request(struct latency_registry *r,
				    struct latency_request *req, int usecs);
int latency_registry_remove_request(struct latency_registry *r,
				    struct latency_request *req);
void latency_registry_sync(struct latency_registry *r);

int latency_request_init(struct latency_request *req, const char *identifier);
int register_latency_notifier(struct notifier_block *nb);

/* Private: read them only through the calls below. */
extern struct latency_registry latency_system, latency_wakeup;
DECLARE_PER_CPU(struct latency_cpu, latency_cpu);

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
 * The minimum over every constraint held for all CPUs, or INFINITE_LATENCY
 * when none is held (also before any initcall has run).  A decision that
 * concerns the whole system, or no CPU in particular, must not take a
 * state whose exit latency is larger than this value; a state whose exit
 * latency equals it is acceptable.  A decision for one CPU (its idle
 * state) uses cpu_latency_constraint() instead, which also counts the
 * constraints held for that CPU alone.
 *
 * Context: Any context, including hard interrupt and the idle loop.  A
 * lock-free read of one integer.
 * Return: The system-wide constraint in microseconds, 0..INFINITE_LATENCY.
 */
static inline int system_latency_constraint(void)
{
	return READ_ONCE(latency_system.value);
}

/*
 * The limit of a CPU in @r: the smaller of its system value and of @lc's,
 * read under the seqcount of the system value.  A change that moves a
 * holder between all CPUs and some lowers one and raises the other, the
 * lowering first; two plain loads could see the system value before it and
 * the CPU's after it, a limit larger than both (latency_publish_system()).
 */
static __always_inline int latency_limit(struct latency_registry *r,
					 const struct latency_cpu *lc)
{
	unsigned int seq;
	int usecs;

	do {
		seq = read_seqcount_begin(&r->seq);
		usecs = min(READ_ONCE(r->value), READ_ONCE(lc->value));
	} while (read_seqcount_retry(&r->seq, seq));
	return usecs;
}

/**
 * wakeup_latency_constraint - the system wakeup latency limit
 *
 * The minimum over the holders of the system wakeup class
 * (/dev/cpu_wakeup_latency, set_wakeup_latency()), S32_MAX when none is
 * held or without CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP: how long the system may
 * take to wake up from suspend-to-idle.  It bounds runtime idle too
 * (cpu_latency_constraint()).
 *
 * Context: Any context.  A lock-free read of one integer.
 * Return: The limit in microseconds, 0..S32_MAX.
 */
static inline int wakeup_latency_constraint(void)
{
	return IS_ENABLED(CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP) ?
	       READ_ONCE(latency_wakeup.value) : S32_MAX;
}

/**
 * cpu_latency_constraint - the maximum acceptable latency on one CPU
 * @cpu: the CPU, possible (online or not)
 *
 * The minimum of system_latency_constraint(), of the constraints held
 * for a set of CPUs that includes @cpu (set_acceptable_latency_cpus(),
 * latency_request_add_cpus()) and of wakeup_latency_constraint(): what the
 * idle states of @cpu must respect.
 * A constraint for an offline CPU is kept, and applies when it comes online.
 *
 * Context: Any context, including hard interrupt and the idle loop.  A
 * lock-free read of three integers, the first two retried while a change
 * publishes them.
 * Return: The constraint of @cpu in microseconds, 0..INFINITE_LATENCY.
 */
static inline int cpu_latency_constraint(unsigned int cpu)
{
	return min(latency_limit(&latency_system, per_cpu_ptr(&latency_cpu, cpu)),
		   wakeup_latency_constraint());
}

/*
 * Names a kernel caller may not use: "user:" names the holders of the
 * devices (a kernel caller that removed one would have the file's release
 * remove its own constraint later), "boot:" those of the command line,
 * which a kernel caller may change or remove (@create false) but not make.
 */
int latency_kernel_name(const char *identifier, bool create);

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
 * blanks, not starting with '#' and not with "user:" or "boot:", which
 * name the holders of user space and of the command line; the registry
 * keeps a copy.
 *
 * Context: Process context; may sleep.
 * Return: 0 on success, -EINVAL for a bad identifier or a negative value,
 * -EBUSY for an identifier held through a struct latency_request (each
 * with a warning), -ENOMEM when a new constraint cannot be allocated.
 */
static inline int set_acceptable_latency(const char *identifier, int usecs)
{
	return latency_kernel_name(identifier, true) ?:
	       latency_registry_set_cpus(&latency_system, identifier, usecs,
					 NULL, NULL);
}

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
static inline int set_acceptable_latency_cpus(const char *identifier,
					      int usecs,
					      const struct cpumask *cpus)
{
	/* NULL is no set at all, which the registry refuses. */
	return latency_kernel_name(identifier, true) ?:
	       latency_registry_set_cpus(&latency_system, identifier, usecs,
					 cpus ?: cpu_none_mask, NULL);
}

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
static inline int modify_acceptable_latency(const char *identifier, int usecs)
{
	return latency_kernel_name(identifier, false) ?:
	       latency_registry_modify(&latency_system, identifier, usecs);
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
	return latency_kernel_name(identifier, false) ?:
	       latency_registry_remove(&latency_system, identifier);
}

/**
 * set_wakeup_latency - bound how long the system takes to wake up
 * @identifier: string that identifies this driver, as for
 *	set_acceptable_latency()
 * @usecs: the longest the system may take to wake up from suspend-to-idle,
 *	in microseconds; S32_MAX means "no constraint"
 *
 * Holds a constraint of the system wakeup class, the one that
 * /dev/cpu_wakeup_latency holds for user space: suspend-to-idle enters no
 * state whose exit latency exceeds the smallest of them
 * (wakeup_latency_constraint()).  It bounds runtime idle too, as
 * set_acceptable_latency() does, and is in effect when this returns.  The
 * class has its own names: an identifier may hold one constraint of each.
 *
 * Context: Process context; may sleep.
 * Return: As set_acceptable_latency(); 0, holding nothing, without
 * CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP.
 */
static inline int set_wakeup_latency(const char *identifier, int usecs)
{
	if (!IS_ENABLED(CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP))
		return 0;
	return latency_kernel_name(identifier, true) ?:
	       latency_registry_set_cpus(&latency_wakeup, identifier, usecs,
					 NULL, NULL);
}

/**
 * remove_wakeup_latency - remove a constraint of set_wakeup_latency()
 * @identifier: its identifier
 *
 * Context: Any context, including hard interrupt; never sleeps.
 * Return: As remove_acceptable_latency(); 0 without
 * CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP.
 */
static inline int remove_wakeup_latency(const char *identifier)
{
	if (!IS_ENABLED(CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP))
		return 0;
	return latency_kernel_name(identifier, false) ?:
	       latency_registry_remove(&latency_wakeup, identifier);
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
	return latency_kernel_name(req ? req->identifier : NULL, true) ?:
	       latency_registry_add_request(&latency_system, req, usecs, NULL);
}

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
static inline int latency_request_add_cpus(struct latency_request *req,
					   int usecs,
					   const struct cpumask *cpus)
{
	return latency_kernel_name(req ? req->identifier : NULL, true) ?:
	       latency_registry_add_request(&latency_system, req, usecs,
					    cpus ?: cpu_none_mask);
}

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

/**
 * struct latency_idle - the idle state a CPU is in, as the registry sees it
 * @exit_ns: exit latency of the state the CPU is in or about to enter, in
 *	ns (at most U32_MAX); 0 when it is not idle or in state 0, below
 *	which it cannot go
 * @next_ns: exit latency of the next deeper state of its cpuidle driver;
 *	0 when there is none or the CPU is not idle
 * @domain_ns: what the CPU power domains it belongs to may add to that, in
 *	ns: the sum, over the domains that may be powered off, of the latency
 *	of the state each may be in (latency_domain_add())
 *
 * Private to cpuidle_enter_state() (through latency_idle_enter() and
 * latency_idle_exit()), to the CPU power domain governor and to
 * kernel/latency.c, which reads it to interrupt only the CPUs a change
 * concerns, and whose interrupt clears @exit_ns and @next_ns
 * (latency_idle_exit()) on the CPU it wakes.  It is all the history there
 * is: whether a CPU must be interrupted depends on it and on the CPU's
 * limit now.
 */
struct latency_idle {
	u32 exit_ns;
	u32 next_ns;
	atomic64_t domain_ns;
};
DECLARE_PER_CPU(struct latency_idle, latency_idle);

/*
 * What waking @cpu may take now: the exit latency of its idle state and of
 * the power domain states around it.  Never less than the truth; more for
 * a moment after a domain has powered on again.
 */
static inline u64 latency_idle_exit_ns(unsigned int cpu)
{
	struct latency_idle *li = per_cpu_ptr(&latency_idle, cpu);

	return READ_ONCE(li->exit_ns) + atomic64_read(&li->domain_ns);
}

/**
 * latency_domain_add - a CPU power domain's state adds latency to its CPUs
 * @cpus: the CPUs of the domain
 * @delta_ns: the change of what the domain adds, in ns: the latency of the
 *	state it may enter, less what it added before; negative to withdraw
 *
 * For genpd, under the domain's lock, which keeps what the domain added.
 * Before its governor reads the CPUs' limits (cpu_latency_constraint()),
 * the domain adds the most that any state it may choose adds; it lowers
 * that to the state it chose, and withdraws it when it powers on or does
 * not power off.  The full barrier after a raise pairs with the one in
 * latency_idle_wake(): a change of a limit either is seen by the governor,
 * or sees the domain's latency and interrupts the CPUs it makes too deep.
 */
static inline void latency_domain_add(const struct cpumask *cpus, s64 delta_ns)
{
	int cpu;

	if (!delta_ns)
		return;
	for_each_cpu(cpu, cpus)
		atomic64_add(delta_ns, &per_cpu_ptr(&latency_idle, cpu)->domain_ns);
	smp_mb__after_atomic();	/* pairs with latency_idle_wake() */
}

/* A value in usecs as cpuidle compares it: ns, S64_MAX for no constraint. */
static inline s64 latency_usecs_to_ns(int usecs)
{
	return usecs < INFINITE_LATENCY ? (s64)usecs * NSEC_PER_USEC : S64_MAX;
}

/**
 * latency_idle_lower - publish a shallower state than latency_idle_enter()
 * @exit_ns: the exit latency of the state entered instead
 * @next_ns: that of the next deeper state after it, 0 if none
 *
 * For cpuidle_enter_state() only.  Lowering needs no barrier: a change
 * that reads the old, deeper, values interrupts the CPU needlessly, or
 * does not wake it for a deeper state it may now enter, which costs power
 * until its next wake-up, never latency.
 */
static inline void latency_idle_lower(u64 exit_ns, u64 next_ns)
{
	struct latency_idle *li = this_cpu_ptr(&latency_idle);

	WRITE_ONCE(li->next_ns, min_t(u64, next_ns, U32_MAX));
	WRITE_ONCE(li->exit_ns, min_t(u64, exit_ns, U32_MAX));
}

/**
 * latency_idle_enter - publish the idle state this CPU is about to enter
 * @exit_ns: its exit latency
 * @next_ns: that of the next deeper state of the driver, 0 if none
 *
 * For cpuidle_enter_state() only, with interrupts off.  After the state is
 * published, a change of this CPU's constraint that makes it too deep
 * interrupts this CPU; a change published before is in the value returned,
 * against which the caller must check the state once more.
 *
 * Return: This CPU's constraint in ns, S64_MAX when nothing constrains it.
 */
static inline s64 latency_idle_enter(u64 exit_ns, u64 next_ns)
{
	latency_idle_lower(exit_ns, next_ns);
	/* Pairs with the smp_mb() of latency_idle_wake() in latency.c. */
	smp_mb();
	return latency_usecs_to_ns(min(latency_limit(&latency_system,
						     this_cpu_ptr(&latency_cpu)),
				       wakeup_latency_constraint()));
}

/* latency_idle_exit - this CPU has left its idle state; interrupts off. */
static inline void latency_idle_exit(void)
{
	struct latency_idle *li = this_cpu_ptr(&latency_idle);

	WRITE_ONCE(li->exit_ns, 0);
	WRITE_ONCE(li->next_ns, 0);
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

static inline int set_acceptable_latency_cpus(const char *identifier,
					      int usecs,
					      const struct cpumask *cpus)
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

static inline int latency_request_add_cpus(struct latency_request *req,
					   int usecs,
					   const struct cpumask *cpus)
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

static inline int cpu_latency_constraint(unsigned int cpu)
{
	return INFINITE_LATENCY;
}

static inline int wakeup_latency_constraint(void)
{
	return S32_MAX;
}

static inline int set_wakeup_latency(const char *identifier, int usecs)
{
	return 0;
}

static inline int remove_wakeup_latency(const char *identifier)
{
	return 0;
}

static inline s64 latency_idle_enter(u64 exit_ns, u64 next_ns)
{
	return S64_MAX;
}

static inline void latency_idle_lower(u64 exit_ns, u64 next_ns) {}
static inline void latency_idle_exit(void) {}
static inline void latency_domain_add(const struct cpumask *cpus,
				      s64 delta_ns) {}
#endif /* CONFIG_LATENCY */

#endif /* _LINUX_LATENCY_H */
