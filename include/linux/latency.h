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
#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/rbtree_types.h>
#include <linux/time64.h>
#include <linux/types.h>

/*
 * A constraint of INFINITE_LATENCY usecs, or of anything above it, means
 * "no constraint at all".  It is also the system value while no constraint
 * is held.
 */
#define INFINITE_LATENCY	1000000

/* Longest identifier accepted, not counting the terminating NUL. */
#define LATENCY_ID_MAX		63

struct latency_cpus;

/**
 * struct latency_request - a constraint whose memory its holder provides
 * @hnode: private to kernel/latency.c
 * @rbnode: private to kernel/latency.c
 * @identifier: the holder's name, as given to latency_request_init(); NULL
 *	for a CPU latency QoS request, which is named by @caller
 * @caller: private: where a CPU latency QoS request was added from
 * @hash: private to kernel/latency.c (for a CPU latency QoS request, a
 *	serial number)
 * @cpus: private: the CPUs the constraint applies to, NULL for every CPU
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
	struct latency_cpus *cpus;
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
int set_acceptable_latency_cpus(const char *identifier, int usecs,
				const struct cpumask *cpus);
int modify_acceptable_latency(const char *identifier, int usecs);
int remove_acceptable_latency(const char *identifier);
void synchronize_acceptable_latency(void);

int latency_request_init(struct latency_request *req, const char *identifier);
int latency_request_add(struct latency_request *req, int usecs);
int latency_request_add_cpus(struct latency_request *req, int usecs,
			     const struct cpumask *cpus);
int latency_request_update(struct latency_request *req, int usecs);
int latency_request_remove(struct latency_request *req);

int register_latency_notifier(struct notifier_block *nb);
int unregister_latency_notifier(struct notifier_block *nb);

/* Private: read them only through the two calls below. */
extern int __system_latency_constraint;
DECLARE_PER_CPU(int, __cpu_latency_constraint);

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
	return READ_ONCE(__system_latency_constraint);
}

/**
 * cpu_latency_constraint - the maximum acceptable latency on one CPU
 * @cpu: the CPU, possible (online or not)
 *
 * The minimum of system_latency_constraint() and of the constraints held
 * for a set of CPUs that includes @cpu (set_acceptable_latency_cpus(),
 * latency_request_add_cpus()): what the idle states of @cpu must respect.
 * A constraint for an offline CPU is kept, and applies when it comes online.
 *
 * Context: Any context, including hard interrupt and the idle loop.  A
 * lock-free read of one per-CPU integer.
 * Return: The constraint of @cpu in microseconds, 0..INFINITE_LATENCY.
 */
static inline int cpu_latency_constraint(unsigned int cpu)
{
	return READ_ONCE(per_cpu(__cpu_latency_constraint, cpu));
}

/**
 * struct latency_idle - the idle state a CPU is in, as the registry sees it
 * @exit_ns: exit latency of the state the CPU is in or about to enter, in
 *	ns (at most U32_MAX); 0 when it is not idle or in state 0, below
 *	which it cannot go
 * @next_ns: exit latency of the next deeper state of its cpuidle driver;
 *	0 when there is none or the CPU is not idle
 * @woken: the CPU's constraint (cpu_latency_constraint()) the last wake-up
 *	decision for it was made with, in usecs
 *
 * Private to cpuidle_enter_state() (through latency_idle_enter() and
 * latency_idle_exit()) and kernel/latency.c, which reads it to interrupt
 * only the CPUs a change concerns.
 */
struct latency_idle {
	u32 exit_ns;
	u32 next_ns;
	int woken;
};
DECLARE_PER_CPU(struct latency_idle, latency_idle);

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
	return latency_usecs_to_ns(this_cpu_read(__cpu_latency_constraint));
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

static inline s64 latency_idle_enter(u64 exit_ns, u64 next_ns)
{
	return S64_MAX;
}

static inline void latency_idle_lower(u64 exit_ns, u64 next_ns) {}
static inline void latency_idle_exit(void) {}
#endif /* CONFIG_LATENCY */

#endif /* _LINUX_LATENCY_H */
