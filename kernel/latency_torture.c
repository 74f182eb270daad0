// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency_torture.c: torture test of the latency-constraint registry
 *
 * The registry promises that when a synchronous call returns (a set, an
 * add of a request, synchronize_acceptable_latency()), no online CPU the
 * caller's constraint covers is idle in a state whose exit latency exceeds
 * it, whatever ran before and meanwhile.  In the spirit of rcutorture and
 * locktorture: for "duration" seconds, "nthreads" kthreads change named
 * constraints, request handles and constraints for some CPUs at random, a
 * hard-interrupt timer changes others from interrupt context, and a thread
 * takes CPUs offline and online ("onoff" ms apart, 0 for never).  After
 * every synchronous call the caller checks each online CPU its holder
 * covers: the state it publishes (struct latency_idle) must fit the
 * holder's value within "settle_us" (a CPU that published a state just
 * before the change demotes itself a few instructions later; under QEMU
 * TCG on a loaded host, a vCPU may wait tens of milliseconds between two
 * instructions).  Concurrent changes can only make a CPU's limit tighter
 * than the holder's value.
 *
 * The module runs once, when loaded, and prints one line:
 *   latency_torture: changes=N checks=N violations=N offline=N
 * violations must be 0; the counts stay readable as its parameters.  Built
 * in, it runs at boot when "latency_torture.duration=N" is given.
 * tools/testing/selftests/latency/torture.sh loads it, or reads what the
 * boot's run counted, and turns the counts into test results.  With
 * "idle_ms", each thread sleeps that long after each change, leaving the
 * CPUs idle (deep, where a state really sleeps) for the next one to find.
 * With "loose", each thread relaxes its holders after each change and the
 * timer sets only values that forbid no state of the test guests (C1-C3,
 * WFI and a 200 us state), so that the CPUs sleep deep between changes and
 * each synchronous tightening has CPUs to interrupt: with the wake-up
 * broken, that run counts violations.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/latency.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

static int duration = IS_MODULE(CONFIG_LATENCY_TORTURE_TEST) ? 10 : 0;
module_param(duration, int, 0444);
MODULE_PARM_DESC(duration, "seconds of torture (built in: 0, none)");
static int nthreads = 4;
module_param(nthreads, int, 0444);
MODULE_PARM_DESC(nthreads, "number of threads changing constraints");
static int onoff = 200;
module_param(onoff, int, 0444);
MODULE_PARM_DESC(onoff, "ms between CPU hotplug operations, 0 for none");
static int settle_us = 100000;
module_param(settle_us, int, 0444);
MODULE_PARM_DESC(settle_us, "how long a CPU may take to demote itself");
static int idle_ms;
module_param(idle_ms, int, 0444);
MODULE_PARM_DESC(idle_ms, "ms each thread sleeps after a change");
static bool loose;
module_param(loose, bool, 0444);
MODULE_PARM_DESC(loose, "relax each holder after each change: CPUs sleep deep between changes");

/* The counts of the run, for torture.sh. */
static long changes, checks, violations, offline;
module_param(changes, long, 0444);
module_param(checks, long, 0444);
module_param(violations, long, 0444);
module_param(offline, long, 0444);

/* Values that cross the idle states of the test guests (C1-C3, WFI). */
static const int torture_values[] = {
	0, 1, 5, 10, 50, 100, 150, 199, 200, 250, 1000, INFINITE_LATENCY,
};

static atomic_long_t torture_changes, torture_checks, torture_violations;
static atomic_long_t torture_offline;
static unsigned long torture_end;

/* @r: a random number; @relaxed: only values that forbid no state of the test guests. */
static int torture_value(u32 r, bool relaxed)
{
	if (relaxed)	/* the last three */
		return torture_values[ARRAY_SIZE(torture_values) - 1 - r % 3];
	return torture_values[r % ARRAY_SIZE(torture_values)];
}

static bool torture_online(int cpu)
{
	/* Racy on purpose: the onoff thread takes CPUs offline meanwhile. */
	return data_race(cpu_online(cpu));
}

/*
 * After a synchronous call made for @usecs on the CPUs of @cpus: each
 * online one must publish a state that fits, once it has had @settle_us
 * to demote itself.
 */
static void torture_check(const struct cpumask *cpus, int usecs)
{
	u64 limit_ns = (u64)usecs * NSEC_PER_USEC;
	int cpu, i;

	for_each_cpu(cpu, cpus) {
		u64 exit_ns = 0;

		if (!torture_online(cpu))
			continue;
		atomic_long_inc(&torture_checks);
		for (i = 0; i <= settle_us; i++) {
			exit_ns = latency_idle_exit_ns(cpu);
			if (exit_ns <= limit_ns || !torture_online(cpu))
				break;
			udelay(1);
		}
		if (exit_ns > limit_ns && torture_online(cpu)) {
			atomic_long_inc(&torture_violations);
			pr_err("CPU%d idle in a state of %llu ns, %d us after a call for %d us returned (limit now %d)\n",
			       cpu, exit_ns, settle_us, usecs,
			       cpu_latency_constraint(cpu));
		}
	}
}

/* A random set of one to all possible CPUs. */
static void torture_cpus(struct cpumask *mask)
{
	int cpu;

	cpumask_clear(mask);
	for_each_possible_cpu(cpu)
		if (get_random_u32_below(2))
			cpumask_set_cpu(cpu, mask);
	if (cpumask_empty(mask))
		cpumask_set_cpu(cpumask_first(cpu_possible_mask), mask);
}

/* @mask: the CPUs @id holds a constraint for, when @some. */
struct torture_thread {
	char id[24];
	struct latency_request req;
	char req_id[24];
	cpumask_var_t mask;
	bool some;
};

static int torture_thread_fn(void *arg)
{
	struct torture_thread *t = arg;
	int v;

	while (time_before(jiffies, torture_end) && !kthread_should_stop()) {
		v = torture_value(get_random_u32(), false);
		atomic_long_inc(&torture_changes);
		switch (get_random_u32_below(8)) {
		case 0:
			if (set_acceptable_latency(t->id, v))
				break;
			t->some = false;
			torture_check(cpu_possible_mask, v);
			break;
		case 1:
			torture_cpus(t->mask);
			if (set_acceptable_latency_cpus(t->id, v, t->mask))
				break;
			t->some = true;
			torture_check(t->mask, v);
			break;
		case 2:		/* asynchronous, then waited for */
			if (modify_acceptable_latency(t->id, v))
				break;
			synchronize_acceptable_latency();
			torture_check(t->some ? t->mask : cpu_possible_mask, v);
			break;
		case 3:
			remove_acceptable_latency(t->id);
			break;
		case 4:
			if (latency_request_active(&t->req))
				latency_request_remove(&t->req);
			else if (!latency_request_add(&t->req, v))
				torture_check(cpu_possible_mask, v);
			break;
		case 5:
			if (latency_request_active(&t->req))
				latency_request_update(&t->req, v);
			break;
		case 6:		/* what the timer removed */
			set_acceptable_latency("torture:irq", v);
			break;
		default:
			usleep_range(50, 200);
			break;
		}
		if (loose) {
			modify_acceptable_latency(t->id, INFINITE_LATENCY);
			if (latency_request_active(&t->req))
				latency_request_update(&t->req, INFINITE_LATENCY);
			modify_acceptable_latency("torture:irq", INFINITE_LATENCY);
		}
		if (idle_ms > 0)
			msleep(idle_ms);
		cond_resched();
	}
	if (latency_request_active(&t->req))
		latency_request_remove(&t->req);
	remove_acceptable_latency(t->id);
	return 0;
}

/* Changes from hard interrupt context, on whichever CPU the timer fires. */
static struct hrtimer torture_timer;
/*
 * The timer's random numbers: get_random_u32() takes a local lock, which
 * sleeps on PREEMPT_RT, and a hard interrupt may not.  The timer never
 * runs twice at once: one state serves it.
 */
static struct rnd_state torture_timer_rnd;
static struct latency_request torture_irq_req;

/*
 * From hard interrupt context: a named holder for all CPUs and one for
 * CPU 0 changed (the system path and the per-CPU path), the first also
 * removed (freed through RCU from here) and set again by a thread, and a
 * request updated.
 */
static enum hrtimer_restart torture_timer_fn(struct hrtimer *timer)
{
	u32 r = prandom_u32_state(&torture_timer_rnd);
	int v = torture_value(r, loose);

	atomic_long_inc(&torture_changes);
	switch ((r >> 8) % 4) {
	case 0:
		modify_acceptable_latency("torture:irq", v);
		break;
	case 1:
		modify_acceptable_latency("torture:irq-cpu0", v);
		break;
	case 2:
		remove_acceptable_latency("torture:irq");
		break;
	default:
		latency_request_update(&torture_irq_req, v);
		break;
	}
	if (time_after(jiffies, torture_end))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime((500 + (r >> 16) % 1000) *
					       NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* CPUs offline and online, one at a time, the boot CPU never. */
static int torture_onoff_fn(void *unused)
{
	while (time_before(jiffies, torture_end) && !kthread_should_stop()) {
		int cpu = get_random_u32_below(nr_cpu_ids);

		msleep(onoff);
		if (!cpu || !cpu_possible(cpu) || num_online_cpus() < 2)
			continue;
#ifdef CONFIG_HOTPLUG_CPU
		if (remove_cpu(cpu))
			continue;
		atomic_long_inc(&torture_offline);
		msleep(onoff / 2);
		while (add_cpu(cpu) && !kthread_should_stop())
			msleep(onoff);
#endif
	}
	return 0;
}

static int __init latency_torture_init(void)
{
	struct task_struct **tasks, *onoff_task = NULL;
	struct torture_thread *threads;
	int i, ret = 0;

	if (!IS_MODULE(CONFIG_LATENCY_TORTURE_TEST) && !duration)
		return 0;
	if (nthreads < 1 || duration < 1)
		return -EINVAL;
	threads = kcalloc(nthreads, sizeof(*threads), GFP_KERNEL);
	tasks = kcalloc(nthreads, sizeof(*tasks), GFP_KERNEL);
	if (!threads || !tasks) {
		ret = -ENOMEM;
		goto out;
	}
	torture_end = jiffies + duration * HZ;
	prandom_seed_state(&torture_timer_rnd, get_random_u64());
	hrtimer_init(&torture_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	torture_timer.function = torture_timer_fn;
	if (set_acceptable_latency("torture:irq", INFINITE_LATENCY) ||
	    set_acceptable_latency_cpus("torture:irq-cpu0", INFINITE_LATENCY,
					cpumask_of(0)) ||
	    latency_request_init(&torture_irq_req, "torture:irq-req") ||
	    latency_request_add(&torture_irq_req, INFINITE_LATENCY)) {
		ret = -EINVAL;
		goto stop;
	}
	for (i = 0; i < nthreads; i++) {
		struct torture_thread *t = &threads[i];

		snprintf(t->id, sizeof(t->id), "torture:%d", i);
		snprintf(t->req_id, sizeof(t->req_id), "torture:req%d", i);
		if (!zalloc_cpumask_var(&t->mask, GFP_KERNEL) ||
		    latency_request_init(&t->req, t->req_id)) {
			ret = -ENOMEM;
			goto stop;
		}
		tasks[i] = kthread_run(torture_thread_fn, t, "latency_torture/%d", i);
		if (IS_ERR(tasks[i])) {
			ret = PTR_ERR(tasks[i]);
			tasks[i] = NULL;
			goto stop;
		}
		get_task_struct(tasks[i]);
	}
	hrtimer_start(&torture_timer, ms_to_ktime(1), HRTIMER_MODE_REL_HARD);
	if (onoff > 0) {
		onoff_task = kthread_run(torture_onoff_fn, NULL, "latency_torture/onoff");
		if (IS_ERR(onoff_task))
			onoff_task = NULL;
		else
			get_task_struct(onoff_task);
	}
	msleep_interruptible(duration * MSEC_PER_SEC);
stop:
	for (i = 0; i < nthreads; i++) {
		if (tasks[i]) {
			kthread_stop(tasks[i]);
			put_task_struct(tasks[i]);
		}
		free_cpumask_var(threads[i].mask);
	}
	if (onoff_task) {
		kthread_stop(onoff_task);
		put_task_struct(onoff_task);
	}
	hrtimer_cancel(&torture_timer);
	if (latency_request_active(&torture_irq_req))
		latency_request_remove(&torture_irq_req);
	remove_acceptable_latency("torture:irq");
	remove_acceptable_latency("torture:irq-cpu0");
	synchronize_acceptable_latency();
	changes = atomic_long_read(&torture_changes);
	checks = atomic_long_read(&torture_checks);
	violations = atomic_long_read(&torture_violations);
	offline = atomic_long_read(&torture_offline);
	pr_info("changes=%ld checks=%ld violations=%ld offline=%ld\n",
		changes, checks, violations, offline);
out:
	kfree(tasks);
	kfree(threads);
	return ret;
}
late_initcall(latency_torture_init);	/* built in: after cpuidle's drivers */

static void __exit latency_torture_exit(void)
{
}
module_exit(latency_torture_exit);

MODULE_DESCRIPTION("Torture test of the latency-constraint registry");
MODULE_LICENSE("GPL");
