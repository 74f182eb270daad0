// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark of the latency-constraint registry against the CPU latency QoS
 * of 6.12.
 *
 * "echo 1 > /sys/module/latency_benchmark/parameters/run" measures, with
 * N = 1, 10, 100, 1000 and 10000 constraints already held by each form,
 * the cost in ns per operation of our named calls, of our request handle
 * (struct latency_request), of the CPU latency QoS calls, which run on the
 * registry, and of the 6.12 code they replace: 6.12's cpu_latency_qos_*()
 * calls copied line for line, on a struct pm_qos_constraints of the
 * benchmark's own through pm_qos_update_target() (which stays in the tree
 * for the other PM QoS classes), with wake_up_all_idle_cpus() when the
 * target changes:
 *
 *   query     system_latency_constraint()    / cpu_latency_qos_limit()
 *   add+rm    set_ + remove_acceptable_latency() of one more constraint,
 *             latency_request_add() + _remove() (the request named once
 *             by latency_request_init(), as its holder would at probe)
 *             / cpu_latency_qos_add_request() + _remove_request()
 *             / the 6.12 add and remove
 *   mod-same  modify_acceptable_latency() of a constraint that does not set
 *             the system value, above all others (where PM QoS's plist is
 *             quickest), latency_request_update() alike
 *             / cpu_latency_qos_update_request() alike
 *   mod-mid   the same in the middle of the others' values
 *   mod-min   the same, changing the system value each time
 *   wake      a change that must reach idle CPUs and has when the call
 *             returns: set_acceptable_latency() of an existing constraint
 *             between 150 and 250 us, forbidding and allowing a 200 us C3
 *             (the CPUs in C3 are interrupted and waited for, those in C2
 *             woken so that they may go deeper) /
 *             cpu_latency_qos_update_request() (the same without waiting)
 *             / 6.12 (wake_up_all_idle_cpus(): every idle CPU, no wait)
 *   wake-none the same between 300 and 400 us, which changes nothing for
 *             a CPU whose deepest state has an exit latency of 200 us
 *
 * and, for the constraints for some CPUs (N more named ones for CPU 0 and
 * a handle for it), where 6.12 has nothing to compare with:
 *
 *   cpu-query cpu_latency_constraint(cpu), which a governor reads through
 *             cpuidle_governor_latency_req() / this CPU's value as the
 *             idle path reads it (latency_idle_enter()) /
 *             cpu_latency_qos_cpu_limit() / 6.12's pm_qos_read_value(),
 *             as in the query row
 *   cpu-same  modify_acceptable_latency() of a constraint for CPU 0 above
 *             the N others for it, latency_request_update() alike
 *   cpu-min   the same below all of them, changing CPU 0's limit each time
 *             (and deciding whether to wake CPU 0)
 *
 * and prints one line per N and operation, with the ratios named / 6.12
 * and pmqos / 6.12 ("-" where a form has no such operation).  For the two
 * wake rows it then counts the CPUs each change interrupts ("ipis" lines):
 * for the registry, those its latency_idle_wake trace event reports; for
 * 6.12, the other CPUs idle when wake_up_all_idle_cpus() is called, which
 * is whom it interrupts.  The registry
 * holds the N named constraints, the N PM QoS requests and the request the
 * handle rows change, 2N + 1 in all, where the 6.12 list holds N: every
 * registry figure is taken at more than twice the 6.12 one's N.  Under QEMU
 * TCG only ratios within one run mean anything.
 *
 * Then, unless latency_benchmark.rows=table, the CPU-count axis: see
 * bench_axis() below.
 *
 * Built in only: pm_qos_update_target() is not exported to modules.
 */

#define pr_fmt(fmt) "latency_benchmark: " fmt

#include <linux/cpumask.h>
#include <linux/hw_breakpoint.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/latency.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pm_qos.h>
#include <linux/sched.h>
#include <linux/timex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <asm/sections.h>
#include <trace/events/latency.h>
#include <trace/events/power.h>

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

/* The CPU latency QoS of 6.12, as kernel/power/qos.c had it. */
static struct pm_qos_constraints bench_old = {
	.list = PLIST_HEAD_INIT(bench_old.list),
	.target_value = PM_QOS_CPU_LATENCY_DEFAULT_VALUE,
	.default_value = PM_QOS_CPU_LATENCY_DEFAULT_VALUE,
	.no_constraint_value = PM_QOS_CPU_LATENCY_DEFAULT_VALUE,
	.type = PM_QOS_MIN,
};

/* CPUs interrupted while the "ipis" lines count, and whether they do. */
static atomic_t bench_ipis = ATOMIC_INIT(0);
static bool bench_counting;

/* The other online CPUs that are idle, whom wake_up_all_idle_cpus() wakes. */
static unsigned int bench_idle_others(void)
{
	unsigned int n = 0;
	int cpu, this = get_cpu();

	for_each_online_cpu(cpu)
		n += cpu != this && idle_cpu(cpu);
	put_cpu();
	return n;
}

/* 6.12's cpu_latency_qos_apply(). */
static void bench_old_apply(struct plist_node *node,
			    enum pm_qos_req_action action, s32 value)
{
	if (pm_qos_update_target(&bench_old, node, action, value) > 0) {
		if (bench_counting)
			atomic_add(bench_idle_others(), &bench_ipis);
		wake_up_all_idle_cpus();
	}
}

/* Probe on latency_idle_wake: the CPUs the registry interrupted. */
static void bench_count_wake(void *data, int old, int new, unsigned int deep,
			     unsigned int shallow, bool wait)
{
	if (bench_counting)
		atomic_add(deep + shallow, &bench_ipis);
}

/* A request of the 6.12 CPU latency QoS: its struct pm_qos_request. */
struct bench_old_request {
	struct plist_node node;
	struct pm_qos_constraints *qos;
};

/*
 * 6.12's cpu_latency_qos_add_request(), _update_request() and
 * _remove_request(), line for line but on bench_old: what a CPU latency QoS
 * call cost before the series, checks, trace points and memset included.
 */
static noinline void bench_old_add(struct bench_old_request *req, s32 value)
{
	if (!req || (value < 0 && value != PM_QOS_DEFAULT_VALUE))
		return;
	if (req->qos == &bench_old) {
		WARN(1, "%s called for already added request\n", __func__);
		return;
	}
	trace_pm_qos_add_request(value);
	req->qos = &bench_old;
	bench_old_apply(&req->node, PM_QOS_ADD_REQ, value);
}

static noinline void bench_old_update(struct bench_old_request *req,
				      s32 new_value)
{
	if (!req || (new_value < 0 && new_value != PM_QOS_DEFAULT_VALUE))
		return;
	if (req->qos != &bench_old) {
		WARN(1, "%s called for unknown object\n", __func__);
		return;
	}
	trace_pm_qos_update_request(new_value);
	if (new_value == req->node.prio)
		return;
	bench_old_apply(&req->node, PM_QOS_UPDATE_REQ, new_value);
}

static noinline void bench_old_remove(struct bench_old_request *req)
{
	if (!req)
		return;
	if (req->qos != &bench_old) {
		WARN(1, "%s called for unknown object\n", __func__);
		return;
	}
	trace_pm_qos_remove_request(PM_QOS_DEFAULT_VALUE);
	bench_old_apply(&req->node, PM_QOS_REMOVE_REQ, PM_QOS_DEFAULT_VALUE);
	memset(req, 0, sizeof(*req));
}

struct bench_side {
	char (*ids)[sizeof("bench:4294967295")];
	struct pm_qos_request *reqs;
	struct bench_old_request *olds;	/* in bench_old */
	struct latency_request handle;	/* "bench:handle", changed by handle rows */
	char (*cpu_ids)[sizeof("bench:cpu:4294967295")];	/* for CPU 0 */
	struct latency_request cpu_handle;	/* "bench:cpu", for CPU 0 */
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

static u64 bench_query_old(unsigned int loops)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;
	int sum = 0;

	for (i = 0; i < loops; i++) {
		sum += pm_qos_read_value(&bench_old);
		barrier();
	}
	OPTIMIZER_HIDE_VAR(sum);
	return ktime_get_ns() - t0;
}

/* The reads of one CPU's limit: see "cpu-query" above. */
static u64 bench_cpu_query_ours(unsigned int loops)
{
	unsigned int i, cpu = raw_smp_processor_id();
	u64 t0 = ktime_get_ns();
	int sum = 0;

	for (i = 0; i < loops; i++) {
		sum += cpu_latency_constraint(cpu);
		barrier();
	}
	OPTIMIZER_HIDE_VAR(sum);
	return ktime_get_ns() - t0;
}

static u64 bench_cpu_query_idle(unsigned int loops)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;
	int sum = 0;

	preempt_disable();
	for (i = 0; i < loops; i++) {
		sum += latency_limit(&latency_system,
				     this_cpu_ptr(&latency_cpu));
		barrier();
	}
	preempt_enable();
	OPTIMIZER_HIDE_VAR(sum);
	return ktime_get_ns() - t0;
}

static u64 bench_cpu_query_qos(unsigned int loops)
{
	unsigned int i, cpu = raw_smp_processor_id();
	u64 t0 = ktime_get_ns();
	int sum = 0;

	for (i = 0; i < loops; i++) {
		sum += cpu_latency_qos_cpu_limit(cpu);
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

static u64 bench_addrm_old(unsigned int loops)
{
	struct bench_old_request req = {};
	u64 t0 = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < loops; i++) {
		bench_old_add(&req, 500000);
		bench_old_remove(&req);
	}
	return ktime_get_ns() - t0;
}

/*
 * Alternate holder 0 between @a and @b: the named one @id (s->ids[0], or
 * s->cpu_ids[0] for CPU 0), or the handle @req (&s->handle, or
 * &s->cpu_handle).
 */
static u64 bench_modify_ours(const char *id, unsigned int loops, int a, int b)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < loops; i++)
		modify_acceptable_latency(id, i & 1 ? a : b);
	t0 = ktime_get_ns() - t0;
	modify_acceptable_latency(id, bench_value(0));
	return t0;
}

static u64 bench_modify_handle(struct latency_request *req,
			       unsigned int loops, int a, int b)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < loops; i++)
		latency_request_update(req, i & 1 ? a : b);
	t0 = ktime_get_ns() - t0;
	latency_request_update(req, bench_value(0));
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

static u64 bench_modify_old(struct bench_side *s, unsigned int loops,
			    int a, int b)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < loops; i++)
		bench_old_update(&s->olds[0], i & 1 ? a : b);
	t0 = ktime_get_ns() - t0;
	bench_old_update(&s->olds[0], bench_value(0));
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

/* Interrupted CPUs per change, as "whole.hundredths". */
static void bench_per_change(char *buf, size_t size, unsigned int ipis,
			     unsigned int changes)
{
	unsigned int c = ipis * 100 / changes;

	snprintf(buf, size, "%u.%02u", c / 100, c % 100);
}

/*
 * Count the CPUs interrupted by the @loops changes of holder 0 between @a
 * and @b of the wake rows, and the one that puts it back, in each form
 * that wakes (the handle form's update does as pmqos's).
 */
static void bench_ipi_line(struct bench_side *s, unsigned int n,
			   const char *op, unsigned int loops, int a, int b)
{
	char nb[16], qb[16], ob[16];

	bench_counting = true;
	atomic_set(&bench_ipis, 0);
	bench_wake_ours(s, loops, a, b);
	bench_per_change(nb, sizeof(nb), atomic_xchg(&bench_ipis, 0),
			 loops + 1);
	bench_modify_qos(s, loops, a, b);
	bench_per_change(qb, sizeof(qb), atomic_xchg(&bench_ipis, 0),
			 loops + 1);
	bench_modify_old(s, loops, a, b);
	bench_per_change(ob, sizeof(ob), atomic_xchg(&bench_ipis, 0),
			 loops + 1);
	bench_counting = false;
	pr_info("ipis %6u %-9s named %s pmqos %s 6.12 %s (CPUs interrupted per change)\n",
		n, op, nb, qb, ob);
}

static int bench_fill(struct bench_side *s, unsigned int n)
{
	unsigned int i;
	int ret;

	s->ids = kvcalloc(n, sizeof(*s->ids), GFP_KERNEL);
	s->cpu_ids = kvcalloc(n, sizeof(*s->cpu_ids), GFP_KERNEL);
	s->reqs = kvcalloc(n, sizeof(*s->reqs), GFP_KERNEL);
	s->olds = kvcalloc(n, sizeof(*s->olds), GFP_KERNEL);
	if (!s->ids || !s->cpu_ids || !s->reqs || !s->olds)
		return -ENOMEM;
	ret = latency_request_init(&s->handle, "bench:handle") ?:
	      latency_request_add(&s->handle, bench_value(0)) ?:
	      latency_request_init(&s->cpu_handle, "bench:cpu") ?:
	      latency_request_add_cpus(&s->cpu_handle, bench_value(0),
				       cpumask_of(0));
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		snprintf(s->ids[i], sizeof(s->ids[i]), BENCH_ID_FMT, i);
		snprintf(s->cpu_ids[i], sizeof(s->cpu_ids[i]), "bench:cpu:%u", i);
		ret = set_acceptable_latency(s->ids[i], bench_value(i)) ?:
		      set_acceptable_latency_cpus(s->cpu_ids[i], bench_value(i),
						  cpumask_of(0));
		if (ret)
			return ret;
		cpu_latency_qos_add_request(&s->reqs[i], bench_value(i));
		bench_old_add(&s->olds[i], bench_value(i));
		s->n = i + 1;
	}
	return 0;
}

static void bench_empty(struct bench_side *s)
{
	unsigned int i;

	for (i = 0; i < s->n; i++) {
		remove_acceptable_latency(s->ids[i]);
		remove_acceptable_latency(s->cpu_ids[i]);
		cpu_latency_qos_remove_request(&s->reqs[i]);
		bench_old_remove(&s->olds[i]);
	}
	if (latency_request_active(&s->handle))
		latency_request_remove(&s->handle);
	if (latency_request_active(&s->cpu_handle))
		latency_request_remove(&s->cpu_handle);
	kvfree(s->ids);
	kvfree(s->cpu_ids);
	s->cpu_ids = NULL;
	kvfree(s->reqs);
	kvfree(s->olds);
	s->ids = NULL;
	s->reqs = NULL;
	s->olds = NULL;
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

	if (ours == BENCH_NONE || qos == BENCH_NONE || !qos) {
		snprintf(buf, size, "-");
		return;
	}
	/* No 64-bit '%': a 32-bit kernel has no __umoddi3. */
	whole = div_u64_rem(div64_u64(ours * 100, qos), 100, &frac);
	snprintf(buf, size, "%llu.%02u", whole, frac);
}

static void bench_line(unsigned int n, const char *op, u64 named, u64 handle,
		       u64 qos, u64 old, unsigned int loops)
{
	char nn[24], hn[24], qn[24], on[24], nr[24], qr[24];

	bench_ns(nn, sizeof(nn), named, loops);
	bench_ns(hn, sizeof(hn), handle, loops);
	bench_ns(qn, sizeof(qn), qos, loops);
	bench_ns(on, sizeof(on), old, loops);
	bench_ratio(nr, sizeof(nr), named, old);
	bench_ratio(qr, sizeof(qr), qos, old);
	pr_info("%6u %-9s %9s %9s %9s %9s %10s %10s\n", n, op, nn, hn, qn, on,
		nr, qr);
}

/*
 * Each figure is the best of BENCH_RUNS runs: under QEMU TCG a run can be
 * stretched by a vCPU thread the host did not schedule, never shortened.
 * The runs of the four forms alternate, so that a slow spell of the host
 * falls on all of them alike.
 */
#define BENCH_RUNS	7
#define BENCH_ROW(n, op, loops, named, handle, qos, old) do {		\
	u64 __n = U64_MAX, __h = U64_MAX, __q = U64_MAX, __o = U64_MAX;	\
	int __r;							\
	for (__r = 0; __r < BENCH_RUNS; __r++) {			\
		__n = min_t(u64, __n, (named));				\
		__h = min_t(u64, __h, (handle));			\
		__q = min_t(u64, __q, (qos));				\
		__o = min_t(u64, __o, (old));				\
	}								\
	bench_line((n), (op), __n, __h, __q, __o, (loops));		\
} while (0)

/* The table: every operation with N = 1 to 10000 holders of each form. */
static int bench_table(void)
{
	static const unsigned int sizes[] = { 1, 10, 100, 1000, 10000 };
	const unsigned int qloops = 100000, uloops = 1000, wloops = 100;
	struct bench_side s = {};
	unsigned int k;
	int ret = 0;

	ret = register_trace_latency_idle_wake(bench_count_wake, NULL);
	if (ret)
		return ret;
	pr_info("cpus %u, constraints held by each form: N\n", num_online_cpus());
	pr_info("%6s %-9s %9s %9s %9s %9s %10s %10s\n", "N", "operation",
		"named ns", "handle ns", "pmqos ns", "6.12 ns", "named/6.12",
		"pmqos/6.12");
	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		unsigned int n = sizes[k];

		ret = bench_fill(&s, n);
		if (ret)
			break;
		BENCH_ROW(n, "query", qloops, bench_query_ours(qloops),
			  BENCH_NONE, bench_query_qos(qloops),
			  bench_query_old(qloops));
		BENCH_ROW(n, "add+rm", uloops, bench_addrm_ours(uloops),
			  bench_addrm_handle(uloops), bench_addrm_qos(uloops),
			  bench_addrm_old(uloops));
		/* Holder 0 stays above every other holder... */
		BENCH_ROW(n, "mod-same", uloops,
			  bench_modify_ours(s.ids[0], uloops, 950001, 950002),
			  bench_modify_handle(&s.handle, uloops, 950001, 950002),
			  bench_modify_qos(&s, uloops, 950001, 950002),
			  bench_modify_old(&s, uloops, 950001, 950002));
		/*
		 * ...in the middle of the others: where PM QoS's plist, which
		 * is quick at both ends, must walk its distinct values...
		 */
		BENCH_ROW(n, "mod-mid", uloops,
			  bench_modify_ours(s.ids[0], uloops, 450001, 450002),
			  bench_modify_handle(&s.handle, uloops, 450001, 450002),
			  bench_modify_qos(&s, uloops, 450001, 450002),
			  bench_modify_old(&s, uloops, 450001, 450002));
		/* ...or below everything, so the system value changes. */
		BENCH_ROW(n, "mod-min", uloops,
			  bench_modify_ours(s.ids[0], uloops, 500, 600),
			  bench_modify_handle(&s.handle, uloops, 500, 600),
			  bench_modify_qos(&s, uloops, 500, 600),
			  bench_modify_old(&s, uloops, 500, 600));
		BENCH_ROW(n, "cpu-query", qloops, bench_cpu_query_ours(qloops),
			  bench_cpu_query_idle(qloops),
			  bench_cpu_query_qos(qloops), bench_query_old(qloops));
		BENCH_ROW(n, "cpu-same", uloops,
			  bench_modify_ours(s.cpu_ids[0], uloops, 950001, 950002),
			  bench_modify_handle(&s.cpu_handle, uloops, 950001, 950002),
			  BENCH_NONE, BENCH_NONE);
		BENCH_ROW(n, "cpu-min", uloops,
			  bench_modify_ours(s.cpu_ids[0], uloops, 500, 600),
			  bench_modify_handle(&s.cpu_handle, uloops, 500, 600),
			  BENCH_NONE, BENCH_NONE);
		synchronize_acceptable_latency();
		if (bench_wake) {
			/* 150 us forbids C3 (200 us), 250 us allows it. */
			BENCH_ROW(n, "wake", wloops,
				  bench_wake_ours(&s, wloops, 150, 250),
				  BENCH_NONE,
				  bench_modify_qos(&s, wloops, 150, 250),
				  bench_modify_old(&s, wloops, 150, 250));
			/* Between 300 and 400 us, no state of the guest changes. */
			BENCH_ROW(n, "wake-none", wloops,
				  bench_wake_ours(&s, wloops, 300, 400),
				  BENCH_NONE,
				  bench_modify_qos(&s, wloops, 300, 400),
				  bench_modify_old(&s, wloops, 300, 400));
			bench_ipi_line(&s, n, "wake", wloops, 150, 250);
			bench_ipi_line(&s, n, "wake-none", wloops, 300, 400);
		}
		bench_empty(&s);
	}
	bench_empty(&s);
	unregister_trace_latency_idle_wake(bench_count_wake, NULL);
	tracepoint_synchronize_unregister();
	return ret;
}

/*
 * The CPU-count axis ("axis" lines), which latency_benchmark.rows=axis runs
 * alone, so that a guest of many vCPUs under TCG runs nothing else: with
 * BENCH_AXIS_N holders of each form, the cost of one call of
 *
 *   sys-update  latency_request_update() of a request for all CPUs that
 *               changes the system value (500 <-> 600 us)
 *   sys-modify  modify_acceptable_latency() alike
 *   sys-set     set_acceptable_latency() alike, which checks every online
 *               CPU before it returns (none is too deep for 500 us)
 *   qos-update  cpu_latency_qos_update_request() alike
 *   qos-same    the same above every other holder: no limit changes
 *   qos-add+rm  cpu_latency_qos_add_request() + _remove_request()
 *   cpu-update  latency_request_update() of a request for CPU 0 alone that
 *               changes CPU 0's limit
 *   cpu-set     set_acceptable_latency_cpus() alike
 *   cpus-set    set_acceptable_latency_cpus() of a constraint for every
 *               possible CPU, below the others: a CPU-set change of k =
 *               possible CPUs, O(k log n) with the registry lock held
 *   irq-update  sys-update called with interrupts off: how long the caller
 *               keeps them off (the wake-up loop is deferred there)
 *   irq-wake    irq-update, then until the deferred wake-up has visited
 *               every CPU (its latency_idle_wake event): the bound on how
 *               late an asynchronous change made with interrupts off
 *               reaches a CPU too deep, on an otherwise idle machine
 *
 * against the 6.12 call where 6.12 has one (its update of a request, which
 * wakes every idle CPU when the target changes, for the sys- rows), each
 * called through a pointer, less an empty call through the same pointer;
 * and the longest interrupts-off section of one call: from the write that
 * takes the registry's raw lock (6.12: pm_qos_lock) to the write that
 * releases it, seen by a hardware write watchpoint on the lock word, less
 * the same for an empty lock and unlock (the trap's own cost).  The
 * sections of the runqueue locks that wake_up_if_idle() takes for each
 * CPU it wakes are not counted: one CPU's each.  pm_qos_lock is static:
 * latency_benchmark.qos_lock gives its address less that of
 * latency_system (System.map); without it, its column is "-".
 *
 * By default each figure is the best of BENCH_RUNS loops of calls;
 * latency_benchmark.percall=1 times each call alone and takes, for the
 * calls to each of the two values, the fewest (for QEMU -icount, where
 * the clock counts instructions and the vCPUs run in turn, so that a loop
 * would also count what the other vCPUs ran meanwhile), and only then
 * measures the sections, call by call, the fewest for each value, the
 * larger of the two: with interrupts off, only another vCPU run in
 * between can stretch one.  Timed under TCG, the watchpoint's trap costs
 * tens of microseconds, whose noise is all a section would show.
 */
#define BENCH_AXIS_N	10

static char *bench_rows = "all";
module_param_named(rows, bench_rows, charp, 0644);
MODULE_PARM_DESC(rows, "what to run: table, axis (the CPU-count axis) or all");

static bool bench_percall;
module_param_named(percall, bench_percall, bool, 0644);
MODULE_PARM_DESC(percall, "time each call of the axis alone (QEMU -icount)");

static long bench_qos_lock;
module_param_named(qos_lock, bench_qos_lock, long, 0444);
MODULE_PARM_DESC(qos_lock, "address of pm_qos_lock less that of latency_system");

typedef void (*bench_op_t)(struct bench_side *s, int usecs);

/*
 * The axis's clock: ns; with percall, the CPU's cycle counter, which QEMU
 * -icount shift=0 advances by one per instruction (its HPET, the guest's
 * clocksource, ticks every 10 instructions).
 */
static u64 bench_clock(void)
{
	return bench_percall ? get_cycles() : ktime_get_mono_fast_ns();
}

static struct pm_qos_request bench_extra_req;
static struct bench_old_request bench_extra_old;

static void bench_op_none(struct bench_side *s, int usecs)
{
}

static void bench_op_sys_update(struct bench_side *s, int usecs)
{
	latency_request_update(&s->handle, usecs);
}

static void bench_op_sys_modify(struct bench_side *s, int usecs)
{
	modify_acceptable_latency(s->ids[0], usecs);
}

static void bench_op_sys_set(struct bench_side *s, int usecs)
{
	set_acceptable_latency(s->ids[0], usecs);
}

static void bench_op_qos_update(struct bench_side *s, int usecs)
{
	cpu_latency_qos_update_request(&s->reqs[0], usecs);
}

static void bench_op_qos_addrm(struct bench_side *s, int usecs)
{
	cpu_latency_qos_add_request(&bench_extra_req, usecs);
	cpu_latency_qos_remove_request(&bench_extra_req);
}

static void bench_op_cpu_update(struct bench_side *s, int usecs)
{
	latency_request_update(&s->cpu_handle, usecs);
}

static void bench_op_cpu_set(struct bench_side *s, int usecs)
{
	set_acceptable_latency_cpus(s->cpu_ids[0], usecs, cpumask_of(0));
}

static void bench_op_cpus_set(struct bench_side *s, int usecs)
{
	set_acceptable_latency_cpus("bench:all-cpus", usecs, cpu_possible_mask);
}

static void bench_op_irq_update(struct bench_side *s, int usecs)
{
	unsigned long flags;

	local_irq_save(flags);
	latency_request_update(&s->handle, usecs);
	local_irq_restore(flags);
}

static atomic_t bench_deferred;

/* Probe on latency_idle_wake: a wake-up that ran with interrupts on. */
static void bench_deferred_wake(void *data, int old, int new,
				unsigned int deep, unsigned int shallow,
				bool wait)
{
	if (!wait && !irqs_disabled())
		atomic_inc(&bench_deferred);
}

static void bench_op_irq_wake(struct bench_side *s, int usecs)
{
	int n = atomic_read(&bench_deferred);
	u64 end = ktime_get_mono_fast_ns() + 100 * NSEC_PER_MSEC;

	bench_op_irq_update(s, usecs);
	while (atomic_read(&bench_deferred) == n &&
	       ktime_get_mono_fast_ns() < end)
		cond_resched();
}

static void bench_op_old_update(struct bench_side *s, int usecs)
{
	bench_old_update(&s->olds[0], usecs);
}

static void bench_op_old_addrm(struct bench_side *s, int usecs)
{
	bench_old_add(&bench_extra_old, usecs);
	bench_old_remove(&bench_extra_old);
}

static const struct bench_axis_row {
	const char *name;
	bench_op_t ours, old;	/* old NULL: 6.12 has no such call */
	int a, b;
} bench_axis_rows[] = {
	{ "sys-update", bench_op_sys_update, bench_op_old_update, 500, 600 },
	{ "sys-modify", bench_op_sys_modify, bench_op_old_update, 500, 600 },
	{ "sys-set", bench_op_sys_set, bench_op_old_update, 500, 600 },
	{ "qos-update", bench_op_qos_update, bench_op_old_update, 500, 600 },
	{ "qos-same", bench_op_qos_update, bench_op_old_update, 950001, 950002 },
	{ "qos-add+rm", bench_op_qos_addrm, bench_op_old_addrm, 500000, 500000 },
	{ "cpu-update", bench_op_cpu_update, NULL, 500, 600 },
	{ "cpu-set", bench_op_cpu_set, NULL, 500, 600 },
	{ "cpus-set", bench_op_cpus_set, NULL, 500, 600 },
	{ "irq-update", bench_op_irq_update, NULL, 500, 600 },
	{ "irq-wake", bench_op_irq_wake, NULL, 500, 600 },
};

/*
 * A lock watched for the length of its sections: when it was taken, and
 * the longest section since ->max was last cleared.  One holder at a time
 * by definition, so one record serves every CPU.
 */
struct bench_watch {
	raw_spinlock_t *lock;
	struct perf_event * __percpu *bp;
	u64 t0;
	u64 max;
	u64 empty;	/* an empty lock and unlock */
};

static struct bench_watch bench_watch_registry, bench_watch_qos;

/* After each write to the lock word: taken or released. */
static void bench_watch_hit(struct perf_event *bp,
			    struct perf_sample_data *data,
			    struct pt_regs *regs)
{
	struct bench_watch *w = bp->overflow_handler_context;
	u64 now = bench_clock();

	if (raw_spin_is_locked(w->lock)) {
		w->t0 = now;
	} else if (w->t0) {
		WRITE_ONCE(w->max, max(w->max, now - w->t0));
		w->t0 = 0;
	}
}

static void bench_watch_stop(struct bench_watch *w)
{
	if (w->bp)
		unregister_wide_hw_breakpoint(w->bp);
	w->bp = NULL;
}

/* Watch @w's lock on every CPU and measure an empty section of it. */
static int bench_watch_start(struct bench_watch *w)
{
	struct perf_event * __percpu *bp;
	struct perf_event_attr attr;
	unsigned long flags;
	unsigned int i;

	if (!w->lock)
		return -ENOENT;
	hw_breakpoint_init(&attr);
	attr.bp_addr = (unsigned long)w->lock;
	attr.bp_len = HW_BREAKPOINT_LEN_4;
	attr.bp_type = HW_BREAKPOINT_W;
	bp = register_wide_hw_breakpoint(&attr, bench_watch_hit, w);
	if (IS_ERR_OR_NULL(bp))
		return bp ? PTR_ERR(bp) : -ENODEV;
	w->bp = bp;
	w->t0 = 0;
	w->empty = U64_MAX;
	for (i = 0; i < 100; i++) {
		WRITE_ONCE(w->max, 0);
		raw_spin_lock_irqsave(w->lock, flags);
		raw_spin_unlock_irqrestore(w->lock, flags);
		w->empty = min(w->empty, READ_ONCE(w->max));
	}
	if (!w->empty) {	/* the watchpoint never fired */
		bench_watch_stop(w);
		return -ENODEV;
	}
	return 0;
}

/*
 * The longest section of @w in one call of @op, @loops calls alternating
 * between @a and @b: the fewest for each value, the larger of the two,
 * less an empty section.  BENCH_NONE without @op or a watchpoint.
 */
static noinline u64 bench_axis_irqoff(struct bench_watch *w, bench_op_t op,
				      struct bench_side *s,
				      unsigned int loops, int a, int b)
{
	u64 best[2] = { U64_MAX, U64_MAX }, worst;
	unsigned int i;

	if (!op || !w->bp)
		return BENCH_NONE;
	for (i = 0; i < loops; i++) {
		WRITE_ONCE(w->max, 0);
		op(s, i & 1 ? a : b);
		best[i & 1] = min(best[i & 1], READ_ONCE(w->max));
	}
	worst = max(best[0], best[1]);
	return worst > w->empty ? worst - w->empty : 0;
}

/* @loops calls of @op: their total, or the fewest for each value summed. */
static noinline u64 bench_axis_time(bench_op_t op, struct bench_side *s,
				    unsigned int loops, int a, int b)
{
	u64 best[2] = { U64_MAX, U64_MAX }, t0;
	unsigned int i;

	OPTIMIZER_HIDE_VAR(op);
	if (!bench_percall) {
		t0 = bench_clock();
		for (i = 0; i < loops; i++)
			op(s, i & 1 ? a : b);
		return bench_clock() - t0;
	}
	for (i = 0; i < loops; i++) {
		t0 = bench_clock();
		op(s, i & 1 ? a : b);
		t0 = bench_clock() - t0;
		best[i & 1] = min(best[i & 1], t0);
	}
	return best[0] + best[1];
}

/* ns (instructions under -icount) per call of a row less an empty call. */
static u64 bench_axis_per_call(u64 total, u64 empty, unsigned int loops)
{
	if (total == BENCH_NONE)
		return BENCH_NONE;
	total = total > empty ? total - empty : 0;
	return div_u64(total, bench_percall ? 2 : loops);
}

static int bench_axis(void)
{
	const unsigned int loops = bench_percall ? 100 : 200, iloops = 20;
	u64 ours[ARRAY_SIZE(bench_axis_rows)], old[ARRAY_SIZE(bench_axis_rows)];
	unsigned int cpus = num_online_cpus(), k, r;
	struct bench_side s = {};
	int ret, qret;

	ret = bench_fill(&s, BENCH_AXIS_N);
	if (ret)
		goto out;
	ret = register_trace_latency_idle_wake(bench_deferred_wake, NULL);
	if (ret)
		goto out;
	synchronize_acceptable_latency();
	for (k = 0; k < ARRAY_SIZE(bench_axis_rows); k++) {
		const struct bench_axis_row *row = &bench_axis_rows[k];
		u64 e = U64_MAX, o = U64_MAX, q = U64_MAX;

		/* As the table's rows, the runs of each form alternate. */
		for (r = 0; r < BENCH_RUNS; r++) {
			e = min(e, bench_axis_time(bench_op_none, &s, loops,
						   row->a, row->b));
			o = min(o, bench_axis_time(row->ours, &s, loops,
						   row->a, row->b));
			if (row->old)
				q = min(q, bench_axis_time(row->old, &s, loops,
							   row->a, row->b));
		}
		ours[k] = bench_axis_per_call(o, e, loops);
		old[k] = row->old ? bench_axis_per_call(q, e, loops) : BENCH_NONE;
		if (row->a != row->b) {
			row->ours(&s, bench_value(0));
			if (row->old)
				row->old(&s, bench_value(0));
		}
	}

	bench_watch_registry.lock = &latency_system.lock;
	bench_watch_qos.lock = NULL;
#ifndef CONFIG_PREEMPT_RT	/* there, pm_qos_lock is a sleeping lock */
	if (bench_qos_lock) {
		unsigned long addr = (unsigned long)&latency_system +
				     bench_qos_lock;
		spinlock_t *l = (spinlock_t *)addr;

		/* A sanity check of the offset: static data, aligned. */
		if (addr >= (unsigned long)_sdata && addr < (unsigned long)_end &&
		    IS_ALIGNED(addr, sizeof(u32)))
			bench_watch_qos.lock = &l->rlock;
	}
#endif
	/*
	 * Timed, a trap costs tens of us under TCG, and its noise is all a
	 * section would show: sections are counted in instructions only.
	 */
	ret = bench_percall ? bench_watch_start(&bench_watch_registry) : -EOPNOTSUPP;
	qret = bench_percall ? bench_watch_start(&bench_watch_qos) : -EOPNOTSUPP;
	if (ret && ret != -EOPNOTSUPP)
		pr_info("axis: no watchpoint on the registry lock (%d)\n", ret);
	if (qret && qret != -EOPNOTSUPP)
		pr_info("axis: no watchpoint on pm_qos_lock (%d)\n", qret);
	pr_info("axis %4u cpus online, %u possible, %u holders of each form; %s; an empty section: registry %lld, pm_qos_lock %lld\n",
		cpus, num_possible_cpus(), BENCH_AXIS_N,
		bench_percall ? "the fewest of one call alone" :
				"the best loop of calls",
		ret ? -1LL : (s64)bench_watch_registry.empty,
		qret ? -1LL : (s64)bench_watch_qos.empty);
	pr_info("axis %6s %8s %-10s %8s %8s %9s %8s %8s\n", "online",
		"possible", "operation", "ours", "6.12", "ours/6.12", "irqoff",
		"6.12");
	for (k = 0; k < ARRAY_SIZE(bench_axis_rows); k++) {
		const struct bench_axis_row *row = &bench_axis_rows[k];
		char on[24], qn[24], ratio[24], oi[24], qi[24];
		u64 io, iq;

		io = bench_axis_irqoff(&bench_watch_registry, row->ours, &s,
				       iloops, row->a, row->b);
		iq = bench_axis_irqoff(&bench_watch_qos, row->old, &s,
				       iloops, row->a, row->b);
		if (row->a != row->b) {
			row->ours(&s, bench_value(0));
			if (row->old)
				row->old(&s, bench_value(0));
		}
		bench_ns(on, sizeof(on), ours[k], 1);
		bench_ns(qn, sizeof(qn), old[k], 1);
		bench_ratio(ratio, sizeof(ratio), ours[k], old[k]);
		bench_ns(oi, sizeof(oi), io, 1);
		bench_ns(qi, sizeof(qi), iq, 1);
		pr_info("axis %6u %8u %-10s %8s %8s %9s %8s %8s\n", cpus,
			num_possible_cpus(), row->name, on, qn, ratio, oi, qi);
	}
	bench_watch_stop(&bench_watch_registry);
	bench_watch_stop(&bench_watch_qos);
	unregister_trace_latency_idle_wake(bench_deferred_wake, NULL);
	tracepoint_synchronize_unregister();
	ret = 0;
out:
	remove_acceptable_latency("bench:all-cpus");
	bench_empty(&s);
	return ret;
}

static int bench_run(void)
{
	struct bench_old_request kernel_old = {};
	bool have_kernel_old = false;
	bool table = strcmp(bench_rows, "axis");
	bool axis = strcmp(bench_rows, "table");
	int ret = 0;

	if (table && axis && strcmp(bench_rows, "all"))
		return -EINVAL;
	/* 6.12 has no built-in "kernel" constraint: give it one alike. */
	if (system_latency_constraint() < INFINITE_LATENCY) {
		bench_old_add(&kernel_old, system_latency_constraint());
		have_kernel_old = true;
	}
	if (table)
		ret = bench_table();
	if (axis && !ret)
		ret = bench_axis();
	if (have_kernel_old)
		bench_old_remove(&kernel_old);
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
