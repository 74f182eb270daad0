// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the latency constraint in cpuidle.
 *
 * cpuidle_enter_state() checks the state the governor chose against the
 * system latency constraint (<linux/latency.h>) once more after publishing
 * it, and demotes it with cpuidle_latency_fit(); that decision is tested
 * here on synthetic state tables, for every driver alike, and, built in,
 * where it runs: the idle loop of every CPU, under a test governor that
 * chooses too deep a state.  The governors
 * read the same constraint through cpuidle_governor_latency_req(), which
 * must follow every holder: named constraints and PM QoS requests.
 */

#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/cpu.h>
#include <linux/cpuidle.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/kthread.h>
#include <linux/latency.h>
#include <linux/math64.h>
#include <linux/pm_domain.h>
#include <linux/pm_qos.h>
#include <trace/events/latency.h>

#include "cpuidle.h"

#define TEST_ID		"kunit:cpuidle_latency"
#define US		NSEC_PER_USEC

struct fit_ctx {
	struct cpuidle_driver drv;
	struct cpuidle_device dev;
};

/* A driver with the given exit latencies (us), shallowest first. */
static struct fit_ctx *fit_ctx_new(struct kunit *test, const u64 *us, int n)
{
	struct fit_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	KUNIT_ASSERT_LE(test, n, CPUIDLE_STATE_MAX);
	for (i = 0; i < n; i++) {
		snprintf(ctx->drv.states[i].name, CPUIDLE_NAME_LEN, "S%d", i);
		ctx->drv.states[i].exit_latency_ns = us[i] * US;
	}
	ctx->drv.state_count = n;
	return ctx;
}

/* POLL, C1 (HLT), C2 and C3 with the latencies of the QEMU harness. */
static const u64 std_us[] = { 0, 1, 20, 200 };

static struct fit_ctx *std_ctx(struct kunit *test)
{
	return fit_ctx_new(test, std_us, ARRAY_SIZE(std_us));
}

static int fit(struct fit_ctx *ctx, int index, s64 req_us, bool broadcast)
{
	return cpuidle_latency_fit(&ctx->drv, &ctx->dev, index,
				   req_us == S64_MAX ? S64_MAX : req_us * US,
				   broadcast);
}

static void cpuidle_latency_fit_below_keeps_state(struct kunit *test)
{
	struct fit_ctx *ctx = std_ctx(test);

	KUNIT_EXPECT_EQ(test, 3, fit(ctx, 3, 201, false));
	KUNIT_EXPECT_EQ(test, 2, fit(ctx, 2, 150, false));
}

static void cpuidle_latency_fit_equal_keeps_state(struct kunit *test)
{
	struct fit_ctx *ctx = std_ctx(test);

	KUNIT_EXPECT_EQ(test, 3, fit(ctx, 3, 200, false));
	KUNIT_EXPECT_EQ(test, 2, fit(ctx, 2, 20, false));
}

static void cpuidle_latency_fit_above_demotes(struct kunit *test)
{
	struct fit_ctx *ctx = std_ctx(test);

	KUNIT_EXPECT_EQ(test, 2, fit(ctx, 3, 199, false));
	KUNIT_EXPECT_EQ(test, 2, fit(ctx, 3, 20, false));
	KUNIT_EXPECT_EQ(test, 1, fit(ctx, 3, 19, false));
	KUNIT_EXPECT_EQ(test, 1, fit(ctx, 2, 19, false));
	/* One nanosecond too deep is too deep. */
	KUNIT_EXPECT_EQ(test, 1, cpuidle_latency_fit(&ctx->drv, &ctx->dev, 2,
						     20 * US - 1, false));
}

static void cpuidle_latency_fit_picks_deepest_fitting(struct kunit *test)
{
	static const u64 us[] = { 0, 1, 20, 50, 100, 400 };
	struct fit_ctx *ctx = fit_ctx_new(test, us, ARRAY_SIZE(us));

	KUNIT_EXPECT_EQ(test, 4, fit(ctx, 5, 399, false));
	KUNIT_EXPECT_EQ(test, 3, fit(ctx, 5, 99, false));
	KUNIT_EXPECT_EQ(test, 3, fit(ctx, 4, 50, false));
}

static void cpuidle_latency_fit_zero_gives_state0(struct kunit *test)
{
	static const u64 us[] = { 2, 10, 100 };	/* no polling state */
	struct fit_ctx *ctx = std_ctx(test);
	struct fit_ctx *arm = fit_ctx_new(test, us, ARRAY_SIZE(us));

	/* State 0 is the floor, as for the governors. */
	KUNIT_EXPECT_EQ(test, 0, fit(ctx, 3, 0, false));
	KUNIT_EXPECT_EQ(test, 0, fit(ctx, 1, 0, false));
	KUNIT_EXPECT_EQ(test, 0, fit(arm, 2, 1, false));
	KUNIT_EXPECT_EQ(test, 0, fit(arm, 0, 0, false));
}

static void cpuidle_latency_state0_publishes_zero(struct kunit *test)
{
	static const u64 us[] = { 1, 10, 100 };	/* arm64: WFI is 1 us */
	struct fit_ctx *ctx = fit_ctx_new(test, us, ARRAY_SIZE(us));

	/*
	 * Under 0 us the CPU is in state 0 and can go no shallower: what it
	 * publishes must not exceed any constraint, so that no change
	 * interrupts it and no entry takes the demotion again.
	 */
	KUNIT_EXPECT_EQ(test, 0, cpuidle_latency_exit_ns(&ctx->drv, 0));
	KUNIT_EXPECT_EQ(test, 10 * US, cpuidle_latency_exit_ns(&ctx->drv, 1));
	KUNIT_EXPECT_EQ(test, 100 * US, cpuidle_latency_exit_ns(&ctx->drv, 2));
	/* The next deeper state stays that of the table. */
	KUNIT_EXPECT_EQ(test, 10 * US, cpuidle_next_exit_ns(&ctx->drv, 0));
	KUNIT_EXPECT_EQ(test, 0, cpuidle_next_exit_ns(&ctx->drv, 2));
	/* And state 0 is what the demotion gives under 0 us. */
	KUNIT_EXPECT_EQ(test, 0, fit(ctx, 2, 0, false));
}

static void cpuidle_latency_fit_infinite_keeps_state(struct kunit *test)
{
	static const u64 us[] = { 0, 1, INFINITE_LATENCY + 1ULL };
	struct fit_ctx *ctx = fit_ctx_new(test, us, ARRAY_SIZE(us));

	/* latency_idle_enter() gives S64_MAX for "no constraint". */
	KUNIT_EXPECT_EQ(test, 2, fit(ctx, 2, S64_MAX, false));
	KUNIT_EXPECT_EQ(test, 1, fit(ctx, 2, INFINITE_LATENCY - 1, false));
}

static void cpuidle_latency_fit_skips_disabled(struct kunit *test)
{
	struct fit_ctx *ctx = std_ctx(test);

	/* C2 disabled in sysfs: demotion from C3 goes past it, to C1. */
	ctx->dev.states_usage[2].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	KUNIT_EXPECT_EQ(test, 1, fit(ctx, 3, 150, false));
	/* Disabled by the driver: the same. */
	ctx->dev.states_usage[2].disable = CPUIDLE_STATE_DISABLED_BY_DRIVER;
	KUNIT_EXPECT_EQ(test, 1, fit(ctx, 3, 150, false));
	/* A state that fits is kept: what the governor chose is its business. */
	KUNIT_EXPECT_EQ(test, 3, fit(ctx, 3, 200, false));
	/* Every state above 0 disabled: state 0. */
	ctx->dev.states_usage[1].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	KUNIT_EXPECT_EQ(test, 0, fit(ctx, 3, 150, false));
}

static void cpuidle_latency_fit_timer_stop_needs_broadcast(struct kunit *test)
{
	struct fit_ctx *ctx = std_ctx(test);

	ctx->drv.states[2].flags = CPUIDLE_FLAG_TIMER_STOP;
	ctx->drv.states[3].flags = CPUIDLE_FLAG_TIMER_STOP;
	/* Without the broadcast timer, a state that stops it is out. */
	KUNIT_EXPECT_EQ(test, 1, fit(ctx, 3, 150, false));
	/* With it (the chosen state stops the timer too), it is in. */
	KUNIT_EXPECT_EQ(test, 2, fit(ctx, 3, 150, true));
}

struct qos_test_ctx {
	struct pm_qos_request req;
	bool ours;
};

/*
 * Forced idle (idle injection, its own forced_idle_latency_limit_ns) and
 * suspend-to-idle are left alone, as the CPU latency QoS left them in
 * 6.12; every other entry is constrained.
 */
static void cpuidle_latency_forced_idle_left_alone(struct kunit *test)
{
	struct cpuidle_device dev = {};

	KUNIT_EXPECT_TRUE(test, cpuidle_latency_applies(&dev, false));
	KUNIT_EXPECT_FALSE(test, cpuidle_latency_applies(&dev, true));
	dev.forced_idle_latency_limit_ns = 5 * NSEC_PER_MSEC;
	KUNIT_EXPECT_FALSE(test, cpuidle_latency_applies(&dev, false));
}

#if IS_BUILTIN(CONFIG_CPUIDLE_LATENCY_KUNIT_TEST) && IS_ENABLED(CONFIG_PM_GENERIC_DOMAINS)
/*
 * A CPU power domain (genpd with the CPU governor, as cpuidle-psci's in
 * OS-initiated mode) over one CPU, which a thread keeps "idle" in a state
 * of 20 us: the thread, bound to that CPU, publishes that state, again
 * when the registry's interrupt clears it, as a CPU that idles again does,
 * and stays runnable, so that the CPU never idles and its own idle path
 * rewrites nothing meanwhile.  It is preemptible: a task preempted on that
 * CPU with migration disabled (a sleeping spinlock on PREEMPT_RT) must get
 * it back.
 */
struct genpd_test {
	struct genpd_power_state states[2];
	struct generic_pm_domain pd;
	struct task_struct *idle;
	struct device *dev;		/* a root device, */
	struct device *member;		/* added to the domain */
	struct device *cpu_member;	/* a CPU's device added to it */
	int cpu;
	bool probe, stop;
};

static atomic_t genpd_test_deep;

static void genpd_test_probe(void *data, int old, int new, unsigned int deep,
			     unsigned int shallow, bool wait)
{
	if (wait)
		atomic_add(deep, &genpd_test_deep);
}

static int genpd_test_idle_fn(void *arg)
{
	struct genpd_test *t = arg;
	struct latency_idle *li = per_cpu_ptr(&latency_idle, t->cpu);

	while (!READ_ONCE(t->stop)) {
		if (READ_ONCE(li->exit_ns) != 20 * US) {
			WRITE_ONCE(li->exit_ns, 20 * US);
			smp_mb();	/* as latency_idle_enter() */
		}
		cond_resched();
	}
	WRITE_ONCE(li->exit_ns, 0);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/* The governor's verdict, and the state it left the domain in. */
static bool genpd_test_power_down_ok(struct genpd_test *t)
{
	struct cpuidle_device *dev = per_cpu(cpuidle_devices, t->cpu);

	/* The CPU's next timer, which its idle path would have stored. */
	if (dev)
		WRITE_ONCE(dev->next_hrtimer, ktime_add_ms(ktime_get(), 1000));
	return t->pd.gov->power_down_ok(&t->pd.domain);
}

static s64 genpd_test_domain_ns(struct genpd_test *t)
{
	return atomic64_read(&per_cpu(latency_idle, t->cpu).domain_ns);
}

/* Until the domain's CPU is in its state of 20 us (again); at most 1 s. */
static bool genpd_test_idle_wait(struct genpd_test *t)
{
	ktime_t end = ktime_add_ms(ktime_get(), 1000);

	while (READ_ONCE(per_cpu(latency_idle, t->cpu).exit_ns) != 20 * US) {
		if (!ktime_before(ktime_get(), end))
			return false;
		usleep_range(100, 200);
	}
	return true;
}

/*
 * A synchronous call for @usecs on the domain's CPU: the CPUs it
 * interrupted.  The CPU is back in its state when it returns.
 */
static int genpd_test_sync_deep(struct kunit *test, struct genpd_test *t,
				int usecs)
{
	int deep;

	KUNIT_ASSERT_TRUE(test, genpd_test_idle_wait(t));
	atomic_set(&genpd_test_deep, 0);
	KUNIT_EXPECT_EQ(test, 0, set_acceptable_latency_cpus(TEST_ID, usecs,
							     cpumask_of(t->cpu)));
	deep = atomic_read(&genpd_test_deep);
	KUNIT_ASSERT_TRUE(test, genpd_test_idle_wait(t));
	return deep;
}

static void genpd_test_cleanup(void *data)
{
	struct genpd_test *t = data;

	remove_acceptable_latency(TEST_ID);
	remove_wakeup_latency(TEST_ID);
	synchronize_acceptable_latency();
	WRITE_ONCE(t->stop, true);
	if (t->idle)
		kthread_stop(t->idle);
	if (t->probe) {
		unregister_trace_latency_idle_wake(genpd_test_probe, NULL);
		tracepoint_synchronize_unregister();
	}
	if (t->cpu_member)
		pm_genpd_remove_device(t->cpu_member);
	if (t->member)
		pm_genpd_remove_device(t->member);
	if (t->dev)
		root_device_unregister(t->dev);
	/* Powered on, the domain withdraws its latency, as genpd would. */
	genpd_cpu_latency(&t->pd, 0);
	pm_genpd_remove(&t->pd);
}

/* A CPU domain with a retention state of 10 us and a power-down of 80 us. */
static struct genpd_test *genpd_test_domain(struct kunit *test)
{
	struct genpd_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->states[0].power_on_latency_ns = 8 * US;
	t->states[0].power_off_latency_ns = 2 * US;
	t->states[1].power_on_latency_ns = 60 * US;
	t->states[1].power_off_latency_ns = 20 * US;
	t->pd.name = "kunit-cpu-domain";
	t->pd.flags = GENPD_FLAG_CPU_DOMAIN | GENPD_FLAG_IRQ_SAFE;
	t->pd.states = t->states;
	t->pd.state_count = 2;
	KUNIT_ASSERT_EQ(test, 0, pm_genpd_init(&t->pd, &pm_domain_cpu_gov,
					       false));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   genpd_test_cleanup, t));
	return t;
}

/*
 * The CPU domain governor honours the constraints held for one CPU, not
 * only the system value, leaves to its state only what the CPU's own idle
 * state does not take, and tells the registry what its state adds to its
 * CPUs' wake-up: a constraint that a CPU's own state meets, but not with
 * the domain's around it, interrupts that CPU.
 */
static void cpuidle_latency_genpd_cpu_domain(struct kunit *test)
{
	unsigned int cpu = cpumask_last(cpu_online_mask);
	unsigned int other = cpumask_any_but(cpu_online_mask, cpu);
	struct task_struct *idle;
	struct genpd_test *t;

	if (other >= nr_cpu_ids)
		kunit_skip(test, "needs a second online CPU");
	/*
	 * This case's own thread, which exits after it, stays off that CPU:
	 * a synchronous call never interrupts the CPU that makes it.
	 */
	KUNIT_ASSERT_EQ(test, 0, set_cpus_allowed_ptr(current, cpumask_of(other)));
	t = genpd_test_domain(test);
	t->cpu = cpu;
	cpumask_set_cpu(t->cpu, t->pd.cpus);
	KUNIT_ASSERT_EQ(test, 0, register_trace_latency_idle_wake(genpd_test_probe,
								  NULL));
	t->probe = true;
	idle = kthread_run_on_cpu(genpd_test_idle_fn, t, t->cpu, "genpd_test/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(idle));
	t->idle = idle;

	/* Nothing held for the CPU: the deepest state. */
	KUNIT_EXPECT_EQ(test, 0, genpd_test_sync_deep(test, t, INFINITE_LATENCY));
	KUNIT_EXPECT_TRUE(test, genpd_test_power_down_ok(t));
	KUNIT_EXPECT_EQ(test, 1, t->pd.state_idx);
	KUNIT_EXPECT_EQ(test, 80 * US, genpd_test_domain_ns(t));

	/* 50 us for that CPU: 20 us of its own fit, 20 + 80 do not. */
	KUNIT_EXPECT_GE(test, genpd_test_sync_deep(test, t, 50), 1);
	/* And the domain, asked again, keeps to the retention state. */
	KUNIT_EXPECT_TRUE(test, genpd_test_power_down_ok(t));
	KUNIT_EXPECT_EQ(test, 0, t->pd.state_idx);
	KUNIT_EXPECT_EQ(test, 10 * US, genpd_test_domain_ns(t));
	/* 20 + 10 fit in 30: nobody is interrupted. */
	KUNIT_EXPECT_EQ(test, 0, genpd_test_sync_deep(test, t, 30));
	/*
	 * 25 us: 20 and 10 each fit, their sum does not: the CPU is
	 * interrupted, and the domain, which counts what its CPU's state
	 * takes, stays on.
	 */
	KUNIT_EXPECT_GE(test, genpd_test_sync_deep(test, t, 25), 1);
	KUNIT_EXPECT_FALSE(test, genpd_test_power_down_ok(t));
	KUNIT_EXPECT_EQ(test, 0, genpd_test_domain_ns(t));

	/* 5 us: the domain stays on and adds nothing. */
	KUNIT_EXPECT_GE(test, genpd_test_sync_deep(test, t, 5), 1);
	KUNIT_EXPECT_FALSE(test, genpd_test_power_down_ok(t));
	KUNIT_EXPECT_EQ(test, 0, genpd_test_domain_ns(t));
}

/*
 * The domain of a CPU, this thread on it: there, it keeps that CPU from
 * idling, whose idle path would rewrite the next timer that
 * genpd_test_power_down_ok() sets.
 */
static struct genpd_test *genpd_test_domain_here(struct kunit *test)
{
	struct genpd_test *t = genpd_test_domain(test);

	t->cpu = cpumask_last(cpu_online_mask);
	KUNIT_ASSERT_EQ(test, 0, set_cpus_allowed_ptr(current,
						      cpumask_of(t->cpu)));
	return t;
}

/*
 * A power-on withdraws what a CPU domain's state adds, from every CPU of
 * the domain: here the one after a system-sleep power-off, through
 * dev_pm_genpd_resume() on a device of the domain.  Skipped without system
 * sleep (the arm64 guest), which has no path to a power-on without a
 * driver.
 */
static void cpuidle_latency_genpd_power_on(struct kunit *test)
{
	struct genpd_test *t;
	struct device *dev;
	s64 before;

	if (!IS_ENABLED(CONFIG_PM_GENERIC_DOMAINS_SLEEP))
		kunit_skip(test, "no system sleep: no power-on to test");
	t = genpd_test_domain_here(test);
	before = genpd_test_domain_ns(t);
	dev = root_device_register("kunit-genpd-member");
	KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
	t->dev = dev;
	KUNIT_ASSERT_EQ(test, 0, pm_genpd_add_device(&t->pd, dev));
	t->member = dev;
	cpumask_set_cpu(t->cpu, t->pd.cpus);
	/* No constraint: the deepest state, 80 us, published. */
	KUNIT_EXPECT_TRUE(test, genpd_test_power_down_ok(t));
	KUNIT_EXPECT_EQ(test, before + 80 * US, genpd_test_domain_ns(t));
	dev_pm_genpd_suspend(dev);
	KUNIT_EXPECT_EQ(test, GENPD_STATE_OFF, t->pd.status);
	dev_pm_genpd_resume(dev);
	KUNIT_EXPECT_EQ(test, GENPD_STATE_ON, t->pd.status);
	KUNIT_EXPECT_EQ(test, before, genpd_test_domain_ns(t));
	/* What a CPU that leaves would do, whatever the above left. */
	genpd_cpu_latency(&t->pd, 0);
	cpumask_clear_cpu(t->cpu, t->pd.cpus);
}

/*
 * A CPU that joins a CPU domain (its device added, as dt_idle_genpd does)
 * takes what the domain adds, and drops it when it leaves.  Only a CPU
 * device without a driver joins (the arm64 guest's); skipped where the CPU's
 * device has one (x86's processor driver).
 */
static void cpuidle_latency_genpd_join_leave(struct kunit *test)
{
	struct genpd_test *t;
	struct device *dev;
	s64 before;

	dev = get_cpu_device(cpumask_last(cpu_online_mask));
	KUNIT_ASSERT_NOT_NULL(test, dev);
	if (dev->driver)
		kunit_skip(test, "the CPU's device has a driver: it joins no domain");
	t = genpd_test_domain_here(test);
	before = genpd_test_domain_ns(t);
	/* No CPU in it: the governor publishes 80 us, to none. */
	KUNIT_EXPECT_TRUE(test, genpd_test_power_down_ok(t));
	KUNIT_EXPECT_EQ(test, 1, t->pd.state_idx);
	KUNIT_EXPECT_EQ(test, before, genpd_test_domain_ns(t));
	KUNIT_ASSERT_EQ(test, 0, pm_genpd_add_device(&t->pd, dev));
	t->cpu_member = dev;
	KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(t->cpu, t->pd.cpus));
	KUNIT_EXPECT_EQ(test, before + 80 * US, genpd_test_domain_ns(t));
	KUNIT_EXPECT_EQ(test, 0, pm_genpd_remove_device(dev));
	t->cpu_member = NULL;
	KUNIT_EXPECT_FALSE(test, cpumask_test_cpu(t->cpu, t->pd.cpus));
	KUNIT_EXPECT_EQ(test, before, genpd_test_domain_ns(t));
}

/*
 * Suspend-to-idle: the CPU domain governor's system_power_down_ok gives a
 * CPU domain its deepest state whose latency fits the system wakeup limit,
 * none when no state fits; a runtime constraint does not bound it.
 */
static void cpuidle_latency_genpd_system_wakeup(struct kunit *test)
{
	struct genpd_test *t;
	static const struct { int usecs; bool ok; int idx; } want[] = {
		{ S32_MAX, true, 1 }, { 80, true, 1 }, { 79, true, 0 },
		{ 10, true, 0 }, { 9, false, -1 },
	};
	int i;

	if (!IS_ENABLED(CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP))
		kunit_skip(test, "needs CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP");
	t = genpd_test_domain(test);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		KUNIT_ASSERT_EQ(test, 0, set_wakeup_latency(TEST_ID, want[i].usecs));
		t->pd.state_idx = -1;
		KUNIT_EXPECT_EQ_MSG(test, want[i].ok,
				    pm_domain_cpu_gov.system_power_down_ok(&t->pd.domain),
				    "%d us", want[i].usecs);
		if (want[i].ok)
			KUNIT_EXPECT_EQ_MSG(test, want[i].idx, t->pd.state_idx,
					    "%d us", want[i].usecs);
	}
	KUNIT_EXPECT_EQ(test, 0, remove_wakeup_latency(TEST_ID));
	/* 5 us of runtime constraint: s2idle still powers the domain off. */
	KUNIT_ASSERT_EQ(test, 0, set_acceptable_latency(TEST_ID, 5));
	KUNIT_EXPECT_TRUE(test, pm_domain_cpu_gov.system_power_down_ok(&t->pd.domain));
	KUNIT_EXPECT_EQ(test, 1, t->pd.state_idx);
}
#endif

/*
 * Where the coupled case runs: not on x86, which has no coupled idle states
 * and whose QEMU TCG guest hung in it once (harness/test-results.txt,
 * 2026-12-07); coupled.c stays built there, for the series' W=1 checks.
 */
#define LATENCY_KUNIT_COUPLED (IS_BUILTIN(CONFIG_CPUIDLE_LATENCY_KUNIT_TEST) && \
			       IS_ENABLED(CONFIG_ARCH_NEEDS_CPU_IDLE_COUPLED) && \
			       !IS_ENABLED(CONFIG_X86))
#if LATENCY_KUNIT_COUPLED
/*
 * A coupled cluster of two CPUs (cpuidle_coupled, as on Tegra and OMAP4):
 * on each, a thread bound to it runs the idle loop's part, over and over,
 * with preemption and interrupts off: it chooses the coupled state if it
 * fits the CPU's limit (a governor), the safe state otherwise, and enters
 * it through cpuidle_enter().  The safe state waits with interrupts on,
 * a WFI that wakes by itself too; the coupled state meets its cluster in
 * the parallel barrier, as real drivers do, and is counted.
 */
struct coupled_test {
	struct cpuidle_driver drv;
	struct task_struct *thread[2];
	atomic_t barrier;
	atomic_t entered;	/* entries of the coupled state */
	atomic_t safe;		/* entries of the safe state by thread 0 */
	atomic_t gen;		/* cpuidle_enter() calls of thread 0 */
	atomic_t held;		/* times thread 1 held its choice */
	bool hold, stop;
};

#define COUPLED_SAFE	0
#define COUPLED_DEEP	1

static struct cpuidle_device coupled_test_dev[2];
/*
 * Registered once, never unregistered: the coupled code finds a device's
 * cluster through cpuidle_devices, which these are not in, so the second
 * is given the first's, and what registering it made is kept here.
 */
static struct cpuidle_coupled *coupled_test_spare;

static int coupled_test_enter(struct cpuidle_device *dev,
			      struct cpuidle_driver *drv, int index)
{
	struct coupled_test *t = container_of(drv, struct coupled_test, drv);

	if (index == COUPLED_DEEP) {
		cpuidle_coupled_parallel_barrier(dev, &t->barrier);
		atomic_inc(&t->entered);
		return index;
	}
	if (dev == &coupled_test_dev[0])
		atomic_inc(&t->safe);
	local_irq_enable();
	cpu_relax();
	/* Out of the coupled code's waiting loop, to stop. */
	if (READ_ONCE(t->stop))
		set_tsk_need_resched(current);
	local_irq_disable();
	return index;
}

static int coupled_test_fn(void *arg)
{
	struct coupled_test *t = arg;
	bool first = raw_smp_processor_id() == coupled_test_dev[0].cpu;
	struct cpuidle_device *dev = &coupled_test_dev[!first];
	int index;

	while (!READ_ONCE(t->stop)) {
		index = t->drv.states[COUPLED_DEEP].exit_latency_ns <=
			latency_usecs_to_ns(cpu_latency_constraint(dev->cpu)) ?
			COUPLED_DEEP : COUPLED_SAFE;
		/* Thread 1 may be held between its choice and the entry. */
		if (!first && READ_ONCE(t->hold)) {
			atomic_inc(&t->held);
			while (READ_ONCE(t->hold) && !READ_ONCE(t->stop))
				cond_resched();
		}
		if (first)
			atomic_inc(&t->gen);
		preempt_disable();
		local_irq_disable();
		cpuidle_enter(&t->drv, dev, index);
		local_irq_enable();
		preempt_enable();
		cond_resched();
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static void coupled_test_cleanup(void *data)
{
	struct coupled_test *t = data;
	int i;

	WRITE_ONCE(t->stop, true);
	for (i = 0; i < 2; i++)
		if (t->thread[i])
			kthread_stop(t->thread[i]);
	remove_acceptable_latency(TEST_ID);
	synchronize_acceptable_latency();
}

/* Until @v exceeds @old; at most 1 s. */
static bool coupled_test_wait(atomic_t *v, int old)
{
	ktime_t end = ktime_add_ms(ktime_get(), 1000);

	while (atomic_read(v) <= old) {
		if (!ktime_before(ktime_get(), end))
			return false;
		usleep_range(100, 200);
	}
	return true;
}

/*
 * CPU 0 of the cluster chose the coupled state and waits for CPU 1 in the
 * safe state; CPU 1 chose it too, under the same limit, but is not there
 * yet.  A synchronous call forbids it meanwhile: when it returns, neither
 * may enter it, though CPU 0 waited in a state that fits and neither was
 * interrupted.  Each checks the state before they commit to it together,
 * so both go back to their governor instead.
 */
static void cpuidle_latency_coupled_cluster(struct kunit *test)
{
	unsigned int self = cpumask_first(cpu_online_mask);
	unsigned int c0 = cpumask_nth(1, cpu_online_mask);
	unsigned int c1 = cpumask_nth(2, cpu_online_mask);
	struct cpuidle_device *dev;
	struct coupled_test *t;
	int i, ret, gen, held, entered, tries = 0;

	if (c1 >= nr_cpu_ids)
		kunit_skip(test, "needs three online CPUs");
	KUNIT_ASSERT_EQ(test, 0, set_cpus_allowed_ptr(current, cpumask_of(self)));
	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->drv.name = "kunit_coupled";
	t->drv.states[COUPLED_SAFE] = (struct cpuidle_state){
		.name = "WFI", .exit_latency_ns = US,
		.flags = CPUIDLE_FLAG_RCU_IDLE, .enter = coupled_test_enter,
	};
	t->drv.states[COUPLED_DEEP] = (struct cpuidle_state){
		.name = "COUPLED", .exit_latency_ns = 200 * US,
		.flags = CPUIDLE_FLAG_RCU_IDLE | CPUIDLE_FLAG_COUPLED,
		.enter = coupled_test_enter,
	};
	t->drv.state_count = 2;
	t->drv.safe_state_index = COUPLED_SAFE;
	if (!coupled_test_dev[0].coupled) {
		for (i = 0; i < 2; i++) {
			dev = &coupled_test_dev[i];
			dev->cpu = i ? c1 : c0;
			cpumask_set_cpu(c0, &dev->coupled_cpus);
			cpumask_set_cpu(c1, &dev->coupled_cpus);
			ret = cpuidle_coupled_register_device(dev);
			KUNIT_ASSERT_EQ(test, 0, ret);
		}
		coupled_test_spare = coupled_test_dev[1].coupled;
		coupled_test_dev[1].coupled = coupled_test_dev[0].coupled;
	}
	KUNIT_ASSERT_EQ(test, c1, coupled_test_dev[1].cpu);
	KUNIT_ASSERT_EQ(test, 0, set_acceptable_latency(TEST_ID, INFINITE_LATENCY));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   coupled_test_cleanup, t));
	for (i = 0; i < 2; i++) {
		t->thread[i] = kthread_run_on_cpu(coupled_test_fn, t, i ? c1 : c0,
						  "coupled_test/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t->thread[i]));
	}
	/* Nothing held: the cluster enters the coupled state. */
	KUNIT_ASSERT_TRUE(test, coupled_test_wait(&t->entered, 0));

	do {
		KUNIT_ASSERT_LT(test, tries++, 20);
		KUNIT_ASSERT_EQ(test, 0, set_acceptable_latency(TEST_ID,
								INFINITE_LATENCY));
		held = atomic_read(&t->held);
		WRITE_ONCE(t->hold, true);
		KUNIT_ASSERT_TRUE(test, coupled_test_wait(&t->held, held));
		/* CPU 0 in the coupled code's waiting loop, in the safe state. */
		KUNIT_ASSERT_TRUE(test, coupled_test_wait(&t->safe,
							  atomic_read(&t->safe)));
		gen = atomic_read(&t->gen);
		KUNIT_ASSERT_TRUE(test, coupled_test_wait(&t->safe,
							  atomic_read(&t->safe)));
		KUNIT_ASSERT_EQ(test, 0, set_acceptable_latency(TEST_ID, 100));
		entered = atomic_read(&t->entered);
		/* Still waiting, in the same entry? Otherwise again. */
		i = atomic_read(&t->gen) == gen;
		WRITE_ONCE(t->hold, false);
	} while (!i);

	/* CPU 0 gives up the coupled state, and enters again. */
	KUNIT_EXPECT_TRUE(test, coupled_test_wait(&t->gen, gen + 1));
	KUNIT_EXPECT_EQ_MSG(test, entered, atomic_read(&t->entered),
			    "coupled state entered under a limit it exceeds");
}
#endif

#if IS_BUILTIN(CONFIG_CPUIDLE_LATENCY_KUNIT_TEST)
/*
 * cpuidle_enter_state() itself, on every CPU: a governor that always
 * chooses the deepest enabled state, whatever the latency constraint, so
 * that only the check after publishing the state stands between it and a
 * state too deep.  Built in only: a governor cannot be unregistered, and
 * it stays listed, with the lowest rating, never chosen unless asked for.
 */
static atomic_t deepest_gov_selects;

static int deepest_gov_index(struct cpuidle_driver *drv,
			     struct cpuidle_device *dev)
{
	int i;

	for (i = drv->state_count - 1; i > 0; i--)
		if (!dev->states_usage[i].disable)
			break;
	return i;
}

static int deepest_gov_select(struct cpuidle_driver *drv,
			      struct cpuidle_device *dev, bool *stop_tick)
{
	/* The tick wakes the CPU, to idle again, on a tickless kernel too. */
	*stop_tick = false;
	atomic_inc(&deepest_gov_selects);
	return deepest_gov_index(drv, dev);
}

static struct cpuidle_governor deepest_gov = {
	.name = "kunit_deepest",
	.rating = 0,
	.select = deepest_gov_select,
};

struct deepest_test {
	struct cpuidle_governor *prev;
	bool ours;
};

/* Entries into the deepest enabled state, and into the others, on all CPUs. */
static void deepest_entries(u64 *deep, u64 *shallower)
{
	unsigned int cpu;

	*deep = 0;
	*shallower = 0;
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct cpuidle_device *dev = per_cpu(cpuidle_devices, cpu);
		struct cpuidle_driver *drv;
		int d, i;

		if (!dev || !dev->registered)
			continue;
		drv = cpuidle_get_cpu_driver(dev);
		d = deepest_gov_index(drv, dev);
		for (i = 0; i < d; i++)
			*shallower += READ_ONCE(dev->states_usage[i].usage);
		*deep += READ_ONCE(dev->states_usage[d].usage);
	}
	cpus_read_unlock();
}

/* The exit latency of the deepest enabled state, the least over all CPUs. */
static s64 deepest_exit_ns(void)
{
	s64 ns = S64_MAX;
	unsigned int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct cpuidle_device *dev = per_cpu(cpuidle_devices, cpu);
		struct cpuidle_driver *drv;

		if (!dev || !dev->registered)
			continue;
		drv = cpuidle_get_cpu_driver(dev);
		ns = min(ns, drv->states[deepest_gov_index(drv, dev)].exit_latency_ns);
	}
	cpus_read_unlock();
	return ns;
}

static void deepest_test_cleanup(void *data)
{
	struct deepest_test *t = data;

	mutex_lock(&cpuidle_lock);
	cpuidle_switch_governor(t->prev);
	mutex_unlock(&cpuidle_lock);
	if (t->ours)
		remove_acceptable_latency(TEST_ID);
}

/* Over 200 ms of idle: entries into the deepest state, into the others. */
static void deepest_window(u64 *deep, u64 *shallower, int *selects)
{
	u64 deep0, shallower0;
	int selects0;

	/* A CPU woken from a state now too deep counts its stay after. */
	msleep(50);
	deepest_entries(&deep0, &shallower0);
	selects0 = atomic_read(&deepest_gov_selects);
	msleep(200);
	deepest_entries(deep, shallower);
	*deep -= deep0;
	*shallower -= shallower0;
	*selects = atomic_read(&deepest_gov_selects) - selects0;
}

/*
 * A constraint one microsecond below the deepest state's exit latency:
 * every entry the governor chose it for is demoted, and none enters it;
 * one that it meets exactly lets the CPUs enter it again.
 */
static void cpuidle_latency_enter_demotes_too_deep(struct kunit *test)
{
	struct deepest_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	s64 exit_ns = deepest_exit_ns();
	int ret, selects, tight, fits;
	u64 deep, shallower;

	KUNIT_ASSERT_NOT_NULL(test, t);
	if (exit_ns == S64_MAX || exit_ns < 2 * US)
		kunit_skip(test, "no idle state deeper than 1 us");
	/* Just too deep; just deep enough. */
	tight = div_s64(exit_ns - 1, NSEC_PER_USEC);
	fits = div_s64(exit_ns + NSEC_PER_USEC - 1, NSEC_PER_USEC);
	ret = cpuidle_register_governor(&deepest_gov);
	KUNIT_ASSERT_TRUE(test, ret == 0 || ret == -EEXIST);

	mutex_lock(&cpuidle_lock);
	t->prev = cpuidle_curr_governor;
	mutex_unlock(&cpuidle_lock);
	ret = kunit_add_action_or_reset(test, deepest_test_cleanup, t);
	KUNIT_ASSERT_EQ(test, 0, ret);

	KUNIT_ASSERT_EQ(test, 0, set_acceptable_latency(TEST_ID, tight));
	t->ours = true;
	mutex_lock(&cpuidle_lock);
	ret = cpuidle_switch_governor(&deepest_gov);
	mutex_unlock(&cpuidle_lock);
	KUNIT_ASSERT_EQ(test, 0, ret);

	deepest_window(&deep, &shallower, &selects);
	KUNIT_EXPECT_GT(test, selects, 0);
	KUNIT_EXPECT_EQ(test, deep, 0);
	KUNIT_EXPECT_GT(test, shallower, 0);

	KUNIT_ASSERT_EQ(test, 0, set_acceptable_latency(TEST_ID, fits));
	deepest_window(&deep, &shallower, &selects);
	KUNIT_EXPECT_GT(test, selects, 0);
	KUNIT_EXPECT_GT(test, deep, 0);
}
#endif

static void qos_test_cleanup(void *data)
{
	struct qos_test_ctx *ctx = data;

	if (cpu_latency_qos_request_active(&ctx->req))
		cpu_latency_qos_remove_request(&ctx->req);
	if (ctx->ours)
		remove_acceptable_latency(TEST_ID);
}

static struct qos_test_ctx *qos_test_ctx_new(struct kunit *test)
{
	struct qos_test_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   qos_test_cleanup,
							   ctx));
	return ctx;
}

static void cpuidle_latency_governor_req_min_both_ways(struct kunit *test)
{
	struct qos_test_ctx *ctx = qos_test_ctx_new(test);

	cpu_latency_qos_add_request(&ctx->req, 70);
	KUNIT_ASSERT_EQ(test, 0, set_acceptable_latency(TEST_ID, 30));
	ctx->ours = true;

	/* The named constraint is the lower one. */
	KUNIT_EXPECT_EQ(test, 30 * NSEC_PER_USEC,
			cpuidle_governor_latency_req(0));

	/* The PM QoS request is the lower one. */
	cpu_latency_qos_update_request(&ctx->req, 20);
	KUNIT_EXPECT_EQ(test, 20 * NSEC_PER_USEC,
			cpuidle_governor_latency_req(0));

	/* The named one lower again, through modify. */
	KUNIT_ASSERT_EQ(test, 0, modify_acceptable_latency(TEST_ID, 10));
	KUNIT_EXPECT_EQ(test, 10 * NSEC_PER_USEC,
			cpuidle_governor_latency_req(0));

	/* Releasing it leaves the PM QoS request in charge. */
	KUNIT_ASSERT_EQ(test, 0, remove_acceptable_latency(TEST_ID));
	ctx->ours = false;
	KUNIT_EXPECT_EQ(test, 20 * NSEC_PER_USEC,
			cpuidle_governor_latency_req(0));
}

static void cpuidle_latency_governor_req_zero(struct kunit *test)
{
	struct qos_test_ctx *ctx = qos_test_ctx_new(test);

	KUNIT_ASSERT_EQ(test, 0, set_acceptable_latency(TEST_ID, 0));
	ctx->ours = true;

	KUNIT_EXPECT_EQ(test, 0, cpuidle_governor_latency_req(0));
}

static void cpuidle_latency_governor_req_infinite_ignored(struct kunit *test)
{
	struct qos_test_ctx *ctx = qos_test_ctx_new(test);
	s64 before = cpuidle_governor_latency_req(0);

	KUNIT_ASSERT_EQ(test, 0, set_acceptable_latency(TEST_ID,
							INFINITE_LATENCY));
	ctx->ours = true;

	KUNIT_EXPECT_EQ(test, before, cpuidle_governor_latency_req(0));
}

/*
 * The governors read the smaller of the runtime limit and the system
 * wakeup limit (6.19's cpuidle_governor_latency_req()), whichever is lower.
 */
static void cpuidle_latency_governor_req_wakeup(struct kunit *test)
{
	s64 before = cpuidle_governor_latency_req(0);

	if (!IS_ENABLED(CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP))
		kunit_skip(test, "needs CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP");
	KUNIT_ASSERT_GT(test, before, 40 * US);
	KUNIT_ASSERT_EQ(test, 0, set_wakeup_latency(TEST_ID, 40));
	KUNIT_EXPECT_EQ(test, 40 * US, cpuidle_governor_latency_req(0));
	KUNIT_ASSERT_EQ(test, 0, set_acceptable_latency(TEST_ID, 30));
	KUNIT_EXPECT_EQ(test, 30 * US, cpuidle_governor_latency_req(0));
	KUNIT_ASSERT_EQ(test, 0, set_wakeup_latency(TEST_ID, 20));
	KUNIT_EXPECT_EQ(test, 20 * US, cpuidle_governor_latency_req(0));
	KUNIT_EXPECT_EQ(test, 0, remove_wakeup_latency(TEST_ID));
	KUNIT_EXPECT_EQ(test, 0, remove_acceptable_latency(TEST_ID));
	KUNIT_EXPECT_EQ(test, before, cpuidle_governor_latency_req(0));
}

static struct kunit_case cpuidle_latency_cases[] = {
	KUNIT_CASE(cpuidle_latency_fit_below_keeps_state),
	KUNIT_CASE(cpuidle_latency_fit_equal_keeps_state),
	KUNIT_CASE(cpuidle_latency_fit_above_demotes),
	KUNIT_CASE(cpuidle_latency_fit_picks_deepest_fitting),
	KUNIT_CASE(cpuidle_latency_fit_zero_gives_state0),
	KUNIT_CASE(cpuidle_latency_state0_publishes_zero),
	KUNIT_CASE(cpuidle_latency_fit_infinite_keeps_state),
	KUNIT_CASE(cpuidle_latency_fit_skips_disabled),
	KUNIT_CASE(cpuidle_latency_fit_timer_stop_needs_broadcast),
	KUNIT_CASE(cpuidle_latency_governor_req_min_both_ways),
	KUNIT_CASE(cpuidle_latency_governor_req_zero),
	KUNIT_CASE(cpuidle_latency_forced_idle_left_alone),
	KUNIT_CASE(cpuidle_latency_governor_req_infinite_ignored),
	KUNIT_CASE(cpuidle_latency_governor_req_wakeup),
#if IS_BUILTIN(CONFIG_CPUIDLE_LATENCY_KUNIT_TEST)
	KUNIT_CASE(cpuidle_latency_enter_demotes_too_deep),
#endif
#if IS_BUILTIN(CONFIG_CPUIDLE_LATENCY_KUNIT_TEST) && IS_ENABLED(CONFIG_PM_GENERIC_DOMAINS)
	KUNIT_CASE(cpuidle_latency_genpd_cpu_domain),
	KUNIT_CASE(cpuidle_latency_genpd_power_on),
	KUNIT_CASE(cpuidle_latency_genpd_join_leave),
	KUNIT_CASE(cpuidle_latency_genpd_system_wakeup),
#endif
#if LATENCY_KUNIT_COUPLED
	KUNIT_CASE(cpuidle_latency_coupled_cluster),
#endif
	{}
};

/* Whatever a failed case left held goes away. */
static void cpuidle_latency_exit(struct kunit *test)
{
	remove_acceptable_latency(TEST_ID);
	remove_wakeup_latency(TEST_ID);
}

static struct kunit_suite cpuidle_latency_suite = {
	.name = "cpuidle_latency",
	.exit = cpuidle_latency_exit,
	.test_cases = cpuidle_latency_cases,
};

kunit_test_suite(cpuidle_latency_suite);

MODULE_DESCRIPTION("KUnit tests for the latency constraint in cpuidle");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
