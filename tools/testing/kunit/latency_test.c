// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the latency-constraint registry (kernel/latency.c).
 *
 * Most cases run on a private registry, so that the constraints other code
 * holds cannot disturb them and they cannot disturb other code.  The cases
 * named *_system_* go through the exported API on the system registry; they
 * measure against the value they find, use constraints below it, and leave
 * the registry as they found it.
 *
 * Cases named *_seed_* fail on the 2006 code: each names the defect.
 */

#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/latency.h>
#include <linux/limits.h>
#include <linux/pm_qos.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include <trace/events/latency.h>

#include "../../../kernel/latency_internal.h"

/*
 * What the suite inspects a registry with.  Test-only: it reads the
 * registry's layout (<linux/latency.h>) and calls nothing but the API.
 */

/* A private registry, as latency_system is; see latency_registry_destroy(). */
static int latency_registry_init_private(struct latency_registry *r)
{
	int i;

	*r = (struct latency_registry) {
		.value = INFINITE_LATENCY, .all = RB_ROOT_CACHED,
		.notified = INFINITE_LATENCY, .max = INFINITE_LATENCY,
	};
	r->cpu = alloc_percpu(struct latency_cpu);
	if (!r->cpu)
		return -ENOMEM;
	for_each_possible_cpu(i) {
		per_cpu_ptr(r->cpu, i)->tree = RB_ROOT_CACHED;
		per_cpu_ptr(r->cpu, i)->value = INFINITE_LATENCY;
	}
	raw_spin_lock_init(&r->lock);
	seqcount_raw_spinlock_init(&r->seq, &r->lock);
	BLOCKING_INIT_NOTIFIER_HEAD(&r->notifiers);
	mutex_init(&r->notify_lock);
	INIT_WORK(&r->work, latency_workfn);
	return 0;
}

/* Remove every holder of a private registry, then free it. */
static void latency_registry_destroy(struct latency_registry *r)
{
	struct rb_root *trees[] = { &r->all.rb_root, &r->some };
	struct latency_request *req;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(trees); i++) {
		while (trees[i]->rb_node) {
			req = rb_entry(rb_first(trees[i]), struct latency_request,
				       rbnode);
			if (req->allocated)
				latency_registry_remove(r, req->identifier);
			else
				latency_registry_remove_request(r, req);
		}
	}
	cancel_work_sync(&r->work);
	rcu_barrier();		/* what remove disposed of is freed */
	free_percpu(r->cpu);
	r->cpu = NULL;
}

/* Deliver a pending notification now. */
static void latency_registry_flush(struct latency_registry *r)
{
	flush_work(&r->work);
}

/* The holder named @id, or NULL; under the lock. */
static struct latency_request *latency_test_entry(struct latency_registry *r,
						  const char *id)
{
	struct rb_node *node = r->names.rb_node;

	while (node) {
		struct latency_request *req;
		int cmp;

		req = rb_entry(node, struct latency_request, name_node);
		cmp = strcmp(id, req->identifier);
		if (!cmp)
			return req;
		node = cmp < 0 ? node->rb_left : node->rb_right;
	}
	return NULL;
}

/* The value @id holds, or -ENOENT. */
static int latency_registry_get(struct latency_registry *r, const char *id)
{
	struct latency_request *req;
	unsigned long flags;
	int ret;

	raw_spin_lock_irqsave(&r->lock, flags);
	req = latency_test_entry(r, id);
	ret = req ? req->usecs : -ENOENT;
	raw_spin_unlock_irqrestore(&r->lock, flags);
	return ret;
}

/* The number of holders of @r. */
static unsigned int latency_count(struct latency_registry *r)
{
	unsigned int n = 0;
	struct rb_node *node;

	for (node = rb_first_cached(&r->all); node; node = rb_next(node))
		n++;
	for (node = rb_first(&r->some); node; node = rb_next(node))
		n++;
	return n;
}

/* Count the nodes of a sorted tree that are out of order. */
static unsigned int latency_check_order(struct rb_node *node,
					bool (*less)(struct rb_node *,
						     const struct rb_node *),
					unsigned int *n)
{
	struct rb_node *prev = NULL;
	unsigned int bad = 0;

	for (*n = 0; node; prev = node, node = rb_next(node), (*n)++)
		bad += prev && less(node, prev);
	return bad;
}

/*
 * Count the inconsistencies of a registry: recomputes, the slow way, what
 * its trees and published values must be, and compares.  O(n) per CPU.
 */
static unsigned int latency_registry_check(struct latency_registry *r)
{
	unsigned int bad = 0, n, named = 0, unnamed = 0, sorted;
	int min = INFINITE_LATENCY, cpu;
	struct latency_request *req;
	struct rb_node *node;
	unsigned long flags;

	raw_spin_lock_irqsave(&r->lock, flags);
	bad += latency_check_order(rb_first_cached(&r->all), latency_less, &n);
	sorted = n;
	bad += latency_check_order(rb_first(&r->some), latency_less, &n);
	sorted += n;
	for (node = rb_first_cached(&r->all); node; node = rb_next(node)) {
		req = rb_entry(node, struct latency_request, rbnode);
		min = min(min, req->usecs);
		unnamed += !req->identifier;
		bad += req->cpus || req->registry != r;
	}
	for (node = rb_first(&r->some); node; node = rb_next(node)) {
		req = rb_entry(node, struct latency_request, rbnode);
		bad += !req->identifier || !req->cpus || req->registry != r ||
		       !cpumask_subset(&req->cpus->mask, cpu_possible_mask) ||
		       cpumask_empty(&req->cpus->mask);
	}
	for (node = rb_first(&r->names); node; node = rb_next(node)) {
		req = rb_entry(node, struct latency_request, name_node);
		named++;
		bad += latency_test_entry(r, req->identifier) != req ||
		       req->registry != r;
		bad += req->usecs < 0 || req->usecs > INFINITE_LATENCY;
	}
	bad += named + unnamed != sorted;
	bad += READ_ONCE(r->value) != min;
	/* Each CPU's tree holds exactly its constraints; its minimum. */
	for_each_possible_cpu(cpu) {
		struct latency_cpu *lc = per_cpu_ptr(r->cpu, cpu);
		unsigned int members = 0;
		int own = INFINITE_LATENCY;

		bad += latency_check_order(rb_first_cached(&lc->tree),
					   latency_node_less, &n);
		for (node = rb_first(&r->some); node; node = rb_next(node)) {
			req = rb_entry(node, struct latency_request, rbnode);
			if (cpumask_test_cpu(cpu, &req->cpus->mask)) {
				members++;
				own = min(own, req->usecs);
			}
		}
		bad += n != members || READ_ONCE(lc->value) != own;
	}
	raw_spin_unlock_irqrestore(&r->lock, flags);
	return bad;
}

/* Whether @req is held, by any registry. */
static bool latency_test_held(struct latency_request *req)
{
	return READ_ONCE(req->registry);
}

/* Names this suite holds in the system registry. */
#define KTEST_ID "kunit:latency"

struct latency_test_listener {
	struct notifier_block nb;
	int calls;
	int last;
};

struct latency_test_ctx {
	struct latency_registry reg;
	struct latency_test_listener priv;	/* on reg's chain */
	struct latency_test_listener sys;	/* on the system chain */
	struct latency_request req;		/* in the system registry */
};

static int latency_test_notify(struct notifier_block *nb, unsigned long value,
			       void *unused)
{
	struct latency_test_listener *l;

	l = container_of(nb, struct latency_test_listener, nb);
	l->calls++;
	l->last = value;
	return NOTIFY_OK;
}

static int latency_test_init(struct kunit *test)
{
	struct latency_test_ctx *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx || latency_registry_init_private(&ctx->reg))
		return -ENOMEM;
	ctx->priv.nb.notifier_call = latency_test_notify;
	ctx->priv.last = -1;
	ctx->sys.nb.notifier_call = latency_test_notify;
	ctx->sys.last = -1;
	blocking_notifier_chain_register(&ctx->reg.notifiers, &ctx->priv.nb);
	test->priv = ctx;
	return 0;
}

static void latency_test_exit(struct kunit *test)
{
	struct latency_test_ctx *ctx = test->priv;

	blocking_notifier_chain_unregister(&ctx->reg.notifiers, &ctx->priv.nb);
	latency_registry_destroy(&ctx->reg);

	/* Whatever a failed case left in the system registry goes away. */
	unregister_latency_notifier(&ctx->sys.nb);
	remove_acceptable_latency(KTEST_ID);
	remove_acceptable_latency(KTEST_ID ":ipw");
	remove_wakeup_latency(KTEST_ID);
	if (latency_request_active(&ctx->req))
		latency_request_remove(&ctx->req);
}

static struct latency_registry *reg(struct kunit *test)
{
	return &((struct latency_test_ctx *)test->priv)->reg;
}

/* What the private registry's chain was told. */
static struct latency_test_listener *ctx(struct kunit *test)
{
	return &((struct latency_test_ctx *)test->priv)->priv;
}

/* A page for latency_registry_show() to print into. */
static void new_seq(struct kunit *test, struct seq_file *m)
{
	m->size = PAGE_SIZE;
	m->buf = kunit_kzalloc(test, m->size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m->buf);
}

/* A request in memory of the test's, freed after .exit. */
static struct latency_request *new_req(struct kunit *test)
{
	struct latency_request *req;

	req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req);
	return req;
}

/* latency_request_init() and latency_registry_add_request() in one. */
static int add_req(struct latency_registry *r, struct latency_request *req,
		   const char *id, int usecs)
{
	return latency_request_init(req, id) ?:
	       latency_registry_add_request(r, req, usecs, NULL);
}

/* "# cpu" and CPUs @first to @last, one or a range, as the listing prints it. */
static size_t cpu_line(char *buf, size_t size, int first, int last)
{
	if (first == last)
		return scnprintf(buf, size, "# cpu %d ", first);
	return scnprintf(buf, size, "# cpu %d-%d ", first, last);
}

/*
 * The whole listing, its holder lines @lines given, when no holder is for
 * some CPUs only: one "# cpu" line for all CPUs (possible CPUs are
 * numbered without a hole here), then the system line, the same.
 */
static const char *want_listing(struct kunit *test, const char *lines,
				int value, const char *holder)
{
	size_t size = strlen(lines) + 256;
	char *buf = kunit_kzalloc(test, size, GFP_KERNEL);
	size_t n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	n = scnprintf(buf, size, "# identifier usecs cpus pid comm\n%s", lines);
	n += cpu_line(buf + n, size - n, 0, nr_cpu_ids - 1);
	n += scnprintf(buf + n, size - n, "%d %s\n", value, holder);
	scnprintf(buf + n, size - n, "# system %d %s\n", value, holder);
	return buf;
}

static void latency_registry_empty_is_infinite(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	KUNIT_EXPECT_EQ(test, latency_registry_value(r), INFINITE_LATENCY);
	KUNIT_EXPECT_EQ(test, latency_registry_set(r, "a", 10, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_remove(r, "a"), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), INFINITE_LATENCY);
	KUNIT_EXPECT_EQ(test, latency_count(r), 0U);
}

static void latency_system_value_matches_holders(struct kunit *test)
{
	/* The published value is the minimum recomputed from every holder. */
	KUNIT_EXPECT_EQ(test, latency_registry_check(&latency_system), 0U);
	KUNIT_EXPECT_LE(test, system_latency_constraint(), INFINITE_LATENCY);
	KUNIT_EXPECT_GE(test, system_latency_constraint(), 0);
}

static void latency_set_minimum_of_all(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 300, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 300);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "b", 200, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 200);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "c", 250, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 200);
	KUNIT_EXPECT_EQ(test, latency_count(r), 3U);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
}

static void latency_set_seed_existing_raises(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	/* Seed defect 1: set only ever lowered the cached value. */
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 100, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 500, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 500);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "a"), 500);
	KUNIT_EXPECT_EQ(test, latency_count(r), 1U);
}

static void latency_set_existing_does_not_allocate(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	struct latency_request *before, *after;

	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 100, NULL), 0);
	before = latency_test_entry(r, "a");
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 200, NULL), 0);
	after = latency_test_entry(r, "a");
	/* The same entry was updated in place, not replaced. */
	KUNIT_EXPECT_PTR_EQ(test, before, after);
	KUNIT_EXPECT_EQ(test, after->usecs, 200);
}

static void latency_set_copies_identifier(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	char name[] = "copied";

	KUNIT_ASSERT_EQ(test, latency_registry_set(r, name, 100, NULL), 0);
	name[0] = 'X';
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "copied"), 100);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, name), -ENOENT);
}

static void latency_modify_seed_relax_raises(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	/* Seed defect 1: ipw2100 up then down left 175 us for ever. */
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", INFINITE_LATENCY,
						   NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_modify(r, "a", 175), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 175);
	KUNIT_ASSERT_EQ(test, latency_registry_modify(r, "a",
						      INFINITE_LATENCY), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), INFINITE_LATENCY);
}

static void latency_modify_seed_unknown_changes_nothing(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	/* Seed defect 2: modify of an unknown name lowered the value. */
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 500, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_modify(r, "nobody", 10),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 500);
	KUNIT_EXPECT_EQ(test, latency_count(r), 1U);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "nobody"), -ENOENT);
}

static void latency_modify_seed_second_entry(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	/* Seed defect 2: a misplaced break compared only the first entry. */
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 500, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "b", 400, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "c", 450, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_modify(r, "b", 100), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_modify(r, "a", 300), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "b"), 100);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "a"), 300);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 100);
}

static void latency_remove_tightest_raises(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 100, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "b", 300, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "c", 100, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_remove(r, "a"), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 100);
	KUNIT_EXPECT_EQ(test, latency_registry_remove(r, "c"), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 300);
	KUNIT_EXPECT_EQ(test, latency_registry_remove(r, "b"), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), INFINITE_LATENCY);
}

static void latency_remove_unknown_ignored(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 100, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_remove(r, "b"), -ENOENT);
	KUNIT_EXPECT_EQ(test, latency_registry_remove(r, "a"), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_remove(r, "a"), -ENOENT);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), INFINITE_LATENCY);
	KUNIT_EXPECT_EQ(test, latency_count(r), 0U);
}

static void latency_notifier_seed_set_unchanged_silent(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	/* Seed defect 3: set ran the chain even when nothing changed. */
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 100, NULL), 0);
	KUNIT_EXPECT_EQ(test, ctx(test)->calls, 1);
	KUNIT_EXPECT_EQ(test, ctx(test)->last, 100);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "b", 200, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 100, NULL), 0);
	latency_registry_flush(r);
	KUNIT_EXPECT_EQ(test, ctx(test)->calls, 1);
}

static void latency_notifier_seed_modify_notifies(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	/* Seed defect 3: modify and remove never ran the chain. */
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 100, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_modify(r, "a", 400), 0);
	latency_registry_flush(r);
	KUNIT_EXPECT_EQ(test, ctx(test)->calls, 2);
	KUNIT_EXPECT_EQ(test, ctx(test)->last, 400);

	/* No change of the system value, no call. */
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "b", 900, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_modify(r, "b", 800), 0);
	latency_registry_flush(r);
	KUNIT_EXPECT_EQ(test, ctx(test)->calls, 2);
}

static void latency_notifier_seed_remove_notifies(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "b", 300, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 100, NULL), 0);
	KUNIT_ASSERT_EQ(test, ctx(test)->calls, 2);
	KUNIT_ASSERT_EQ(test, latency_registry_remove(r, "b"), 0);
	latency_registry_flush(r);
	KUNIT_EXPECT_EQ(test, ctx(test)->calls, 2);
	KUNIT_ASSERT_EQ(test, latency_registry_remove(r, "a"), 0);
	latency_registry_flush(r);
	KUNIT_EXPECT_EQ(test, ctx(test)->calls, 3);
	KUNIT_EXPECT_EQ(test, ctx(test)->last, INFINITE_LATENCY);
}

static void latency_notifier_deferred_never_lost(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	int i;

	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 1000, NULL), 0);
	for (i = 0; i < 100; i++)
		KUNIT_ASSERT_EQ(test, latency_registry_modify(r, "a", 900 - i),
				0);
	latency_registry_flush(r);
	/* Coalesced, but the last delivered value is the final one. */
	KUNIT_EXPECT_EQ(test, ctx(test)->last, 801);
	KUNIT_EXPECT_LE(test, ctx(test)->calls, 101);
	KUNIT_EXPECT_GE(test, ctx(test)->calls, 2);
}

static void latency_sync_always_notifies(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	latency_registry_sync(r);
	KUNIT_EXPECT_EQ(test, ctx(test)->calls, 1);
	KUNIT_EXPECT_EQ(test, ctx(test)->last, INFINITE_LATENCY);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 100, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_modify(r, "a", 50), 0);
	/* The pending change is delivered once, then the chain runs again. */
	latency_registry_sync(r);
	KUNIT_EXPECT_EQ(test, ctx(test)->last, 50);
	KUNIT_EXPECT_GE(test, ctx(test)->calls, 3);
	KUNIT_EXPECT_LE(test, ctx(test)->calls, 4);
}

static void latency_init_seed_keeps_earlier(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	/* Seed defect 4: the initcall overwrote what was set before it. */
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "early", 20, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_add_kernel(r, 8000), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 20);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "early"), 20);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "kernel"), 8000);
}

static void latency_init_kernel_not_replaced(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "kernel", 50, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_add_kernel(r, 8000), -EEXIST);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "kernel"), 50);
	KUNIT_EXPECT_EQ(test, latency_count(r), 1U);
}

struct latency_bad_case {
	const char *desc;
	const char *id;
	int usecs;
	int expect;
	bool again;	/* its WARN_ONCE warned for an earlier case */
};

static char latency_long_id[4096];

static const struct latency_bad_case latency_bad_cases[] = {
	{ "NULL identifier", NULL, 100, -EINVAL },
	{ "empty identifier", "", 100, -EINVAL, true },
	{ "4 KiB identifier", latency_long_id, 100, -EINVAL },
	{ "identifier with a blank", "a b", 100, -EINVAL, true },
	{ "identifier with a newline", "a\n", 100, -EINVAL, true },
	{ "identifier starting with a hash", "#a", 100, -EINVAL, true },
	{ "value -1", "ok", -1, -EINVAL },
	{ "value INT_MIN", "ok", INT_MIN, -EINVAL, true },
};

static void latency_bad_case_desc(const struct latency_bad_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(latency_bad, latency_bad_cases, latency_bad_case_desc);

static void latency_bad_input_rejected(struct kunit *test)
{
	const struct latency_bad_case *c = test->param_value;
	struct latency_registry *r = reg(test);
	struct latency_request *req, *held;

	req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	held = kunit_kzalloc(test, sizeof(*held), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req);
	KUNIT_ASSERT_NOT_NULL(test, held);
	memset(latency_long_id, 'x', sizeof(latency_long_id) - 1);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "ok", 500, NULL), 0);
	KUNIT_ASSERT_EQ(test, add_req(r, held, "held", 600), 0);

	kunit_info(test, "%s: %s\n", c->again ? "no new warning (once)" :
		   "expect a warning", c->desc);
	KUNIT_EXPECT_EQ(test, latency_registry_set(r, c->id, c->usecs, NULL),
			c->expect);
	KUNIT_EXPECT_EQ(test, latency_registry_modify(r, c->id, c->usecs),
			c->expect);
	if (c->usecs >= 0)
		KUNIT_EXPECT_EQ(test, latency_registry_remove(r, c->id),
				c->expect);
	/*
	 * The handle form checks alike, through the same (warned) checks:
	 * the identifier when the request is initialised, the value when it
	 * is added.
	 */
	if (c->usecs >= 0) {
		KUNIT_EXPECT_EQ(test, latency_request_init(req, c->id),
				c->expect);
	} else {
		KUNIT_EXPECT_EQ(test, latency_request_init(req, "fresh"), 0);
		KUNIT_EXPECT_EQ(test, latency_registry_add_request(r, req,
								   c->usecs,
								   NULL),
				c->expect);
	}
	KUNIT_EXPECT_FALSE(test, latency_test_held(req));
	if (c->usecs < 0)
		KUNIT_EXPECT_EQ(test, latency_registry_update_request(r, held,
								      c->usecs),
				c->expect);

	/* Nothing changed. */
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "held"), 600);
	KUNIT_EXPECT_EQ(test, latency_registry_remove_request(r, held), 0);
	KUNIT_EXPECT_EQ(test, latency_count(r), 1U);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "ok"), 500);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 500);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
}

/* Values every entry accepts, and what it stores for them. */
struct latency_edge_case {
	const char *desc;
	int usecs;
	int stored;
};

static const struct latency_edge_case latency_edge_cases[] = {
	{ "value 0", 0, 0 },
	{ "value 1", 1, 1 },
	{ "value INFINITE_LATENCY - 1", INFINITE_LATENCY - 1,
	  INFINITE_LATENCY - 1 },
	{ "value INFINITE_LATENCY", INFINITE_LATENCY, INFINITE_LATENCY },
	{ "value INFINITE_LATENCY + 1 clamps", INFINITE_LATENCY + 1,
	  INFINITE_LATENCY },
	{ "value INT_MAX clamps", INT_MAX, INFINITE_LATENCY },
};

static void latency_edge_case_desc(const struct latency_edge_case *c,
				   char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(latency_edge, latency_edge_cases, latency_edge_case_desc);

static void latency_edge_value_accepted(struct kunit *test)
{
	const struct latency_edge_case *c = test->param_value;
	struct latency_request *req = new_req(test), *upd = new_req(test);
	struct latency_registry *r = reg(test);

	KUNIT_EXPECT_EQ(test, latency_registry_set(r, "set", c->usecs, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "set"), c->stored);

	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "modify", 5, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_modify(r, "modify", c->usecs), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "modify"), c->stored);

	KUNIT_EXPECT_EQ(test, add_req(r, req, "add", c->usecs), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "add"), c->stored);

	KUNIT_ASSERT_EQ(test, add_req(r, upd, "update", 5), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_update_request(r, upd, c->usecs),
			0);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "update"), c->stored);

	KUNIT_EXPECT_EQ(test, latency_registry_value(r), c->stored);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
}

static void latency_identifier_longest_accepted(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	char id[LATENCY_ID_MAX + 1];

	memset(id, 'y', LATENCY_ID_MAX);
	id[LATENCY_ID_MAX] = '\0';
	KUNIT_EXPECT_EQ(test, latency_registry_set(r, id, 7, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, id), 7);
	KUNIT_EXPECT_EQ(test, latency_registry_remove(r, id), 0);
}

static void latency_value_boundaries(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	KUNIT_EXPECT_EQ(test, latency_registry_set(r, "zero", 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_remove(r, "zero"), 0);
	latency_registry_flush(r);
	KUNIT_EXPECT_EQ(test, ctx(test)->calls, 2);
	KUNIT_EXPECT_EQ(test, ctx(test)->last, INFINITE_LATENCY);

	KUNIT_EXPECT_EQ(test, latency_registry_set(r, "inf", INFINITE_LATENCY,
						   NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), INFINITE_LATENCY);
	KUNIT_EXPECT_EQ(test, latency_registry_set(r, "above",
						   INFINITE_LATENCY + 1, NULL),
			0);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "above"),
			INFINITE_LATENCY);
	KUNIT_EXPECT_EQ(test, latency_registry_modify(r, "inf", INT_MAX), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "inf"), INFINITE_LATENCY);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), INFINITE_LATENCY);
	/* "No constraint" held in any form does not change the value. */
	latency_registry_flush(r);
	KUNIT_EXPECT_EQ(test, ctx(test)->calls, 2);
}

static void latency_listing_format(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	struct seq_file m = { };

	new_seq(test, &m);

	latency_registry_show(r, &m);
	KUNIT_EXPECT_STREQ(test, m.buf, want_listing(test, "", 1000000, "-"));

	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "kernel", 8000, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "b", 150, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 150, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "idle",
						   INFINITE_LATENCY, NULL), 0);
	memset(m.buf, 0, m.size);
	m.count = 0;
	latency_registry_show(r, &m);
	KUNIT_EXPECT_STREQ(test, m.buf,
			   want_listing(test, "a 150 all - -\n"
					"b 150 all - -\n"
					"kernel 8000 all - -\n"
					"idle 1000000 all - -\n", 150, "a"));
}

static void latency_listing_user_holder(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	struct seq_file m = { };
	char expect[160];

	new_seq(test, &m);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "user:1", 150,
						   current), 0);
	latency_registry_show(r, &m);
	snprintf(expect, sizeof(expect), "user:1 150 all %d %s\n",
		 task_tgid_nr(current), current->comm);
	KUNIT_EXPECT_STREQ(test, m.buf, want_listing(test, expect, 150, "user:1"));
}

static int latency_idle_thread(void *unused)
{
	return 0;
}

/*
 * A holder's comm is its task's to choose: one that names itself
 * "x\n# system 0 ..." must not add a line a parser takes for the system
 * value.  It is escaped as in /proc/PID/status.
 */
static void latency_listing_escapes_comm(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	struct task_struct *holder;
	char expect[160];
	struct seq_file m = { };

	/*
	 * A thread of that name, never started, is the holder: the test
	 * cannot rename itself, set_task_comm() is not exported to modules.
	 */
	holder = kthread_create(latency_idle_thread, NULL, "%s",
				"x\\\n# system 0 forged");
	KUNIT_ASSERT_FALSE(test, IS_ERR(holder));
	get_task_struct(holder);
	new_seq(test, &m);
	KUNIT_EXPECT_EQ(test, latency_registry_set(r, "user:1", 150, holder), 0);

	latency_registry_show(r, &m);
	snprintf(expect, sizeof(expect),
		 "user:1 150 all %d x\\\\\\n# system 0 f\n",
		 task_tgid_nr(holder));
	kthread_stop_put(holder);
	KUNIT_EXPECT_STREQ(test, m.buf, want_listing(test, expect, 150, "user:1"));
}

/*
 * The listing copies a batch of holders at a time under the lock; a read
 * across many batches still shows every holder once, in order.
 */
static void latency_listing_many_holders_in_order(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	struct seq_file m = { };
	char id[16], line[40];
	const char *p;
	int i, usecs;

	m.size = 4 * PAGE_SIZE;
	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	/* 100 holders, values 10..1000 added in a scrambled order. */
	for (i = 0; i < 100; i++) {
		usecs = 10 * (1 + (i * 37) % 100);
		snprintf(id, sizeof(id), "h%d", usecs);
		KUNIT_ASSERT_EQ(test, latency_registry_set(r, id, usecs, NULL), 0);
	}
	KUNIT_ASSERT_EQ(test, latency_registry_show(r, &m), 0);

	p = strchr(m.buf, '\n');
	KUNIT_ASSERT_NOT_NULL(test, p);
	for (i = 1; i <= 100; i++) {
		snprintf(line, sizeof(line), "\nh%d %d all - -\n", 10 * i, 10 * i);
		KUNIT_ASSERT_TRUE_MSG(test, !strncmp(p, line, strlen(line)),
				      "holder %d of 100 missing or out of order", i);
		p += strlen(line) - 1;
	}
	KUNIT_EXPECT_STREQ(test, p, strchr(want_listing(test, "", 10, "h10"), '\n'));
}

/* The minimum that a model of the holders (-1: not held) says is published. */
static int latency_model_min(const int *held, size_t n)
{
	int min = INFINITE_LATENCY;
	size_t k;

	for (k = 0; k < n; k++)
		if (held[k] >= 0)
			min = min(min, held[k]);
	return min;
}

/* Sound, and once its work has run, the chain was last told the value. */
static void latency_expect_settled(struct kunit *test,
				   struct latency_registry *r)
{
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
	latency_registry_flush(r);
	KUNIT_EXPECT_EQ(test, ctx(test)->last == -1 ?
			INFINITE_LATENCY : ctx(test)->last,
			latency_registry_value(r));
}

static void latency_random_ops_consistent(struct kunit *test)
{
	static const char * const names[] = {
		"n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7",
	};
	struct latency_registry *r = reg(test);
	int held[ARRAY_SIZE(names)];
	int i, k, v;

	for (k = 0; k < ARRAY_SIZE(names); k++)
		held[k] = -1;

	for (i = 0; i < 2000; i++) {
		k = get_random_u32_below(ARRAY_SIZE(names));
		v = get_random_u32_below(INFINITE_LATENCY + 2);
		switch (get_random_u32_below(3)) {
		case 0:
			KUNIT_ASSERT_EQ(test, latency_registry_set(r, names[k],
								   v, NULL), 0);
			held[k] = min(v, INFINITE_LATENCY);
			break;
		case 1:
			KUNIT_ASSERT_EQ(test,
					latency_registry_modify(r, names[k], v),
					held[k] < 0 ? -ENOENT : 0);
			if (held[k] >= 0)
				held[k] = min(v, INFINITE_LATENCY);
			break;
		default:
			KUNIT_ASSERT_EQ(test,
					latency_registry_remove(r, names[k]),
					held[k] < 0 ? -ENOENT : 0);
			held[k] = -1;
		}
		KUNIT_ASSERT_EQ(test, latency_registry_value(r),
				latency_model_min(held, ARRAY_SIZE(held)));
	}
	latency_expect_settled(test, r);
}

static struct latency_constraint *latency_test_alloc_fails(size_t len, gfp_t gfp)
{
	return NULL;
}

static void latency_set_alloc_failure_changes_nothing(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 300, NULL), 0);
	kunit_activate_static_stub(test, latency_alloc,
				   latency_test_alloc_fails);
	/* A new name needs memory: the caller is told, nothing changes. */
	KUNIT_EXPECT_EQ(test, latency_registry_set(r, "b", 100, NULL),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "b"), -ENOENT);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 300);
	KUNIT_EXPECT_EQ(test, latency_count(r), 1U);
	/* An existing name needs none, so it still works. */
	KUNIT_EXPECT_EQ(test, latency_registry_set(r, "a", 200, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 200);
	kunit_deactivate_static_stub(test, latency_alloc);
	KUNIT_EXPECT_EQ(test, latency_registry_set(r, "b", 100, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
	KUNIT_EXPECT_EQ(test, ctx(test)->calls, 3);
}

static gfp_t latency_test_gfp;

static struct latency_constraint *latency_test_alloc_gfp(size_t len, gfp_t gfp)
{
	latency_test_gfp = gfp;
	return kzalloc(struct_size_t(struct latency_constraint, identifier,
				     len + 1), gfp);
}

/* What a user-space holder makes the kernel allocate is charged to it. */
static void latency_user_holder_is_accounted(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	kunit_activate_static_stub(test, latency_alloc, latency_test_alloc_gfp);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "user:1", 300, current), 0);
	KUNIT_EXPECT_TRUE(test, latency_test_gfp & __GFP_ACCOUNT);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 300, NULL), 0);
	KUNIT_EXPECT_FALSE(test, latency_test_gfp & __GFP_ACCOUNT);
	kunit_deactivate_static_stub(test, latency_alloc);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
}

/* The handle form: struct latency_request, in memory of the holder's. */

static void latency_request_add_update_remove(struct kunit *test)
{
	struct latency_request *req = new_req(test);
	struct latency_registry *r = reg(test);

	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 300, NULL), 0);
	KUNIT_EXPECT_FALSE(test, latency_test_held(req));
	KUNIT_ASSERT_EQ(test, add_req(r, req, "h", 100), 0);
	KUNIT_EXPECT_TRUE(test, latency_test_held(req));
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 100);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "h"), 100);
	/* add delivers before it returns, like set. */
	KUNIT_EXPECT_EQ(test, ctx(test)->calls, 2);
	KUNIT_EXPECT_EQ(test, ctx(test)->last, 100);

	/* Relaxing the tightest request raises the value; update defers. */
	KUNIT_EXPECT_EQ(test, latency_registry_update_request(r, req, 500), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 300);
	KUNIT_EXPECT_EQ(test, latency_registry_update_request(r, req, INT_MAX),
			0);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "h"), INFINITE_LATENCY);
	latency_registry_flush(r);
	KUNIT_EXPECT_EQ(test, ctx(test)->calls, 3);
	KUNIT_EXPECT_EQ(test, ctx(test)->last, 300);

	KUNIT_EXPECT_EQ(test, latency_registry_update_request(r, req, 20), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_remove_request(r, req), 0);
	KUNIT_EXPECT_FALSE(test, latency_test_held(req));
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 300);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "h"), -ENOENT);
	KUNIT_EXPECT_EQ(test, latency_count(r), 1U);
	latency_registry_flush(r);
	/* 20 then 300 again: whatever the chain saw, it ends at 300. */
	KUNIT_EXPECT_EQ(test, ctx(test)->last, 300);

	/* A removed request may be added again, under another name. */
	KUNIT_EXPECT_EQ(test, add_req(r, req, "h2", 50), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 50);
	KUNIT_EXPECT_EQ(test, latency_registry_remove_request(r, req), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
}

static void latency_request_allocates_nothing(struct kunit *test)
{
	struct latency_request *req = new_req(test);
	struct latency_registry *r = reg(test);

	kunit_activate_static_stub(test, latency_alloc,
				   latency_test_alloc_fails);
	/* The stub is active: a new named constraint cannot be made... */
	KUNIT_EXPECT_EQ(test, latency_registry_set(r, "named", 100, NULL),
			-ENOMEM);
	/* ...and a request's whole life needs no allocation. */
	KUNIT_EXPECT_EQ(test, add_req(r, req, "h", 100), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_update_request(r, req, 40), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 40);
	KUNIT_EXPECT_EQ(test, latency_registry_remove_request(r, req), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), INFINITE_LATENCY);
	kunit_deactivate_static_stub(test, latency_alloc);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
}

static void latency_request_name_owned_by_holder(struct kunit *test)
{
	struct latency_request *req = new_req(test);
	struct latency_registry *r = reg(test);
	struct seq_file m = { };

	new_seq(test, &m);

	KUNIT_ASSERT_EQ(test, add_req(r, req, "h", 100), 0);
	/* The named calls must not change, let alone free, a request. */
	kunit_info(test, "expect a warning: set of a name a request holds\n");
	KUNIT_EXPECT_EQ(test, latency_registry_set(r, "h", 5, NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, latency_registry_modify(r, "h", 5), -EBUSY);
	KUNIT_EXPECT_EQ(test, latency_registry_remove(r, "h"), -EBUSY);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "h"), 100);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 100);
	KUNIT_EXPECT_TRUE(test, latency_test_held(req));

	/* Listed like any kernel holder. */
	latency_registry_show(r, &m);
	KUNIT_EXPECT_STREQ(test, m.buf,
			   want_listing(test, "h 100 all - -\n", 100, "h"));

	/* A request cannot take a name that is held, in either form. */
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "named", 300, NULL), 0);
	kunit_info(test, "expect a warning: request for a name already held\n");
	KUNIT_EXPECT_EQ(test, add_req(r, new_req(test), "named", 1), -EEXIST);
	KUNIT_EXPECT_EQ(test, add_req(r, new_req(test), "h", 1), -EEXIST);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "named"), 300);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 100);
	KUNIT_EXPECT_EQ(test, latency_count(r), 2U);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
}

static void latency_request_misuse_rejected(struct kunit *test)
{
	struct latency_request *req = new_req(test);
	struct latency_registry *r = reg(test);

	kunit_info(test, "expect a warning: update of a request not added\n");
	KUNIT_EXPECT_EQ(test, latency_registry_update_request(r, req, 10),
			-EINVAL);
	kunit_info(test, "no new warning (once): removal of a request not added\n");
	KUNIT_EXPECT_EQ(test, latency_registry_remove_request(r, req), -EINVAL);
	KUNIT_EXPECT_FALSE(test, latency_test_held(req));

	kunit_info(test, "expect a warning: request added before init\n");
	KUNIT_EXPECT_EQ(test, latency_registry_add_request(r, req, 10, NULL),
			-EINVAL);
	KUNIT_EXPECT_FALSE(test, latency_test_held(req));

	KUNIT_ASSERT_EQ(test, add_req(r, req, "h", 100), 0);
	kunit_info(test, "expect a warning: request added twice\n");
	KUNIT_EXPECT_EQ(test, latency_registry_add_request(r, req, 10, NULL),
			-EINVAL);
	kunit_info(test, "expect a warning: init of an active request\n");
	KUNIT_EXPECT_EQ(test, latency_request_init(req, "h2"), -EINVAL);
	KUNIT_EXPECT_STREQ(test, req->identifier, "h");
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "h2"), -ENOENT);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "h"), 100);

	kunit_info(test, "expect a warning: NULL request initialised\n");
	KUNIT_EXPECT_EQ(test, latency_request_init(NULL, "n"), -EINVAL);
	kunit_info(test, "no new warning (once): NULL request added\n");
	KUNIT_EXPECT_EQ(test, latency_registry_add_request(r, NULL, 10, NULL),
			-EINVAL);
	kunit_info(test, "expect a warning: NULL request updated\n");
	KUNIT_EXPECT_EQ(test, latency_registry_update_request(r, NULL, 10),
			-EINVAL);
	kunit_info(test, "expect a warning: NULL request removed\n");
	KUNIT_EXPECT_EQ(test, latency_registry_remove_request(r, NULL), -EINVAL);

	KUNIT_EXPECT_EQ(test, latency_count(r), 1U);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 100);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
}

static void latency_request_destroy_leaves_inactive(struct kunit *test)
{
	struct latency_request *req = new_req(test);
	struct latency_registry *r = reg(test);

	KUNIT_ASSERT_EQ(test, add_req(r, req, "h", 100), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "named", 200, NULL), 0);
	latency_registry_destroy(r);
	/* The named constraint is freed, the request handed back inactive. */
	KUNIT_EXPECT_FALSE(test, latency_test_held(req));
	KUNIT_EXPECT_EQ(test, latency_count(r), 0U);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), INFINITE_LATENCY);
	KUNIT_EXPECT_EQ(test, add_req(r, req, "h", 7), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 7);
}

/* Named constraints and requests, at random, against a model. */
static void latency_request_random_mixed(struct kunit *test)
{
	static const char * const names[] = { "n0", "n1", "n2", "n3" };
	static const char * const hnames[] = { "h0", "h1", "h2", "h3" };
	struct latency_registry *r = reg(test);
	struct latency_request *req[ARRAY_SIZE(hnames)];
	int held[ARRAY_SIZE(names) + ARRAY_SIZE(hnames)];
	int i, k, v;

	for (k = 0; k < ARRAY_SIZE(held); k++)
		held[k] = -1;
	for (k = 0; k < ARRAY_SIZE(hnames); k++)
		req[k] = new_req(test);

	for (i = 0; i < 2000; i++) {
		k = get_random_u32_below(ARRAY_SIZE(held));
		v = get_random_u32_below(INFINITE_LATENCY + 2);
		if (k < ARRAY_SIZE(names)) {
			if (get_random_u32_below(2)) {
				KUNIT_ASSERT_EQ(test,
						latency_registry_set(r, names[k],
								     v, NULL),
						0);
				held[k] = min(v, INFINITE_LATENCY);
			} else {
				KUNIT_ASSERT_EQ(test,
						latency_registry_remove(r, names[k]),
						held[k] < 0 ? -ENOENT : 0);
				held[k] = -1;
			}
		} else {
			const char *hname = hnames[k - ARRAY_SIZE(names)];
			struct latency_request *h = req[k - ARRAY_SIZE(names)];

			if (held[k] < 0) {
				KUNIT_ASSERT_EQ(test, add_req(r, h, hname, v),
						0);
				held[k] = min(v, INFINITE_LATENCY);
			} else if (get_random_u32_below(2)) {
				KUNIT_ASSERT_EQ(test,
						latency_registry_update_request(r, h, v),
						0);
				held[k] = min(v, INFINITE_LATENCY);
			} else {
				KUNIT_ASSERT_EQ(test,
						latency_registry_remove_request(r, h),
						0);
				held[k] = -1;
			}
		}
		KUNIT_ASSERT_EQ(test, latency_registry_value(r),
				latency_model_min(held, ARRAY_SIZE(held)));
	}
	latency_expect_settled(test, r);
}

/* Reached by no other case: found by make test-coverage. */

/* The checker the other cases rely on finds each kind of corruption. */
static void latency_check_counts_corruption(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	struct latency_request *a;

	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 100, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "b", 200, NULL), 0);
	a = latency_test_entry(r, "a");
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_EQ(test, latency_registry_check(r), 0U);

	/* Changed behind the tree's back: out of order, minimum stale. */
	a->usecs = 300;
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 2U);
	/* Out of range, below and above. */
	a->usecs = -1;
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 2U);
	a->usecs = INFINITE_LATENCY + 1;
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 3U);
	a->usecs = 100;
	/* Linked, but not marked as held by the registry. */
	a->registry = NULL;
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 2U);
	a->registry = r;
	/* Named but missing from the tree of values: minimum stale too. */
	rb_erase_cached(&a->rbnode, &r->all);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 2U);
	rb_add_cached(&a->rbnode, &r->all, latency_less);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);

	/* A CPU's minimum that is not the minimum of its constraints. */
	KUNIT_ASSERT_EQ(test, latency_registry_set_cpus(r, "c", 50,
							cpumask_of(0), NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_check(r), 0U);
	per_cpu_ptr(r->cpu, 0)->value = 100;
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 1U);
	per_cpu_ptr(r->cpu, 0)->value = 50;
	/* A constraint missing from the tree of one of its CPUs. */
	a = latency_test_entry(r, "c");
	KUNIT_ASSERT_NOT_NULL(test, a);
	rb_erase_cached(&a->cpus->node[0].rbnode, &per_cpu_ptr(r->cpu, 0)->tree);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 1U);
	rb_add_cached(&a->cpus->node[0].rbnode, &per_cpu_ptr(r->cpu, 0)->tree,
		      latency_node_less);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
}

/* Moves and removals at either end keep both cached ends of the tree. */
static void latency_tree_ends_cached(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "a", 100, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "b", 200, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "c", 300, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
	/* The top moves up, then from the top to the bottom. */
	KUNIT_EXPECT_EQ(test, latency_registry_modify(r, "c", 400), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
	KUNIT_EXPECT_EQ(test, latency_registry_modify(r, "c", 50), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 50);
	/* The middle moves to the top, which is then removed. */
	KUNIT_EXPECT_EQ(test, latency_registry_modify(r, "a", 500), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
	KUNIT_EXPECT_EQ(test, latency_registry_remove(r, "a"), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
	/* The bottom, then the last one. */
	KUNIT_EXPECT_EQ(test, latency_registry_remove(r, "c"), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 200);
	KUNIT_EXPECT_EQ(test, latency_registry_remove(r, "b"), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), INFINITE_LATENCY);
}

static void latency_listing_only_unconstrained(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	struct seq_file m = { };

	new_seq(test, &m);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "idle", INFINITE_LATENCY,
						   NULL), 0);
	latency_registry_show(r, &m);
	/* A holder of "no constraint" sets nothing. */
	KUNIT_EXPECT_STREQ(test, m.buf,
			   want_listing(test, "idle 1000000 all - -\n", 1000000,
					"-"));
}

/* Somebody else adds the same name while the first caller allocates. */
static struct latency_constraint *latency_test_alloc_races(size_t len, gfp_t gfp)
{
	struct kunit *test = kunit_get_current_test();

	kunit_deactivate_static_stub(test, latency_alloc);
	KUNIT_EXPECT_EQ(test, latency_registry_set(reg(test), "a", 50, NULL), 0);
	return latency_alloc(len, gfp);
}

static void latency_set_race_same_name_one_entry(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	kunit_activate_static_stub(test, latency_alloc, latency_test_alloc_races);
	KUNIT_EXPECT_EQ(test, latency_registry_set(r, "a", 100, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_count(r), 1U);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "a"), 100);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
	KUNIT_EXPECT_EQ(test, ctx(test)->calls, 2);
	KUNIT_EXPECT_EQ(test, ctx(test)->last, 100);
}

/* A request takes the name while set allocates: set gives up. */
static struct latency_constraint *
latency_test_alloc_request_races(size_t len, gfp_t gfp)
{
	struct kunit *test = kunit_get_current_test();

	kunit_deactivate_static_stub(test, latency_alloc);
	KUNIT_EXPECT_EQ(test, add_req(reg(test), new_req(test), "a", 50), 0);
	return latency_alloc(len, gfp);
}

static void latency_set_race_request_keeps_name(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	kunit_activate_static_stub(test, latency_alloc,
				   latency_test_alloc_request_races);
	kunit_info(test, "no new warning (once): set of a name a request took\n");
	KUNIT_EXPECT_EQ(test, latency_registry_set(r, "a", 100, NULL), -EBUSY);
	KUNIT_EXPECT_EQ(test, latency_count(r), 1U);
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "a"), 50);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
}

static void latency_kernel_param_parses(struct kunit *test)
{
	/* sysfs_emit() wants the page sysfs gives a getter. */
	char *old = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, old);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_GT(test, latency_kernel_param_get(old, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_kernel_param_set("off", NULL), 0);
	latency_kernel_param_get(buf, NULL);
	KUNIT_EXPECT_STREQ(test, buf, "off\n");
	KUNIT_EXPECT_EQ(test, latency_kernel_param_set("500", NULL), 0);
	latency_kernel_param_get(buf, NULL);
	KUNIT_EXPECT_STREQ(test, buf, "500\n");
	KUNIT_EXPECT_EQ(test, latency_kernel_param_set("2000000", NULL), 0);
	latency_kernel_param_get(buf, NULL);
	KUNIT_EXPECT_STREQ(test, buf, "1000000\n");
	KUNIT_EXPECT_EQ(test, latency_kernel_param_set("-1", NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, latency_kernel_param_set("12x", NULL), -EINVAL);
	latency_kernel_param_get(buf, NULL);
	KUNIT_EXPECT_STREQ(test, buf, "1000000\n");
	KUNIT_EXPECT_EQ(test, latency_kernel_param_set(old, NULL), 0);
	latency_kernel_param_get(buf, NULL);
	KUNIT_EXPECT_STREQ(test, buf, old);
}

/*
 * The built-in "kernel" holder only where the tick loses count of the
 * periods an interrupt was late for (no CONFIG_TICK_ONESHOT); the test
 * config's tick is periodic, so the other kind is checked on the function.
 */
static void latency_kernel_default_follows_tick(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, latency_kernel_default(false),
			(int)(2 * USEC_PER_SEC / HZ));
	KUNIT_EXPECT_EQ(test, latency_kernel_default(true), -1);
	/* What this boot holds (the test boot passes no latency.kernel=). */
	if (IS_ENABLED(CONFIG_TICK_ONESHOT))
		KUNIT_EXPECT_EQ(test, latency_registry_get(&latency_system,
							   "kernel"), -ENOENT);
	else
		KUNIT_EXPECT_EQ(test, latency_registry_get(&latency_system,
							   "kernel"),
				(int)(2 * USEC_PER_SEC / HZ));
}

/*
 * Stress: one thread per CPU doing random set/modify/remove/query on a
 * shared set of names and add/update/remove of a request of its own, and
 * an hrtimer doing modify/remove from hard interrupt context, for a fixed
 * number of operations.
 */
#define STRESS_NAMES	16
#define STRESS_OPS	20000

struct latency_stress {
	struct latency_registry *r;
	struct latency_request *reqs;	/* one per CPU, its thread's own */
	char (*req_names)[8];
	struct hrtimer timer;
	struct rnd_state rnd;		/* the timer's: no lock in hard irq */
	atomic_t ops;
	atomic_t irq_ops;
	atomic_t bad;
	atomic_t running;
	struct completion done;
	bool stop;
};

static const char * const stress_names[STRESS_NAMES] = {
	"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7",
	"s8", "s9", "s10", "s11", "s12", "s13", "s14", "s15",
};

static enum hrtimer_restart latency_stress_timer(struct hrtimer *t)
{
	struct latency_stress *st = container_of(t, struct latency_stress,
						 timer);
	/*
	 * get_random_*() takes a local lock, which sleeps on PREEMPT_RT:
	 * hard interrupt context has the lockless prandom state instead.
	 */
	u32 rnd = prandom_u32_state(&st->rnd);
	const char *name = stress_names[rnd % STRESS_NAMES];
	int ret;

	if ((rnd >> 4) % 4)
		ret = latency_registry_modify(st->r, name, (rnd >> 8) % 2000);
	else
		ret = latency_registry_remove(st->r, name);
	if (ret && ret != -ENOENT)
		atomic_inc(&st->bad);
	atomic_inc(&st->irq_ops);
	if (READ_ONCE(st->stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(50 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* The calling thread's own request: it is bound to its CPU. */
static int latency_stress_request(struct latency_stress *st)
{
	unsigned int cpu = raw_smp_processor_id();
	struct latency_request *req = &st->reqs[cpu];

	if (!latency_test_held(req))
		return add_req(st->r, req, st->req_names[cpu],
			       get_random_u32_below(2000));
	if (get_random_u32_below(2))
		return latency_registry_update_request(st->r, req,
						       get_random_u32_below(2000));
	return latency_registry_remove_request(st->r, req);
}

static int latency_stress_thread(void *data)
{
	struct latency_stress *st = data;
	int i, v, ret = 0;

	for (i = 0; i < STRESS_OPS; i++) {
		const char *name = stress_names[get_random_u32_below(STRESS_NAMES)];

		switch (get_random_u32_below(5)) {
		case 0:
			ret = latency_registry_set(st->r, name,
						   get_random_u32_below(2000),
						   NULL);
			break;
		case 1:
			ret = latency_registry_modify(st->r, name,
						      get_random_u32_below(2000));
			break;
		case 2:
			ret = latency_registry_remove(st->r, name);
			break;
		case 3:
			ret = latency_stress_request(st);
			break;
		default:
			v = latency_registry_value(st->r);
			ret = v < 0 || v > INFINITE_LATENCY ? -ERANGE : 0;
		}
		if (ret && ret != -ENOENT)
			atomic_inc(&st->bad);
		atomic_inc(&st->ops);
		if (!(i % 256))
			cond_resched();
	}
	if (atomic_dec_and_test(&st->running))
		complete(&st->done);
	return 0;
}

static void latency_stress_concurrent(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	struct task_struct **threads;
	struct latency_stress *st;
	unsigned int inconsistent;
	int cpu, n = 0, i;

	st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	threads = kunit_kcalloc(test, nr_cpu_ids, sizeof(*threads), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, st);
	KUNIT_ASSERT_NOT_NULL(test, threads);
	st->reqs = kunit_kcalloc(test, nr_cpu_ids, sizeof(*st->reqs), GFP_KERNEL);
	st->req_names = kunit_kcalloc(test, nr_cpu_ids, sizeof(*st->req_names),
				      GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, st->reqs);
	KUNIT_ASSERT_NOT_NULL(test, st->req_names);
	for_each_possible_cpu(cpu)
		snprintf(st->req_names[cpu], sizeof(st->req_names[cpu]), "h%d",
			 cpu);
	st->r = r;
	init_completion(&st->done);

	for_each_online_cpu(cpu) {
		threads[n] = kthread_create_on_cpu(latency_stress_thread, st, cpu,
						   "latency_stress/%u");
		if (IS_ERR(threads[n]))
			break;
		get_task_struct(threads[n]);
		n++;
	}
	KUNIT_ASSERT_GT(test, n, 0);
	atomic_set(&st->running, n);

	prandom_seed_state(&st->rnd, get_random_u64());
	hrtimer_init(&st->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	st->timer.function = latency_stress_timer;
	hrtimer_start(&st->timer, ns_to_ktime(50 * NSEC_PER_USEC), HRTIMER_MODE_REL_HARD);
	for (i = 0; i < n; i++)
		wake_up_process(threads[i]);
	wait_for_completion(&st->done);
	for (i = 0; i < n; i++)
		kthread_stop_put(threads[i]);
	WRITE_ONCE(st->stop, true);
	hrtimer_cancel(&st->timer);
	latency_registry_flush(r);

	inconsistent = latency_registry_check(r);
	kunit_info(test, "%d threads: %d operations, %d from hard irq, %u inconsistencies, %d errors\n",
		   n, atomic_read(&st->ops), atomic_read(&st->irq_ops),
		   inconsistent, atomic_read(&st->bad));
	KUNIT_EXPECT_GT(test, n, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->ops), n * STRESS_OPS);
	KUNIT_EXPECT_GT(test, atomic_read(&st->irq_ops), 0);
	KUNIT_EXPECT_EQ(test, inconsistent, 0U);
	KUNIT_EXPECT_EQ(test, atomic_read(&st->bad), 0);
	KUNIT_EXPECT_LE(test, latency_count(r), (unsigned int)(STRESS_NAMES + n));
	/* The last notification carried the final value. */
	KUNIT_EXPECT_EQ(test, ctx(test)->last == -1 ?
			INFINITE_LATENCY : ctx(test)->last,
			latency_registry_value(r));
}

/* The exported API on the system registry. */

static void latency_system_set_modify_remove(struct kunit *test)
{
	int base = system_latency_constraint();

	KUNIT_ASSERT_GT(test, base, 175);
	KUNIT_ASSERT_EQ(test, set_acceptable_latency(KTEST_ID, base - 1), 0);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), base - 1);
	KUNIT_EXPECT_EQ(test, modify_acceptable_latency(KTEST_ID, 100), 0);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), 100);
	KUNIT_EXPECT_EQ(test, modify_acceptable_latency(KTEST_ID ":none", 1),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), 100);
	KUNIT_EXPECT_EQ(test, remove_acceptable_latency(KTEST_ID), 0);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), base);
	KUNIT_EXPECT_EQ(test, remove_acceptable_latency(KTEST_ID), -ENOENT);
	KUNIT_EXPECT_EQ(test, latency_registry_check(&latency_system), 0U);
}

static void latency_system_ipw2100_life_cycle(struct kunit *test)
{
	int base = system_latency_constraint();

	KUNIT_ASSERT_GT(test, base, 175);
	KUNIT_ASSERT_EQ(test, set_acceptable_latency(KTEST_ID ":ipw",
						     INFINITE_LATENCY), 0);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), base);
	KUNIT_ASSERT_EQ(test, modify_acceptable_latency(KTEST_ID ":ipw", 175),
			0);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), 175);
	KUNIT_ASSERT_EQ(test, modify_acceptable_latency(KTEST_ID ":ipw",
							INFINITE_LATENCY), 0);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), base);
	KUNIT_ASSERT_EQ(test, remove_acceptable_latency(KTEST_ID ":ipw"), 0);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), base);
}

static void latency_system_request(struct kunit *test)
{
	struct latency_request *req = &((struct latency_test_ctx *)test->priv)->req;
	int base = system_latency_constraint();

	KUNIT_ASSERT_GT(test, base, 175);
	KUNIT_ASSERT_EQ(test, latency_request_init(req, KTEST_ID ":req"), 0);
	KUNIT_ASSERT_EQ(test, latency_request_add(req, INFINITE_LATENCY), 0);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), base);
	KUNIT_EXPECT_EQ(test, latency_request_update(req, 175), 0);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), 175);
	KUNIT_EXPECT_EQ(test, latency_request_update(req, INFINITE_LATENCY), 0);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), base);
	KUNIT_EXPECT_EQ(test, latency_request_remove(req), 0);
	KUNIT_EXPECT_FALSE(test, latency_test_held(req));
	KUNIT_EXPECT_EQ(test, latency_registry_check(&latency_system), 0U);
}

/*
 * The exit latency @cpu publishes for its idle state once it settles: a
 * CPU that published a state just after a change demotes itself a few
 * instructions later, but a vCPU of QEMU TCG on a loaded host can wait
 * milliseconds between two instructions (seen: 20 ms).  Polled for up to
 * 100 ms, as the torture test does; a CPU really asleep too deep (the
 * arm64 guest's retention state, tickless) stays there far longer.
 */
static u64 latency_idle_settled(int cpu, u32 limit_ns)
{
	ktime_t end = ktime_add_ms(ktime_get(), 100);
	u64 exit_ns;

	while ((exit_ns = latency_idle_exit_ns(cpu)) > limit_ns &&
	       ktime_before(ktime_get(), end))
		udelay(1);
	return exit_ns;
}

/*
 * When set_acceptable_latency() returns, no CPU is idle in a state deeper
 * than the new value, whichever cpuidle driver runs; the same after
 * modify_acceptable_latency() and synchronize_acceptable_latency().  The
 * other CPUs are left to sleep as deep as they like first.  Without the
 * wake-up a CPU in a deeper state would stay there until its next timer.
 * With a periodic tick that is a tick away, within the poll: nothing here
 * could fail, so the case is skipped (the x86 guest's HZ_PERIODIC); a
 * tickless CPU sleeps on for far longer (the arm64 guest's).
 */
static void latency_system_in_effect_on_return(struct kunit *test)
{
	const u32 limit_ns = 10 * NSEC_PER_USEC;
	int round, cpu, ret, deep = 0;

	if (!IS_ENABLED(CONFIG_NO_HZ_COMMON))
		kunit_skip(test, "periodic tick: a CPU too deep wakes within the poll");
	for (round = 0; round < 20; round++) {
		msleep(20);
		for_each_online_cpu(cpu)
			deep += latency_idle_exit_ns(cpu) > limit_ns;
		if (round & 1) {
			ret = set_acceptable_latency(KTEST_ID, INFINITE_LATENCY) ?:
			      modify_acceptable_latency(KTEST_ID, 10);
			synchronize_acceptable_latency();
		} else {
			ret = set_acceptable_latency(KTEST_ID, 10);
		}
		KUNIT_ASSERT_EQ(test, ret, 0);
		for_each_online_cpu(cpu)
			KUNIT_EXPECT_LE_MSG(test,
					    latency_idle_settled(cpu, limit_ns),
					    limit_ns, "CPU%d, round %d", cpu,
					    round);
		KUNIT_ASSERT_EQ(test, remove_acceptable_latency(KTEST_ID), 0);
	}
	synchronize_acceptable_latency();
	kunit_info(test, "%d times a CPU was idle deeper than 10 us before the change\n",
		   deep);
}

static void latency_system_notifier(struct kunit *test)
{
	struct latency_test_listener *l = &((struct latency_test_ctx *)test->priv)->sys;
	int base = system_latency_constraint();

	KUNIT_ASSERT_GT(test, base, 175);
	KUNIT_ASSERT_EQ(test, register_latency_notifier(&l->nb), 0);
	KUNIT_ASSERT_EQ(test, set_acceptable_latency(KTEST_ID, 150), 0);
	/* set delivers before it returns. */
	KUNIT_EXPECT_EQ(test, l->calls, 1);
	KUNIT_EXPECT_EQ(test, l->last, 150);
	KUNIT_ASSERT_EQ(test, remove_acceptable_latency(KTEST_ID), 0);
	synchronize_acceptable_latency();
	KUNIT_EXPECT_EQ(test, l->last, base);
	KUNIT_EXPECT_EQ(test, unregister_latency_notifier(&l->nb), 0);
	KUNIT_EXPECT_EQ(test, unregister_latency_notifier(&l->nb), -ENOENT);
}

/*
 * With no notifier registered a change queues no work; one registered
 * afterwards is told of the next change, even of one back to the value
 * that was last delivered before it came.
 */
static void latency_system_notifier_registered_late(struct kunit *test)
{
	struct latency_test_listener *l = &((struct latency_test_ctx *)test->priv)->sys;
	int base = system_latency_constraint();

	if (rcu_access_pointer(latency_system.notifiers.head))
		kunit_skip(test, "a latency notifier is registered");
	KUNIT_ASSERT_GT(test, base, 150);
	latency_registry_flush(&latency_system);
	KUNIT_ASSERT_EQ(test, set_acceptable_latency(KTEST_ID, 150), 0);
	KUNIT_ASSERT_EQ(test, modify_acceptable_latency(KTEST_ID, 140), 0);
	KUNIT_EXPECT_FALSE(test, work_pending(&latency_system.work));
	KUNIT_ASSERT_EQ(test, register_latency_notifier(&l->nb), 0);
	KUNIT_ASSERT_EQ(test, remove_acceptable_latency(KTEST_ID), 0);
	latency_registry_flush(&latency_system);
	KUNIT_EXPECT_EQ(test, l->calls, 1);
	KUNIT_EXPECT_EQ(test, l->last, base);
	KUNIT_EXPECT_EQ(test, unregister_latency_notifier(&l->nb), 0);
}

/*
 * The CPU latency QoS of PM QoS, which runs on the system registry: its 6.12
 * semantics case by case, and one value for every kind of holder.
 */

struct latency_qos_ctx {
	struct pm_qos_request qos[2];
	struct latency_request req;
	int kernel;		/* the "kernel" holder's value, lifted; or -1 */
};

static void latency_qos_cleanup(void *data)
{
	struct latency_qos_ctx *q = data;
	int i;

	for (i = 0; i < ARRAY_SIZE(q->qos); i++)
		if (cpu_latency_qos_request_active(&q->qos[i]))
			cpu_latency_qos_remove_request(&q->qos[i]);
	if (latency_request_active(&q->req))
		latency_request_remove(&q->req);
	remove_acceptable_latency(KTEST_ID ":qos");
	if (q->kernel >= 0)
		set_acceptable_latency("kernel", q->kernel);
	latency_registry_flush(&latency_system);
}

/* With @alone, the "kernel" holder is lifted for the test: none is left. */
static struct latency_qos_ctx *qos_ctx(struct kunit *test, bool alone)
{
	struct latency_qos_ctx *q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, q);
	q->kernel = -1;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							latency_qos_cleanup, q),
			0);
	if (!alone)
		return q;
	q->kernel = latency_registry_get(&latency_system, "kernel");
	if (q->kernel >= 0)
		KUNIT_ASSERT_EQ(test, remove_acceptable_latency("kernel"), 0);
	else
		q->kernel = -1;
	if (system_latency_constraint() != INFINITE_LATENCY)
		kunit_skip(test, "a holder besides \"kernel\" constrains the system");
	return q;
}

/* The two views of one value agree; @usecs is the registry's. */
static void expect_both(struct kunit *test, int usecs)
{
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), usecs);
	KUNIT_EXPECT_EQ(test, cpu_latency_qos_limit(),
			usecs < INFINITE_LATENCY ? usecs :
			PM_QOS_CPU_LATENCY_DEFAULT_VALUE);
}

/*
 * A CPU latency QoS request in memory nobody initialised (on the stack, as
 * i915's selftests declare one) is added, listed and removed as in 6.12,
 * where a request is held only when it points to the constraints: garbage
 * practically never does.  Removing one that was never added warns and
 * changes nothing.
 */
static void latency_qos_uninitialised_request(struct kunit *test)
{
	struct latency_qos_ctx *q = qos_ctx(test, false);
	int base = system_latency_constraint();

	memset(&q->qos[0], 0xa5, sizeof(q->qos[0]));
	KUNIT_EXPECT_FALSE(test, cpu_latency_qos_request_active(&q->qos[0]));
	cpu_latency_qos_add_request(&q->qos[0], 7);
	KUNIT_EXPECT_TRUE(test, cpu_latency_qos_request_active(&q->qos[0]));
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), min(base, 7));
	KUNIT_EXPECT_EQ(test, latency_registry_check(&latency_system), 0U);
	cpu_latency_qos_remove_request(&q->qos[0]);
	KUNIT_EXPECT_FALSE(test, cpu_latency_qos_request_active(&q->qos[0]));
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), base);

	memset(&q->qos[1], 0x5a, sizeof(q->qos[1]));
	kunit_info(test, "expect a warning: removal of a request never added\n");
	cpu_latency_qos_remove_request(&q->qos[1]);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), base);
	KUNIT_EXPECT_EQ(test, latency_registry_check(&latency_system), 0U);
	memset(&q->qos[1], 0, sizeof(q->qos[1]));
	kunit_info(test, "struct pm_qos_request: %zu bytes (48 in 6.12)\n",
		   sizeof(struct pm_qos_request));
}

static void latency_qos_limit_is_the_system_value(struct kunit *test)
{
	struct latency_qos_ctx *q = qos_ctx(test, true);

	expect_both(test, INFINITE_LATENCY);
	cpu_latency_qos_add_request(&q->qos[0], INFINITE_LATENCY - 1);
	expect_both(test, INFINITE_LATENCY - 1);
	/* The boundary: 1 s and more is "no constraint" in both. */
	cpu_latency_qos_update_request(&q->qos[0], INFINITE_LATENCY);
	expect_both(test, INFINITE_LATENCY);
	cpu_latency_qos_update_request(&q->qos[0], 0);
	expect_both(test, 0);
	cpu_latency_qos_update_request(&q->qos[0], S32_MAX);
	expect_both(test, INFINITE_LATENCY);
	cpu_latency_qos_remove_request(&q->qos[0]);
	expect_both(test, INFINITE_LATENCY);
	KUNIT_EXPECT_EQ(test, latency_registry_check(&latency_system), 0U);
}

static void latency_qos_default_value(struct kunit *test)
{
	struct latency_qos_ctx *q = qos_ctx(test, false);
	int base = system_latency_constraint();

	KUNIT_ASSERT_GT(test, base, 40);
	/* PM_QOS_DEFAULT_VALUE on add: a request that constrains nothing. */
	cpu_latency_qos_add_request(&q->qos[0], PM_QOS_DEFAULT_VALUE);
	KUNIT_EXPECT_TRUE(test, cpu_latency_qos_request_active(&q->qos[0]));
	expect_both(test, base);
	cpu_latency_qos_update_request(&q->qos[0], 40);
	expect_both(test, 40);
	/* ... and on update: the request stays, its constraint goes. */
	cpu_latency_qos_update_request(&q->qos[0], PM_QOS_DEFAULT_VALUE);
	KUNIT_EXPECT_TRUE(test, cpu_latency_qos_request_active(&q->qos[0]));
	expect_both(test, base);
	cpu_latency_qos_remove_request(&q->qos[0]);
	KUNIT_EXPECT_FALSE(test, cpu_latency_qos_request_active(&q->qos[0]));
	/* Removal zeroes the request, which can be added again. */
	KUNIT_EXPECT_NULL(test, memchr_inv(&q->qos[0], 0, sizeof(q->qos[0])));
	cpu_latency_qos_add_request(&q->qos[0], 30);
	expect_both(test, 30);
}

static void latency_qos_invalid_value_ignored(struct kunit *test)
{
	struct latency_qos_ctx *q = qos_ctx(test, false);
	int base = system_latency_constraint();

	KUNIT_ASSERT_GT(test, base, 30);
	cpu_latency_qos_add_request(&q->qos[0], -5);
	KUNIT_EXPECT_FALSE(test, cpu_latency_qos_request_active(&q->qos[0]));
	expect_both(test, base);
	cpu_latency_qos_add_request(&q->qos[0], 30);
	cpu_latency_qos_update_request(&q->qos[0], -2);
	expect_both(test, 30);
	cpu_latency_qos_update_request(&q->qos[0], INT_MIN);
	expect_both(test, 30);
	/* NULL is ignored by every call, as in 6.12. */
	cpu_latency_qos_add_request(NULL, 10);
	cpu_latency_qos_update_request(NULL, 10);
	cpu_latency_qos_remove_request(NULL);
	expect_both(test, 30);
}

static void latency_qos_misuse_warns_and_changes_nothing(struct kunit *test)
{
	struct latency_qos_ctx *q = qos_ctx(test, false);
	int base = system_latency_constraint();

	KUNIT_ASSERT_GT(test, base, 50);
	cpu_latency_qos_add_request(&q->qos[0], 50);
	kunit_info(test, "expect a warning: PM QoS request added twice\n");
	cpu_latency_qos_add_request(&q->qos[0], 20);
	expect_both(test, 50);
	kunit_info(test, "expect a warning: PM QoS update of a request not added\n");
	cpu_latency_qos_update_request(&q->qos[1], 20);
	expect_both(test, 50);
	kunit_info(test, "expect a warning: PM QoS removal of a request not added\n");
	cpu_latency_qos_remove_request(&q->qos[1]);
	expect_both(test, 50);
	KUNIT_EXPECT_EQ(test, latency_registry_check(&latency_system), 0U);
}

static void latency_qos_mixed_holders_one_value(struct kunit *test)
{
	struct latency_qos_ctx *q = qos_ctx(test, false);
	int base = system_latency_constraint();

	KUNIT_ASSERT_GT(test, base, 300);
	KUNIT_ASSERT_EQ(test, set_acceptable_latency(KTEST_ID ":qos", 300), 0);
	KUNIT_ASSERT_EQ(test, latency_request_init(&q->req, KTEST_ID ":qreq"),
			0);
	KUNIT_ASSERT_EQ(test, latency_request_add(&q->req, 200), 0);
	cpu_latency_qos_add_request(&q->qos[0], 100);
	cpu_latency_qos_add_request(&q->qos[1], 150);
	expect_both(test, 100);
	/* A named holder goes below PM QoS, and PM QoS sees it. */
	KUNIT_EXPECT_EQ(test, modify_acceptable_latency(KTEST_ID ":qos", 50), 0);
	expect_both(test, 50);
	KUNIT_EXPECT_EQ(test, modify_acceptable_latency(KTEST_ID ":qos", 300), 0);
	cpu_latency_qos_remove_request(&q->qos[0]);
	expect_both(test, 150);
	cpu_latency_qos_remove_request(&q->qos[1]);
	expect_both(test, 200);
	KUNIT_EXPECT_EQ(test, latency_request_remove(&q->req), 0);
	expect_both(test, 300);
	KUNIT_EXPECT_EQ(test, remove_acceptable_latency(KTEST_ID ":qos"), 0);
	expect_both(test, base);
	KUNIT_EXPECT_EQ(test, latency_registry_check(&latency_system), 0U);
}

/* The listing names a PM QoS request by the function that added it. */
/*
 * CPU latency QoS requests of one value are ordered as they were added,
 * by a serial number that does not wrap: after 2^32 adds the next request
 * still sorts after the older ones (and the tree stays ordered).
 */
static void latency_qos_serial_does_not_wrap(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	struct latency_request *a = new_req(test), *b = new_req(test);
	unsigned long here = (unsigned long)latency_qos_serial_does_not_wrap;

	r->serial = U32_MAX - 1;
	KUNIT_ASSERT_EQ(test, latency_registry_add_qos(r, a, 70, here), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_add_qos(r, b, 70, here), 0);
	KUNIT_EXPECT_LT(test, a->serial, b->serial);
	KUNIT_EXPECT_PTR_EQ(test, rb_first_cached(&r->all), &a->rbnode);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
	KUNIT_EXPECT_EQ(test, latency_registry_remove_request(r, a), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_remove_request(r, b), 0);
}

/*
 * Among the holders of its value, a new request lands after the named ones
 * and the older requests, as latency_less() orders them, whatever their
 * order of adding.
 */
static void latency_qos_added_among_equals(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	struct latency_request *a = new_req(test), *b = new_req(test);
	unsigned long here = (unsigned long)latency_qos_added_among_equals;
	const char *const names[] = { "n", "m", "z", NULL, NULL, "big" };
	struct latency_request *req;
	struct rb_node *node;
	unsigned int i = 0;

	KUNIT_ASSERT_EQ(test, latency_registry_set_cpus(r, "big", 80, NULL, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set_cpus(r, "m", 70, NULL, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_add_qos(r, a, 70, here), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set_cpus(r, "z", 70, NULL, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_add_qos(r, b, 70, here), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set_cpus(r, "n", 60, NULL, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
	for (node = rb_first_cached(&r->all); node && i < ARRAY_SIZE(names);
	     node = rb_next(node), i++) {
		req = rb_entry(node, struct latency_request, rbnode);
		if (names[i])
			KUNIT_EXPECT_STREQ(test, req->identifier ?: "-", names[i]);
		else
			KUNIT_EXPECT_PTR_EQ(test, req, i == 3 ? a : b);
	}
	KUNIT_EXPECT_EQ(test, i, ARRAY_SIZE(names));
	KUNIT_EXPECT_NULL(test, node);
	KUNIT_EXPECT_EQ(test, latency_registry_remove_request(r, a), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_remove_request(r, b), 0);
}

static void latency_qos_listed_by_caller(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	struct latency_request *a = new_req(test), *b = new_req(test);
	unsigned long here = (unsigned long)latency_qos_listed_by_caller;
	struct seq_file m = {};
	char want[128];

	new_seq(test, &m);
	KUNIT_ASSERT_EQ(test, latency_registry_add_qos(r, a, 70, here), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_add_qos(r, b, 70, here), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "named", 70, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
	latency_registry_show(r, &m);
	/* Named holders first at one value, then requests as added. */
	snprintf(want, sizeof(want), "named 70 all - -\npm_qos:%s", __func__);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(m.buf, want), "%s", m.buf);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(m.buf, "# system 70 named\n"),
				  "%s", m.buf);
	KUNIT_EXPECT_EQ(test, latency_registry_remove(r, "named"), 0);
	m.count = 0;
	memset(m.buf, 0, m.size);
	latency_registry_show(r, &m);
	snprintf(want, sizeof(want), "# system 70 pm_qos:%s", __func__);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(m.buf, want), "%s", m.buf);
	/* The named calls never reach a request without a name. */
	KUNIT_EXPECT_EQ(test, latency_registry_modify(r, "pm_qos", 1), -ENOENT);
	KUNIT_EXPECT_EQ(test, latency_registry_remove_request(r, a), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_remove_request(r, b), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), INFINITE_LATENCY);
}

/* And on the system registry, by the caller of cpu_latency_qos_add_request(). */
static void latency_qos_system_listing_names_caller(struct kunit *test)
{
	struct latency_qos_ctx *q = qos_ctx(test, false);
	struct seq_file m = {};
	char want[128];

	new_seq(test, &m);
	cpu_latency_qos_add_request(&q->qos[0], 60);
	latency_registry_show(&latency_system, &m);
	snprintf(want, sizeof(want), "pm_qos:%s", __func__);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(m.buf, want), "%s", m.buf);
}

#define WAKE_US(us)	((s64)(us) * NSEC_PER_USEC)
#define WAKE_NONE	S64_MAX		/* no constraint */

/* Which idle CPUs a change of the system value interrupts: one at a time. */
static void latency_idle_decide_tighten(struct kunit *test)
{
	/* In C3 (200 us): a new value below 200 us wakes it... */
	KUNIT_EXPECT_EQ(test, LATENCY_WAKE_DEEP,
			latency_idle_decide(WAKE_NONE, WAKE_US(150),
					    WAKE_US(200), 0));
	KUNIT_EXPECT_EQ(test, LATENCY_WAKE_DEEP,
			latency_idle_decide(WAKE_US(500), WAKE_US(0),
					    WAKE_US(200), 0));
	/* ...one nanosecond below too... */
	KUNIT_EXPECT_EQ(test, LATENCY_WAKE_DEEP,
			latency_idle_decide(WAKE_NONE, WAKE_US(200) - 1,
					    WAKE_US(200), 0));
	/* ...but 200 us itself is allowed, and so is anything above. */
	KUNIT_EXPECT_EQ(test, LATENCY_WAKE_NONE,
			latency_idle_decide(WAKE_NONE, WAKE_US(200),
					    WAKE_US(200), 0));
	KUNIT_EXPECT_EQ(test, LATENCY_WAKE_NONE,
			latency_idle_decide(WAKE_NONE, WAKE_US(400),
					    WAKE_US(200), 0));
	/* In C2 (20 us) with C3 next: tightening to 150 us leaves it be. */
	KUNIT_EXPECT_EQ(test, LATENCY_WAKE_NONE,
			latency_idle_decide(WAKE_US(300), WAKE_US(150),
					    WAKE_US(20), WAKE_US(200)));
}

static void latency_idle_decide_relax(struct kunit *test)
{
	/* In C2 with C3 (200 us) next: a change that now allows C3 wakes it. */
	KUNIT_EXPECT_EQ(test, LATENCY_WAKE_SHALLOW,
			latency_idle_decide(WAKE_US(150), WAKE_US(200),
					    WAKE_US(20), WAKE_US(200)));
	KUNIT_EXPECT_EQ(test, LATENCY_WAKE_SHALLOW,
			latency_idle_decide(WAKE_US(150), WAKE_NONE,
					    WAKE_US(20), WAKE_US(200)));
	/* C3 was allowed before, or is not allowed yet: no wake-up. */
	KUNIT_EXPECT_EQ(test, LATENCY_WAKE_NONE,
			latency_idle_decide(WAKE_US(300), WAKE_US(400),
					    WAKE_US(20), WAKE_US(200)));
	KUNIT_EXPECT_EQ(test, LATENCY_WAKE_NONE,
			latency_idle_decide(WAKE_US(50), WAKE_US(150),
					    WAKE_US(20), WAKE_US(200)));
	/* The deepest state has no next one. */
	KUNIT_EXPECT_EQ(test, LATENCY_WAKE_NONE,
			latency_idle_decide(WAKE_US(150), WAKE_NONE,
					    WAKE_US(200), 0));
	/* No change at all (synchronize_acceptable_latency()). */
	KUNIT_EXPECT_EQ(test, LATENCY_WAKE_NONE,
			latency_idle_decide(WAKE_US(150), WAKE_US(150),
					    WAKE_US(20), WAKE_US(200)));
}

static void latency_idle_decide_not_idle(struct kunit *test)
{
	/* A CPU not idle publishes 0, 0: no change ever concerns it. */
	KUNIT_EXPECT_EQ(test, LATENCY_WAKE_NONE,
			latency_idle_decide(WAKE_NONE, WAKE_US(0), 0, 0));
	KUNIT_EXPECT_EQ(test, LATENCY_WAKE_NONE,
			latency_idle_decide(WAKE_US(0), WAKE_NONE, 0, 0));
	/* Polling (exit latency 0) is never too deep; HLT next may be woken. */
	KUNIT_EXPECT_EQ(test, LATENCY_WAKE_NONE,
			latency_idle_decide(WAKE_US(5), WAKE_US(0), 0,
					    WAKE_US(1)));
	KUNIT_EXPECT_EQ(test, LATENCY_WAKE_SHALLOW,
			latency_idle_decide(WAKE_US(0), WAKE_US(5), 0,
					    WAKE_US(1)));
	/* A state above U32_MAX ns is published as U32_MAX: still too deep. */
	KUNIT_EXPECT_EQ(test, LATENCY_WAKE_DEEP,
			latency_idle_decide(WAKE_NONE,
					    WAKE_US(INFINITE_LATENCY - 1),
					    U32_MAX, 0));
}

/* The last possible CPU: a test names it alone, CPU 0 being the other. */
static int last_cpu(void)
{
	return cpumask_last(cpu_possible_mask);
}

/* Each CPU's limit, as @r publishes it, is @cpu0 on CPU 0, @rest elsewhere. */
static void expect_cpus(struct kunit *test, struct latency_registry *r,
			int cpu0, int rest)
{
	int cpu;

	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ_MSG(test, latency_registry_cpu_value(r, cpu),
				    cpu ? rest : cpu0, "CPU%d", cpu);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
}

/*
 * A CPU's limit is the minimum of the constraints for all CPUs and of
 * those for a set that includes it; the system value, and the notifiers,
 * count only the former.
 */
static void latency_cpus_minimum_of_mixed_holders(struct kunit *test)
{
	struct latency_registry *r = reg(test);

	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "g", 100, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set_cpus(r, "c0", 50,
							cpumask_of(0), NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set_cpus(r, "every", 200,
							cpu_possible_mask,
							NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 100);
	KUNIT_EXPECT_EQ(test, ctx(test)->calls, 1);
	expect_cpus(test, r, 50, 100);

	/* A constraint for all CPUs below a CPU's own sets its limit... */
	KUNIT_ASSERT_EQ(test, latency_registry_modify(r, "g", 30), 0);
	expect_cpus(test, r, 30, 30);
	latency_registry_flush(r);
	KUNIT_EXPECT_EQ(test, ctx(test)->calls, 2);
	/* ...its own below that one, its own. */
	KUNIT_ASSERT_EQ(test, latency_registry_modify(r, "c0", 10), 0);
	expect_cpus(test, r, 10, 30);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 30);

	/* A set of every CPU is not a constraint for all: 200 is no system value. */
	KUNIT_ASSERT_EQ(test, latency_registry_remove(r, "g"), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), INFINITE_LATENCY);
	expect_cpus(test, r, 10, 200);
	latency_registry_flush(r);
	KUNIT_ASSERT_EQ(test, latency_registry_remove(r, "c0"), 0);
	expect_cpus(test, r, 200, 200);
	KUNIT_ASSERT_EQ(test, latency_registry_remove(r, "every"), 0);
	expect_cpus(test, r, INFINITE_LATENCY, INFINITE_LATENCY);
	latency_registry_flush(r);
	KUNIT_EXPECT_EQ(test, ctx(test)->calls, 3);
	KUNIT_EXPECT_EQ(test, ctx(test)->last, INFINITE_LATENCY);
}

/*
 * A set without a possible CPU is refused, by both forms, and changes
 * nothing; the impossible CPUs of a set that names a possible one are
 * dropped.
 */
static void latency_cpus_bad_sets_rejected(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	struct latency_request *req = new_req(test);
	struct cpumask *mask;

	mask = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mask);
	KUNIT_ASSERT_EQ(test, latency_request_init(req, "e"), 0);

	kunit_info(test, "expect a warning: a set without a possible CPU\n");
	KUNIT_EXPECT_EQ(test, latency_registry_set_cpus(r, "e", 10, mask, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, latency_registry_add_request(r, req, 10, mask),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, set_acceptable_latency_cpus(KTEST_ID, 10, mask),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, set_acceptable_latency_cpus(KTEST_ID, 10, NULL),
			-EINVAL);
	/* Room in the mask for a CPU number that is not possible. */
	if (cpumask_size() * BITS_PER_BYTE > nr_cpu_ids) {
		/* Only an impossible CPU. */
		__set_bit(nr_cpu_ids, cpumask_bits(mask));
		KUNIT_EXPECT_EQ(test, latency_registry_set_cpus(r, "e", 10, mask,
								NULL), -EINVAL);
		KUNIT_EXPECT_EQ(test, latency_registry_add_request(r, req, 10,
								   mask), -EINVAL);
	}
	KUNIT_EXPECT_EQ(test, latency_registry_get(r, "e"), -ENOENT);
	KUNIT_EXPECT_FALSE(test, latency_test_held(req));
	KUNIT_EXPECT_EQ(test, latency_registry_get(&latency_system, KTEST_ID),
			-ENOENT);
	expect_cpus(test, r, INFINITE_LATENCY, INFINITE_LATENCY);

	/* CPU 0 and an impossible one: CPU 0 only. */
	cpumask_set_cpu(0, mask);
	KUNIT_EXPECT_EQ(test, latency_registry_set_cpus(r, "e", 10, mask, NULL),
			0);
	expect_cpus(test, r, 10, INFINITE_LATENCY);
}

/*
 * set gives a held name a new value and a new set, set without one makes
 * it a constraint for all CPUs again; modify keeps the set.
 */
static void latency_cpus_set_moves_holder(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	int last = last_cpu();

	KUNIT_ASSERT_EQ(test, latency_registry_set_cpus(r, "h", 10,
							cpumask_of(0), NULL), 0);
	expect_cpus(test, r, 10, INFINITE_LATENCY);
	KUNIT_ASSERT_EQ(test, latency_registry_set_cpus(r, "h", 20,
							cpumask_of(last), NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_cpu_value(r, last), 20);
	if (last)
		KUNIT_EXPECT_EQ(test, latency_registry_cpu_value(r, 0),
				INFINITE_LATENCY);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
	KUNIT_ASSERT_EQ(test, latency_registry_modify(r, "h", 15), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_cpu_value(r, last), 15);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), INFINITE_LATENCY);

	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "h", 15, NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), 15);
	expect_cpus(test, r, 15, 15);
	KUNIT_ASSERT_EQ(test, latency_registry_set_cpus(r, "h", 15,
							cpumask_of(0), NULL), 0);
	KUNIT_EXPECT_EQ(test, latency_registry_value(r), INFINITE_LATENCY);
	expect_cpus(test, r, 15, INFINITE_LATENCY);
	KUNIT_ASSERT_EQ(test, latency_registry_remove(r, "h"), 0);
	expect_cpus(test, r, INFINITE_LATENCY, INFINITE_LATENCY);
}

/* A request handle for some CPUs: added, updated, removed, added for all. */
static void latency_cpus_request(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	struct latency_request *req = new_req(test);

	KUNIT_ASSERT_EQ(test, latency_request_init(req, "r"), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_add_request(r, req, 40,
							   cpumask_of(0)), 0);
	expect_cpus(test, r, 40, INFINITE_LATENCY);
	KUNIT_EXPECT_EQ(test, latency_registry_update_request(r, req, 15), 0);
	expect_cpus(test, r, 15, INFINITE_LATENCY);
	KUNIT_EXPECT_EQ(test, latency_registry_update_request(r, req, 900), 0);
	expect_cpus(test, r, 900, INFINITE_LATENCY);
	KUNIT_EXPECT_EQ(test, latency_registry_remove_request(r, req), 0);
	KUNIT_EXPECT_FALSE(test, latency_test_held(req));
	KUNIT_EXPECT_NULL(test, req->cpus);
	expect_cpus(test, r, INFINITE_LATENCY, INFINITE_LATENCY);
	KUNIT_EXPECT_EQ(test, latency_registry_add_request(r, req, 40, NULL), 0);
	expect_cpus(test, r, 40, 40);
	KUNIT_EXPECT_EQ(test, latency_registry_remove_request(r, req), 0);
}

/*
 * The listing shows each holder's CPUs, and each CPU's limit with the
 * holder that sets it.
 */
static void latency_cpus_listing(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	size_t size = 256 + 48 * num_possible_cpus();
	char *want = kunit_kzalloc(test, size, GFP_KERNEL);
	int last = last_cpu();
	struct seq_file m = { };
	size_t n;

	KUNIT_ASSERT_NOT_NULL(test, want);
	new_seq(test, &m);
	KUNIT_ASSERT_EQ(test, latency_registry_set(r, "g", 100, NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set_cpus(r, "c", 20,
							cpumask_of(last), NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_show(r, &m), 0);
	n = scnprintf(want, size,
		      "# identifier usecs cpus pid comm\nc 20 %d - -\ng 100 all - -\n",
		      last);
	/* CPUs that share a limit and holder share a line. */
	if (last) {
		n += cpu_line(want + n, size - n, 0, last - 1);
		n += scnprintf(want + n, size - n, "100 g\n");
	}
	n += scnprintf(want + n, size - n, "# cpu %d 20 c\n", last);
	scnprintf(want + n, size - n, "# system 100 g\n");
	KUNIT_EXPECT_STREQ(test, m.buf, want);
}

/*
 * A constraint for a CPU taken offline is kept, can change while it is
 * offline, and holds from the moment the CPU is back online.
 */
static void latency_cpus_hotplug(struct kunit *test)
{
#ifdef CONFIG_HOTPLUG_CPU
	int cpu = last_cpu(), i;

	if (!cpu || !cpu_online(cpu))
		kunit_skip(test, "needs a second online CPU");
	KUNIT_ASSERT_EQ(test, set_acceptable_latency_cpus(KTEST_ID, 7,
							  cpumask_of(cpu)), 0);
	KUNIT_ASSERT_EQ(test, remove_cpu(cpu), 0);
	KUNIT_EXPECT_EQ(test, cpu_latency_constraint(cpu), 7);
	KUNIT_EXPECT_EQ(test, modify_acceptable_latency(KTEST_ID, 5), 0);
	KUNIT_EXPECT_EQ(test, cpu_latency_constraint(cpu), 5);
	KUNIT_ASSERT_EQ(test, add_cpu(cpu), 0);
	KUNIT_EXPECT_EQ(test, cpu_latency_constraint(cpu), 5);
	for (i = 0; i < 20; i++) {
		usleep_range(5000, 6000);
		KUNIT_EXPECT_LE(test, latency_idle_settled(cpu, 5000), 5000);
	}
	KUNIT_EXPECT_EQ(test, remove_acceptable_latency(KTEST_ID), 0);
	KUNIT_EXPECT_EQ(test, cpu_latency_constraint(cpu),
			system_latency_constraint());
	synchronize_acceptable_latency();
#else
	kunit_skip(test, "needs CONFIG_HOTPLUG_CPU");
#endif
}

/*
 * A change of a constraint for one CPU changes that CPU's limit alone, and
 * the CPU never idles deeper than its new limit once set returns.
 */
static void latency_cpus_wake_decided_per_cpu(struct kunit *test)
{
	int cpu = last_cpu(), other = 0, before;

	if (!cpu || !cpu_online(cpu))
		kunit_skip(test, "needs a second online CPU");
	before = cpu_latency_constraint(other);
	KUNIT_ASSERT_EQ(test, set_acceptable_latency_cpus(KTEST_ID, 9,
							  cpumask_of(cpu)), 0);
	KUNIT_EXPECT_EQ(test, cpu_latency_constraint(cpu), 9);
	KUNIT_EXPECT_EQ(test, cpu_latency_constraint(other), before);
	KUNIT_EXPECT_LE(test, latency_idle_settled(cpu, 9000), 9000);
	KUNIT_EXPECT_EQ(test, remove_acceptable_latency(KTEST_ID), 0);
	synchronize_acceptable_latency();
	KUNIT_EXPECT_EQ(test, cpu_latency_constraint(cpu),
			system_latency_constraint());
}

/*
 * A CPU that stands for one idle in a state of @exit_ns: a thread bound to
 * it publishes that state as cpuidle_enter_state() does when asked to
 * (latency_fake_idle_enter()), and stays runnable (preemptible: on
 * PREEMPT_RT, a task preempted there inside a sleeping lock must get the
 * CPU back), so that the CPU never idles and nothing else writes its
 * state.  The registry's interrupt clears it, as a real CPU leaves its state.
 */
struct latency_fake_idle {
	u32 exit_ns;
	int cpu;
	int enter, entered;	/* asked for, done */
	bool stop;
};

static int latency_fake_idle_fn(void *arg)
{
	struct latency_fake_idle *f = arg;
	struct latency_idle *li = per_cpu_ptr(&latency_idle, f->cpu);

	while (!READ_ONCE(f->stop)) {
		if (READ_ONCE(f->enter) != f->entered) {
			WRITE_ONCE(li->exit_ns, f->exit_ns);
			smp_mb();	/* as latency_idle_enter() */
			smp_store_release(&f->entered, f->entered + 1);
		}
		cond_resched();
	}
	WRITE_ONCE(li->exit_ns, 0);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/* @f's CPU enters its state (again), as it does once awake; in 1 s. */
static bool latency_fake_idle_enter(struct latency_fake_idle *f)
{
	ktime_t end = ktime_add_ms(ktime_get(), 1000);

	WRITE_ONCE(f->enter, f->enter + 1);
	/* Pairs with the release in latency_fake_idle_fn(): state published. */
	while (smp_load_acquire(&f->entered) != f->enter) {
		if (!ktime_before(ktime_get(), end))
			return false;
		usleep_range(100, 200);
	}
	return true;
}

/* @f's thread, started on @f->cpu, or an ERR_PTR(). */
static struct task_struct *latency_fake_idle_start(struct latency_fake_idle *f)
{
	struct task_struct *t;

	t = kthread_create_on_cpu(latency_fake_idle_fn, f, f->cpu,
				  "latency_fake/%u");
	if (!IS_ERR(t))
		wake_up_process(t);
	return t;
}

static void latency_fake_idle_stop(struct latency_fake_idle *f,
				   struct task_struct *t)
{
	WRITE_ONCE(f->stop, true);
	kthread_stop(t);
}

/* The state @f's CPU publishes. */
static u32 latency_fake_idle_state(struct latency_fake_idle *f)
{
	return READ_ONCE(per_cpu_ptr(&latency_idle, f->cpu)->exit_ns);
}

static atomic_t latency_test_deep;

static void latency_test_wake_probe(void *data, int old, int new,
				    unsigned int deep, unsigned int shallow,
				    bool wait)
{
	if (wait)
		atomic_add(deep, &latency_test_deep);
}

/* The CPUs a synchronous call interrupted while it ran, @f's CPU idle. */
static int latency_test_sync_deep(struct kunit *test,
				  struct latency_fake_idle *f, int usecs)
{
	/* No assertion: the thread must be stopped, it uses the case's stack. */
	if (!latency_fake_idle_enter(f)) {
		KUNIT_FAIL(test, "the fake idle thread did not run for 1 s");
		return -1;
	}
	atomic_set(&latency_test_deep, 0);
	if (usecs < 0)
		synchronize_acceptable_latency();
	else
		KUNIT_EXPECT_EQ(test, set_acceptable_latency(KTEST_ID, usecs), 0);
	return atomic_read(&latency_test_deep);
}

/*
 * A synchronous call interrupts every CPU idle in a state too deep for its
 * limit now, decided from that alone: the same CPU again and again, whether
 * or not the call moved a value, whatever earlier calls decided.  A
 * decision made from history (the limit the CPU was last woken for) skips
 * it from the second call on and returns while it sleeps too deep.
 */
static void latency_system_sync_decides_from_present(struct kunit *test)
{
	struct latency_fake_idle f = { .exit_ns = 90 * NSEC_PER_USEC };
	struct task_struct *t;
	int cpu = cpumask_last(cpu_online_mask), i;
	unsigned int other = cpumask_any_but(cpu_online_mask, cpu);

	if (other >= nr_cpu_ids)
		kunit_skip(test, "needs a second online CPU");
	/* The case's own thread stays off it: a call never interrupts its CPU. */
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(other)), 0);
	if (register_trace_latency_idle_wake(latency_test_wake_probe, NULL))
		kunit_skip(test, "needs the latency_idle_wake trace point");
	f.cpu = cpu;
	t = latency_fake_idle_start(&f);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	/* The first call lowers the limit, the others change nothing. */
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_GE_MSG(test, latency_test_sync_deep(test, &f, 20), 1,
				    "call %d", i);
	KUNIT_EXPECT_EQ(test, modify_acceptable_latency(KTEST_ID, 20), 0);
	KUNIT_EXPECT_GE(test, latency_test_sync_deep(test, &f, -1), 1);
	/* The call returned once the CPU had left its state, and published it. */
	KUNIT_EXPECT_EQ(test, latency_fake_idle_state(&f), 0);
	/* A state that fits is left alone. */
	KUNIT_EXPECT_EQ(test, latency_test_sync_deep(test, &f, 90), 0);
	KUNIT_EXPECT_EQ(test, latency_fake_idle_state(&f), f.exit_ns);
	latency_fake_idle_stop(&f, t);
	unregister_trace_latency_idle_wake(latency_test_wake_probe, NULL);
	tracepoint_synchronize_unregister();
	KUNIT_EXPECT_EQ(test, remove_acceptable_latency(KTEST_ID), 0);
	synchronize_acceptable_latency();
}

static atomic_t latency_test_async_deep, latency_test_async_calls;
static atomic_t latency_test_async_irqoff;

static void latency_test_async_probe(void *data, int old, int new,
				     unsigned int deep, unsigned int shallow,
				     bool wait)
{
	if (wait)
		return;
	atomic_add(deep, &latency_test_async_deep);
	atomic_add(irqs_disabled(), &latency_test_async_irqoff);
	atomic_inc(&latency_test_async_calls);
}

/*
 * An asynchronous change made with interrupts off does not loop over the
 * CPUs there: the loop runs later, with interrupts on, and still finds the
 * CPU too deep for the new limit.
 */
static void latency_system_async_irqs_off_deferred(struct kunit *test)
{
	struct latency_fake_idle f = { .exit_ns = 90 * NSEC_PER_USEC };
	int cpu = cpumask_last(cpu_online_mask), ret, during, i;
	unsigned int other = cpumask_any_but(cpu_online_mask, cpu);
	struct task_struct *t;
	unsigned long flags;

	if (other >= nr_cpu_ids)
		kunit_skip(test, "needs a second online CPU");
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(other)), 0);
	KUNIT_ASSERT_EQ(test, set_acceptable_latency(KTEST_ID, 100), 0);
	if (system_latency_constraint() != 100) {
		remove_acceptable_latency(KTEST_ID);
		kunit_skip(test, "another holder is below 100 us");
	}
	f.cpu = cpu;
	t = latency_fake_idle_start(&f);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_EXPECT_TRUE(test, latency_fake_idle_enter(&f));
	KUNIT_EXPECT_EQ(test, register_trace_latency_idle_wake(latency_test_async_probe,
							       NULL), 0);
	atomic_set(&latency_test_async_deep, 0);
	atomic_set(&latency_test_async_calls, 0);
	atomic_set(&latency_test_async_irqoff, 0);
	local_irq_save(flags);
	ret = modify_acceptable_latency(KTEST_ID, 20);
	during = atomic_read(&latency_test_async_calls);
	local_irq_restore(flags);
	for (i = 0; i < 1000 && !atomic_read(&latency_test_async_calls); i++)
		usleep_range(1000, 2000);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ_MSG(test, during, 0, "the loop ran with interrupts off");
	KUNIT_EXPECT_GE(test, atomic_read(&latency_test_async_calls), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&latency_test_async_irqoff), 0);
	KUNIT_EXPECT_GE_MSG(test, atomic_read(&latency_test_async_deep), 1,
			    "the CPU too deep was not found");
	latency_fake_idle_stop(&f, t);
	unregister_trace_latency_idle_wake(latency_test_async_probe, NULL);
	tracepoint_synchronize_unregister();
	KUNIT_EXPECT_EQ(test, remove_acceptable_latency(KTEST_ID), 0);
	synchronize_acceptable_latency();
}

/*
 * The system wakeup class: a registry of its own whose "no constraint" is
 * S32_MAX, so that 600 ms and 2 s are held as given (the runtime class
 * takes 1 s and more as none); it caps every CPU's runtime limit, not the
 * system value, and its names are its own.
 */
static void latency_wakeup_limit_not_clipped(struct kunit *test)
{
	int sys = system_latency_constraint(), cpu, i;
	static const int values[] = { 600000, 2000000, 50, S32_MAX - 1 };

	if (!IS_ENABLED(CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP))
		kunit_skip(test, "needs CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP");
	if (wakeup_latency_constraint() != S32_MAX)
		kunit_skip(test, "a system wakeup holder is held");
	for (i = 0; i < ARRAY_SIZE(values); i++) {
		KUNIT_ASSERT_EQ(test, set_wakeup_latency(KTEST_ID, values[i]), 0);
		KUNIT_EXPECT_EQ(test, wakeup_latency_constraint(), values[i]);
		KUNIT_EXPECT_EQ(test, cpu_wakeup_latency_qos_limit(), values[i]);
		KUNIT_EXPECT_EQ(test, system_latency_constraint(), sys);
		for_each_possible_cpu(cpu)
			KUNIT_EXPECT_EQ_MSG(test, cpu_latency_constraint(cpu),
					    min(values[i],
						latency_registry_cpu_value(&latency_system,
									   cpu)),
					    "CPU%d, %d us", cpu, values[i]);
	}
	/* The same name in the runtime class is another holder. */
	KUNIT_ASSERT_EQ(test, set_wakeup_latency(KTEST_ID, 50), 0);
	KUNIT_ASSERT_EQ(test, set_acceptable_latency(KTEST_ID, 70), 0);
	KUNIT_EXPECT_EQ(test, wakeup_latency_constraint(), 50);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), min(sys, 70));
	KUNIT_EXPECT_EQ(test, cpu_latency_qos_cpu_limit(0), 50);
	KUNIT_EXPECT_EQ(test, remove_acceptable_latency(KTEST_ID), 0);
	KUNIT_EXPECT_EQ(test, wakeup_latency_constraint(), 50);
	KUNIT_EXPECT_EQ(test, set_wakeup_latency(KTEST_ID, S32_MAX), 0);
	KUNIT_EXPECT_EQ(test, wakeup_latency_constraint(), S32_MAX);
	KUNIT_EXPECT_EQ(test, remove_wakeup_latency(KTEST_ID), 0);
	KUNIT_EXPECT_EQ(test, remove_wakeup_latency(KTEST_ID), -ENOENT);
	KUNIT_EXPECT_EQ(test, wakeup_latency_constraint(), S32_MAX);
	KUNIT_EXPECT_EQ(test, cpu_latency_qos_limit(),
			sys < INFINITE_LATENCY ? sys : PM_QOS_CPU_LATENCY_DEFAULT_VALUE);
}

/*
 * A system wakeup holder caps runtime idle with the promises of the
 * runtime class: a CPU entering idle reads it (the entry re-check), and a
 * synchronous call returns once no CPU is idle too deep for it.
 */
static void latency_wakeup_caps_runtime_idle(struct kunit *test)
{
	struct latency_fake_idle f = { .exit_ns = 90 * NSEC_PER_USEC };
	int cpu = cpumask_last(cpu_online_mask), deep;
	unsigned int other = cpumask_any_but(cpu_online_mask, cpu);
	struct task_struct *t;
	unsigned long flags;
	s64 limit;

	if (!IS_ENABLED(CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP))
		kunit_skip(test, "needs CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP");
	if (other >= nr_cpu_ids)
		kunit_skip(test, "needs a second online CPU");
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(other)), 0);
	KUNIT_ASSERT_EQ(test, set_wakeup_latency(KTEST_ID, 20), 0);
	local_irq_save(flags);
	limit = latency_idle_enter(100 * NSEC_PER_USEC, 0);
	latency_idle_exit();
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, limit, (s64)20 * NSEC_PER_USEC);
	KUNIT_ASSERT_EQ(test, set_wakeup_latency(KTEST_ID, 200), 0);
	if (register_trace_latency_idle_wake(latency_test_wake_probe, NULL)) {
		remove_wakeup_latency(KTEST_ID);
		kunit_skip(test, "needs the latency_idle_wake trace point");
	}
	f.cpu = cpu;
	t = latency_fake_idle_start(&f);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_EXPECT_TRUE(test, latency_fake_idle_enter(&f));
	atomic_set(&latency_test_deep, 0);
	KUNIT_EXPECT_EQ(test, set_wakeup_latency(KTEST_ID, 20), 0);
	deep = atomic_read(&latency_test_deep);
	/* Interrupted, and out of its state, when the call returned. */
	KUNIT_EXPECT_GE(test, deep, 1);
	KUNIT_EXPECT_EQ(test, latency_fake_idle_state(&f), 0);
	latency_fake_idle_stop(&f, t);
	unregister_trace_latency_idle_wake(latency_test_wake_probe, NULL);
	tracepoint_synchronize_unregister();
	KUNIT_EXPECT_EQ(test, remove_wakeup_latency(KTEST_ID), 0);
}

/*
 * The listing names the system wakeup holders after the runtime "# cpu"
 * lines, as "# wakeup" lines, then the limit s2idle honours and its holder;
 * the "# cpu" lines count it, the "# system" line, still the last, not.
 */
static void latency_wakeup_listing(struct kunit *test)
{
	struct seq_file m = {};
	char want[96];
	char *wakeup, *s2idle, *sys;

	if (!IS_ENABLED(CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP))
		kunit_skip(test, "needs CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP");
	new_seq(test, &m);
	KUNIT_ASSERT_EQ(test, set_wakeup_latency(KTEST_ID, 3), 0);
	latency_registry_show(&latency_system, &m);
	KUNIT_EXPECT_EQ(test, remove_wakeup_latency(KTEST_ID), 0);
	snprintf(want, sizeof(want), "\n# wakeup %s 3 all - -\n", KTEST_ID);
	wakeup = strstr(m.buf, want);
	snprintf(want, sizeof(want), "\n# s2idle 3 %s\n# system ", KTEST_ID);
	s2idle = strstr(m.buf, want);
	KUNIT_EXPECT_NOT_NULL_MSG(test, wakeup, "%s", m.buf);
	KUNIT_EXPECT_NOT_NULL_MSG(test, s2idle, "%s", m.buf);
	KUNIT_EXPECT_TRUE_MSG(test, wakeup && s2idle && wakeup < s2idle,
			      "%s", m.buf);
	snprintf(want, sizeof(want), " 3 %s\n# wakeup ", KTEST_ID);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(m.buf, want), "# cpu: %s", m.buf);
	sys = strstr(m.buf, "\n# system ");
	KUNIT_EXPECT_TRUE_MSG(test, sys && strchr(sys + 1, '\n') &&
			      !strchr(sys + 1, '\n')[1], "%s", m.buf);
	KUNIT_EXPECT_NULL_MSG(test, strstr(sys ?: "", KTEST_ID), "%s", m.buf);
	/* Without a holder, "no constraint" and no holder. */
	m.count = 0;
	memset(m.buf, 0, m.size);
	latency_registry_show(&latency_system, &m);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(m.buf, "\n# s2idle 2147483647 -\n"),
				  "%s", m.buf);
}

struct latency_watch {
	struct latency_registry *r;
	unsigned long reads;
	int max;
	bool stop;
};

static int latency_watch_fn(void *arg)
{
	struct latency_watch *w = arg;

	while (!READ_ONCE(w->stop)) {
		w->max = max(w->max, latency_registry_cpu_value(w->r, 0));
		WRITE_ONCE(w->reads, w->reads + 1);
		cpu_relax();
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/*
 * A holder moved between a set of CPUs and all CPUs, at the same value,
 * never leaves a CPU without it: one publication per change, after every
 * tree change, never a limit between the removal and the addition.
 */
static void latency_cpus_move_publishes_once(struct kunit *test)
{
	struct latency_registry *r = reg(test);
	struct latency_watch w = { .r = r };
	int cpu = cpumask_last(cpu_online_mask), i;
	struct task_struct *t;
	unsigned int seq;

	KUNIT_ASSERT_EQ(test, latency_registry_set_cpus(r, "m", 20,
							cpumask_of(0), NULL), 0);
	/* Deterministic: a move is one write section of the seqcount. */
	seq = raw_read_seqcount(&r->seq);
	KUNIT_ASSERT_EQ(test, latency_registry_set_cpus(r, "m", 20, NULL, NULL), 0);
	KUNIT_EXPECT_EQ(test, raw_read_seqcount(&r->seq) - seq, 2U);
	seq = raw_read_seqcount(&r->seq);
	KUNIT_ASSERT_EQ(test, latency_registry_set_cpus(r, "m", 20,
							cpumask_of(0), NULL), 0);
	KUNIT_EXPECT_EQ(test, raw_read_seqcount(&r->seq) - seq, 2U);
	/* A change of some CPUs' limits alone makes no idle entry wait. */
	seq = raw_read_seqcount(&r->seq);
	KUNIT_ASSERT_EQ(test, latency_registry_set_cpus(r, "m", 30,
							cpumask_of(0), NULL), 0);
	KUNIT_ASSERT_EQ(test, latency_registry_set_cpus(r, "m", 20,
							cpumask_of(0), NULL), 0);
	KUNIT_EXPECT_EQ(test, raw_read_seqcount(&r->seq) - seq, 0U);
	KUNIT_EXPECT_EQ(test, latency_registry_cpu_value(r, 0), 20);
	/* And seen from another CPU, reading all the while. */
	if (!cpu)
		kunit_skip(test, "needs a second online CPU");
	t = kthread_create_on_cpu(latency_watch_fn, &w, cpu, "latency_watch/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wake_up_process(t);
	while (!READ_ONCE(w.reads))
		usleep_range(1000, 2000);
	for (i = 0; i < 2000; i++) {
		KUNIT_ASSERT_EQ(test, latency_registry_set_cpus(r, "m", 20, NULL,
								NULL), 0);
		KUNIT_ASSERT_EQ(test, latency_registry_set_cpus(r, "m", 20,
								cpumask_of(0),
								NULL), 0);
	}
	WRITE_ONCE(w.stop, true);
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, w.max, 20);
	kunit_info(test, "CPU 0's limit read %lu times\n", w.reads);
	KUNIT_EXPECT_EQ(test, latency_registry_check(r), 0U);
}

/*
 * "user:" names belong to the holders of the devices, "boot:" ones to the
 * command line: a kernel caller cannot take either, nor change or remove
 * a user-space holder (whose file's release would then remove the
 * kernel's constraint); it may change or remove a boot: holder.
 */
static void latency_system_user_names_reserved(struct kunit *test)
{
	struct latency_request *req = new_req(test);

	kunit_info(test, "expect a warning: a kernel caller takes a user: name\n");
	KUNIT_EXPECT_EQ(test, set_acceptable_latency("user:4242", 10), -EINVAL);
	KUNIT_EXPECT_EQ(test, modify_acceptable_latency("user:4242", 10), -EINVAL);
	KUNIT_EXPECT_EQ(test, remove_acceptable_latency("user:4242"), -EINVAL);
	KUNIT_EXPECT_EQ(test, set_acceptable_latency_cpus("boot:7", 10,
							  cpumask_of(0)), -EINVAL);
	KUNIT_ASSERT_EQ(test, latency_request_init(req, "user:4243"), 0);
	KUNIT_EXPECT_EQ(test, latency_request_add(req, 10), -EINVAL);
	KUNIT_EXPECT_FALSE(test, latency_request_active(req));
	KUNIT_EXPECT_EQ(test, modify_acceptable_latency("boot:7", 10), -ENOENT);
	KUNIT_EXPECT_EQ(test, latency_registry_check(&latency_system), 0U);
}

static struct kunit_case latency_test_cases[] = {
	KUNIT_CASE(latency_registry_empty_is_infinite),
	KUNIT_CASE(latency_system_value_matches_holders),
	KUNIT_CASE(latency_set_minimum_of_all),
	KUNIT_CASE(latency_set_seed_existing_raises),
	KUNIT_CASE(latency_set_existing_does_not_allocate),
	KUNIT_CASE(latency_set_copies_identifier),
	KUNIT_CASE(latency_modify_seed_relax_raises),
	KUNIT_CASE(latency_modify_seed_unknown_changes_nothing),
	KUNIT_CASE(latency_modify_seed_second_entry),
	KUNIT_CASE(latency_remove_tightest_raises),
	KUNIT_CASE(latency_remove_unknown_ignored),
	KUNIT_CASE(latency_notifier_seed_set_unchanged_silent),
	KUNIT_CASE(latency_notifier_seed_modify_notifies),
	KUNIT_CASE(latency_notifier_seed_remove_notifies),
	KUNIT_CASE(latency_notifier_deferred_never_lost),
	KUNIT_CASE(latency_sync_always_notifies),
	KUNIT_CASE(latency_init_seed_keeps_earlier),
	KUNIT_CASE(latency_init_kernel_not_replaced),
	KUNIT_CASE_PARAM(latency_bad_input_rejected, latency_bad_gen_params),
	KUNIT_CASE_PARAM(latency_edge_value_accepted, latency_edge_gen_params),
	KUNIT_CASE(latency_identifier_longest_accepted),
	KUNIT_CASE(latency_value_boundaries),
	KUNIT_CASE(latency_listing_format),
	KUNIT_CASE(latency_listing_user_holder),
	KUNIT_CASE(latency_listing_escapes_comm),
	KUNIT_CASE(latency_listing_many_holders_in_order),
	KUNIT_CASE(latency_random_ops_consistent),
	KUNIT_CASE(latency_set_alloc_failure_changes_nothing),
	KUNIT_CASE(latency_user_holder_is_accounted),
	KUNIT_CASE(latency_request_add_update_remove),
	KUNIT_CASE(latency_request_allocates_nothing),
	KUNIT_CASE(latency_request_name_owned_by_holder),
	KUNIT_CASE(latency_request_misuse_rejected),
	KUNIT_CASE(latency_request_destroy_leaves_inactive),
	KUNIT_CASE(latency_request_random_mixed),
	KUNIT_CASE(latency_check_counts_corruption),
	KUNIT_CASE(latency_tree_ends_cached),
	KUNIT_CASE(latency_listing_only_unconstrained),
	KUNIT_CASE(latency_set_race_same_name_one_entry),
	KUNIT_CASE(latency_set_race_request_keeps_name),
	KUNIT_CASE(latency_kernel_param_parses),
	KUNIT_CASE(latency_kernel_default_follows_tick),
	KUNIT_CASE_SLOW(latency_stress_concurrent),
	KUNIT_CASE(latency_system_set_modify_remove),
	KUNIT_CASE(latency_system_ipw2100_life_cycle),
	KUNIT_CASE(latency_system_request),
	KUNIT_CASE(latency_system_notifier),
	KUNIT_CASE(latency_system_notifier_registered_late),
	KUNIT_CASE(latency_system_in_effect_on_return),
	KUNIT_CASE(latency_idle_decide_tighten),
	KUNIT_CASE(latency_idle_decide_relax),
	KUNIT_CASE(latency_idle_decide_not_idle),
	KUNIT_CASE(latency_qos_limit_is_the_system_value),
	KUNIT_CASE(latency_qos_uninitialised_request),
	KUNIT_CASE(latency_qos_default_value),
	KUNIT_CASE(latency_qos_invalid_value_ignored),
	KUNIT_CASE(latency_qos_misuse_warns_and_changes_nothing),
	KUNIT_CASE(latency_qos_mixed_holders_one_value),
	KUNIT_CASE(latency_qos_listed_by_caller),
	KUNIT_CASE(latency_qos_serial_does_not_wrap),
	KUNIT_CASE(latency_qos_added_among_equals),
	KUNIT_CASE(latency_qos_system_listing_names_caller),
	KUNIT_CASE(latency_cpus_minimum_of_mixed_holders),
	KUNIT_CASE(latency_cpus_bad_sets_rejected),
	KUNIT_CASE(latency_cpus_set_moves_holder),
	KUNIT_CASE(latency_cpus_request),
	KUNIT_CASE(latency_cpus_listing),
	KUNIT_CASE(latency_cpus_hotplug),
	KUNIT_CASE(latency_cpus_wake_decided_per_cpu),
	KUNIT_CASE(latency_system_sync_decides_from_present),
	KUNIT_CASE(latency_system_async_irqs_off_deferred),
	KUNIT_CASE(latency_cpus_move_publishes_once),
	KUNIT_CASE(latency_system_user_names_reserved),
	KUNIT_CASE(latency_wakeup_limit_not_clipped),
	KUNIT_CASE(latency_wakeup_caps_runtime_idle),
	KUNIT_CASE(latency_wakeup_listing),
	{}
};

static struct kunit_suite latency_test_suite = {
	.name = "latency",
	.init = latency_test_init,
	.exit = latency_test_exit,
	.test_cases = latency_test_cases,
};

kunit_test_suites(&latency_test_suite);

MODULE_DESCRIPTION("KUnit tests for the latency-constraint registry");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
