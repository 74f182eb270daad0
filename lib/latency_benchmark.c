// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark of the latency-constraint registry against CPU latency QoS.
 *
 * "echo 1 > /sys/module/latency_benchmark/parameters/run" measures, with
 * N = 1, 10, 100, 1000 and 10000 constraints already held by each side,
 * the cost in ns per operation of our named calls, of our request handle
 * (struct latency_request, caller-allocated like struct pm_qos_request),
 * and of CPU latency QoS:
 *
 *   query     system_latency_constraint()    / cpu_latency_qos_limit()
 *   add+rm    set_ + remove_acceptable_latency() of one more constraint,
 *             latency_request_add() + _remove() (the request named once
 *             by latency_request_init(), as its holder would at probe)
 *             / cpu_latency_qos_add_request() + _remove_request()
 *   mod-same  modify_acceptable_latency() of a constraint that does not set
 *             the system value, above all others (where PM QoS's plist is
 *             quickest), latency_request_update() alike
 *             / cpu_latency_qos_update_request() alike
 *   mod-mid   the same in the middle of the others' values
 *   mod-min   the same, changing the system value each time
 *   wake      a change that must reach idle CPUs and has when the call
 *             returns: set_acceptable_latency() of an existing constraint
 *             between 50 and 150 us, forbidding and allowing a 200 us C3
 *             (the ACPI idle notifier IPIs every CPU and waits, or wakes
 *             them) / cpu_latency_qos_update_request() (which always calls
 *             wake_up_all_idle_cpus() and does not wait)
 *   wake-none the same between 300 and 400 us, which changes nothing for
 *             a CPU whose deepest state has an exit latency of 200 us
 *
 * and prints one line per N and operation, with the ratios named / PM QoS
 * and handle / PM QoS ("-" where a form has no such operation).  Our side
 * holds the request the handle rows change on top of the N named
 * constraints, so it holds N + 1 where PM QoS holds N.  Under QEMU TCG only
 * ratios within one run mean anything.
 *
 * Built in only: cpu_latency_qos_limit() is not exported to modules.
 */

#define pr_fmt(fmt) "latency_benchmark: " fmt

#include <linux/cpumask.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/latency.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pm_qos.h>
#include <linux/slab.h>

#define BENCH_ID_FMT	"bench:%u"
#define BENCH_NONE	U64_MAX		/* an operation a form does not have */

static DEFINE_MUTEX(bench_lock);

/*
 * The wake rows wait for other CPUs; under QEMU's -icount, which runs the
 * vCPUs in turn, that wait is what the row would measure, so the
 * instruction-count run leaves them out.
 */
static bool bench_wake = true;
module_param_named(wake, bench_wake, bool, 0644);
MODULE_PARM_DESC(wake, "include the rows of changes that must reach idle CPUs");

struct bench_side {
	char (*ids)[sizeof("bench:4294967295")];
	struct pm_qos_request *reqs;
	struct latency_request handle;	/* "bench:handle", changed by handle rows */
	unsigned int n;
};

/*
 * Held values: spread over 1000..900999 us.  Holder 0, the one the
 * benchmark changes, holds more than any other, so that moving it above
 * them leaves the system value alone and moving it below 1000 changes it.
 */
static int bench_value(unsigned int i)
{
	return i ? 1000 + (i * 7919) % 900000 : 950000;
}

/*
 * Two copies of one loop on purpose: through a function pointer both
 * queries would become an indirect call, hiding what the inline read saves.
 */
static u64 bench_query_ours(unsigned int loops)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;
	int sum = 0;

	for (i = 0; i < loops; i++) {
		sum += system_latency_constraint();
		barrier();
	}
	OPTIMIZER_HIDE_VAR(sum);
	return ktime_get_ns() - t0;
}

static u64 bench_query_qos(unsigned int loops)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;
	int sum = 0;

	for (i = 0; i < loops; i++) {
		sum += cpu_latency_qos_limit();
		barrier();
	}
	OPTIMIZER_HIDE_VAR(sum);
	return ktime_get_ns() - t0;
}

static u64 bench_addrm_ours(unsigned int loops)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < loops; i++) {
		set_acceptable_latency("bench:extra", 500000);
		remove_acceptable_latency("bench:extra");
	}
	return ktime_get_ns() - t0;
}

static u64 bench_addrm_handle(unsigned int loops)
{
	struct latency_request req = {};
	unsigned int i;
	u64 t0;

	if (latency_request_init(&req, "bench:extra"))
		return BENCH_NONE;
	t0 = ktime_get_ns();
	for (i = 0; i < loops; i++) {
		latency_request_add(&req, 500000);
		latency_request_remove(&req);
	}
	return ktime_get_ns() - t0;
}

static u64 bench_addrm_qos(unsigned int loops)
{
	struct pm_qos_request req = {};
	u64 t0 = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < loops; i++) {
		cpu_latency_qos_add_request(&req, 500000);
		cpu_latency_qos_remove_request(&req);
	}
	return ktime_get_ns() - t0;
}

/* Alternate holder 0 between @a and @b. */
static u64 bench_modify_ours(struct bench_side *s, unsigned int loops,
			     int a, int b)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < loops; i++)
		modify_acceptable_latency(s->ids[0], i & 1 ? a : b);
	t0 = ktime_get_ns() - t0;
	modify_acceptable_latency(s->ids[0], bench_value(0));
	return t0;
}

static u64 bench_modify_handle(struct bench_side *s, unsigned int loops,
			       int a, int b)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < loops; i++)
		latency_request_update(&s->handle, i & 1 ? a : b);
	t0 = ktime_get_ns() - t0;
	latency_request_update(&s->handle, bench_value(0));
	return t0;
}

static u64 bench_modify_qos(struct bench_side *s, unsigned int loops,
			    int a, int b)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < loops; i++)
		cpu_latency_qos_update_request(&s->reqs[0], i & 1 ? a : b);
	t0 = ktime_get_ns() - t0;
	cpu_latency_qos_update_request(&s->reqs[0], bench_value(0));
	return t0;
}

static u64 bench_wake_ours(struct bench_side *s, unsigned int loops,
			   int a, int b)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < loops; i++)
		set_acceptable_latency(s->ids[0], i & 1 ? a : b);
	t0 = ktime_get_ns() - t0;
	set_acceptable_latency(s->ids[0], bench_value(0));
	return t0;
}

static int bench_fill(struct bench_side *s, unsigned int n)
{
	unsigned int i;
	int ret;

	s->ids = kvcalloc(n, sizeof(*s->ids), GFP_KERNEL);
	s->reqs = kvcalloc(n, sizeof(*s->reqs), GFP_KERNEL);
	if (!s->ids || !s->reqs)
		return -ENOMEM;
	ret = latency_request_init(&s->handle, "bench:handle") ?:
	      latency_request_add(&s->handle, bench_value(0));
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		snprintf(s->ids[i], sizeof(s->ids[i]), BENCH_ID_FMT, i);
		ret = set_acceptable_latency(s->ids[i], bench_value(i));
		if (ret)
			return ret;
		cpu_latency_qos_add_request(&s->reqs[i], bench_value(i));
		s->n = i + 1;
	}
	return 0;
}

static void bench_empty(struct bench_side *s)
{
	unsigned int i;

	for (i = 0; i < s->n; i++) {
		remove_acceptable_latency(s->ids[i]);
		cpu_latency_qos_remove_request(&s->reqs[i]);
	}
	if (latency_request_active(&s->handle))
		latency_request_remove(&s->handle);
	kvfree(s->ids);
	kvfree(s->reqs);
	s->ids = NULL;
	s->reqs = NULL;
	s->n = 0;
}

/* "ns" of one figure, or "-" for an operation a form does not have. */
static void bench_ns(char *buf, size_t size, u64 total, unsigned int loops)
{
	if (total == BENCH_NONE)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%llu", div_u64(total, loops));
}

static void bench_ratio(char *buf, size_t size, u64 ours, u64 qos)
{
	u64 whole;
	u32 frac;

	if (ours == BENCH_NONE || !qos) {
		snprintf(buf, size, "-");
		return;
	}
	/* No 64-bit '%': a 32-bit kernel has no __umoddi3. */
	whole = div_u64_rem(div64_u64(ours * 100, qos), 100, &frac);
	snprintf(buf, size, "%llu.%02u", whole, frac);
}

static void bench_line(unsigned int n, const char *op, u64 named, u64 handle,
		       u64 qos, unsigned int loops)
{
	char nn[24], hn[24], qn[24], nr[24], hr[24];

	bench_ns(nn, sizeof(nn), named, loops);
	bench_ns(hn, sizeof(hn), handle, loops);
	bench_ns(qn, sizeof(qn), qos, loops);
	bench_ratio(nr, sizeof(nr), named, qos);
	bench_ratio(hr, sizeof(hr), handle, qos);
	pr_info("%6u %-9s %9s %9s %9s %11s %12s\n", n, op, nn, hn, qn, nr, hr);
}

/*
 * Each figure is the best of BENCH_RUNS runs: under QEMU TCG a run can be
 * stretched by a vCPU thread the host did not schedule, never shortened.
 * The runs of the three forms alternate, so that a slow spell of the host
 * falls on all of them alike.
 */
#define BENCH_RUNS	7
#define BENCH_ROW(n, op, loops, named, handle, qos) do {		\
	u64 __n = U64_MAX, __h = U64_MAX, __q = U64_MAX;		\
	int __r;							\
	for (__r = 0; __r < BENCH_RUNS; __r++) {			\
		__n = min_t(u64, __n, (named));				\
		__h = min_t(u64, __h, (handle));			\
		__q = min_t(u64, __q, (qos));				\
	}								\
	bench_line((n), (op), __n, __h, __q, (loops));			\
} while (0)

static int bench_run(void)
{
	static const unsigned int sizes[] = { 1, 10, 100, 1000, 10000 };
	const unsigned int qloops = 100000, uloops = 1000, wloops = 100;
	struct pm_qos_request kernel_req = {};
	struct bench_side s = {};
	unsigned int k;
	int ret = 0;

	/* PM QoS has no built-in "kernel" constraint: give it one alike. */
	if (system_latency_constraint() < INFINITE_LATENCY)
		cpu_latency_qos_add_request(&kernel_req,
					    system_latency_constraint());

	pr_info("cpus %u, constraints held by each side: N\n", num_online_cpus());
	pr_info("%6s %-9s %9s %9s %9s %11s %12s\n", "N", "operation",
		"named ns", "handle ns", "pmqos ns", "named/pmqos", "handle/pmqos");
	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		unsigned int n = sizes[k];

		ret = bench_fill(&s, n);
		if (ret)
			break;
		BENCH_ROW(n, "query", qloops, bench_query_ours(qloops),
			  BENCH_NONE, bench_query_qos(qloops));
		BENCH_ROW(n, "add+rm", uloops, bench_addrm_ours(uloops),
			  bench_addrm_handle(uloops), bench_addrm_qos(uloops));
		/* Holder 0 stays above every other holder... */
		BENCH_ROW(n, "mod-same", uloops,
			  bench_modify_ours(&s, uloops, 950001, 950002),
			  bench_modify_handle(&s, uloops, 950001, 950002),
			  bench_modify_qos(&s, uloops, 950001, 950002));
		/*
		 * ...in the middle of the others: where PM QoS's plist, which
		 * is quick at both ends, must walk its distinct values...
		 */
		BENCH_ROW(n, "mod-mid", uloops,
			  bench_modify_ours(&s, uloops, 450001, 450002),
			  bench_modify_handle(&s, uloops, 450001, 450002),
			  bench_modify_qos(&s, uloops, 450001, 450002));
		/* ...or below everything, so the system value changes. */
		BENCH_ROW(n, "mod-min", uloops,
			  bench_modify_ours(&s, uloops, 500, 600),
			  bench_modify_handle(&s, uloops, 500, 600),
			  bench_modify_qos(&s, uloops, 500, 600));
		synchronize_acceptable_latency();
		if (bench_wake) {
			/* Between 50 and 150 us, C3 (200 us) is forbidden. */
			BENCH_ROW(n, "wake", wloops,
				  bench_wake_ours(&s, wloops, 50, 150),
				  BENCH_NONE,
				  bench_modify_qos(&s, wloops, 50, 150));
			/* Between 300 and 400 us, no state of the guest changes. */
			BENCH_ROW(n, "wake-none", wloops,
				  bench_wake_ours(&s, wloops, 300, 400),
				  BENCH_NONE,
				  bench_modify_qos(&s, wloops, 300, 400));
		}
		bench_empty(&s);
	}
	bench_empty(&s);
	if (cpu_latency_qos_request_active(&kernel_req))
		cpu_latency_qos_remove_request(&kernel_req);
	synchronize_acceptable_latency();
	pr_info("done\n");
	return ret;
}

static int bench_run_set(const char *val, const struct kernel_param *kp)
{
	int ret;

	if (!sysfs_streq(val, "1"))
		return -EINVAL;
	mutex_lock(&bench_lock);
	ret = bench_run();
	mutex_unlock(&bench_lock);
	return ret;
}

static const struct kernel_param_ops bench_run_ops = {
	.set = bench_run_set,
};
module_param_cb(run, &bench_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "write 1 to run the benchmark");
