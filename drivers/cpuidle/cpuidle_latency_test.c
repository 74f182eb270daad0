// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the latency constraint in cpuidle.
 *
 * cpuidle_enter_state() checks the state the governor chose against the
 * system latency constraint (<linux/latency.h>) once more after publishing
 * it, and demotes it with cpuidle_latency_fit(); that decision is tested
 * here on synthetic state tables, for every driver alike.  The governors
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
#if IS_BUILTIN(CONFIG_CPUIDLE_LATENCY_KUNIT_TEST) && IS_ENABLED(CONFIG_PM_GENERIC_DOMAINS)
	KUNIT_CASE(cpuidle_latency_genpd_cpu_domain),
	KUNIT_CASE(cpuidle_latency_genpd_power_on),
	KUNIT_CASE(cpuidle_latency_genpd_join_leave),
#endif
	{}
};

static struct kunit_suite cpuidle_latency_suite = {
	.name = "cpuidle_latency",
	.test_cases = cpuidle_latency_cases,
};

kunit_test_suite(cpuidle_latency_suite);

MODULE_DESCRIPTION("KUnit tests for the latency constraint in cpuidle");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
