// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the latency constraint of the ipw2100 driver.
 *
 * Each adapter holds a constraint of its own, "ipw2100:<PCI device name>":
 * 175 usec while it is up, INFINITE_LATENCY while it is down, nothing once
 * it is removed.  Most cases drive the driver's helpers with fake adapters
 * (a zeroed struct ipw2100_priv; no hardware); the last ones run the
 * driver's own ipw2100_up() and ipw2100_down() on an adapter allocated as
 * probe allocates it, with ipw2100_start_adapter() stubbed.  Every case
 * checks the system value after each step.
 *
 * The system value also includes the built-in "kernel" holder and any other
 * holder present when a case starts, so every check is made against the
 * value read at the start of the case.  The fake bus names cannot be PCI
 * device names, so a real adapter's constraint is never touched, and the
 * exit handler removes whatever a failed case left behind.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <kunit/test-bug.h>

#include <linux/latency.h>
#include <linux/sizes.h>
#include <linux/string.h>

#include "ipw2100.h"

#define IPW2100_TEST_USECS	175

struct ipw2100_latency_test {
	struct ipw2100_priv *a;
	struct ipw2100_priv *b;
	int baseline;
	/* What the stub of ipw2100_start_adapter() saw. */
	int starts;
	int system_at_start;
};

static int ipw2100_latency_test_init(struct kunit *test)
{
	struct ipw2100_latency_test *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->a = kunit_kzalloc(test, sizeof(*ctx->a), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->a);
	ctx->b = kunit_kzalloc(test, sizeof(*ctx->b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->b);
	test->priv = ctx;

	ctx->baseline = system_latency_constraint();
	if (ctx->baseline <= IPW2100_TEST_USECS)
		kunit_skip(test, "system constraint already %d usec", ctx->baseline);
	return 0;
}

static void ipw2100_latency_test_exit(struct kunit *test)
{
	struct ipw2100_latency_test *ctx = test->priv;

	if (!ctx)
		return;
	/* No-ops unless a case failed half-way. */
	ipw2100_latency_exit(ctx->a);
	ipw2100_latency_exit(ctx->b);
}

/* Probe adds a relaxed constraint under the adapter's own name. */
static void ipw2100_latency_init_relaxed(struct kunit *test)
{
	struct ipw2100_latency_test *ctx = test->priv;

	KUNIT_ASSERT_EQ(test, ipw2100_latency_init(ctx->a, "kunit-a"), 0);
	KUNIT_EXPECT_STREQ(test, ctx->a->latency_id, "ipw2100:kunit-a");
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), ctx->baseline);
	/* It is in the registry: modifying it works. */
	KUNIT_EXPECT_EQ(test, modify_acceptable_latency("ipw2100:kunit-a",
							INFINITE_LATENCY), 0);

	ipw2100_latency_exit(ctx->a);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), ctx->baseline);
}

/* Up holds 175 usec, down relaxes it to the previous system value. */
static void ipw2100_latency_up_down_one_adapter(struct kunit *test)
{
	struct ipw2100_latency_test *ctx = test->priv;

	KUNIT_ASSERT_EQ(test, ipw2100_latency_init(ctx->a, "kunit-a"), 0);

	ipw2100_latency_up(ctx->a);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), IPW2100_TEST_USECS);
	ipw2100_latency_down(ctx->a);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), ctx->baseline);
	ipw2100_latency_up(ctx->a);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), IPW2100_TEST_USECS);
	ipw2100_latency_down(ctx->a);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), ctx->baseline);

	ipw2100_latency_exit(ctx->a);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), ctx->baseline);
}

/* What the latency notifier chain was last told. */
static int ipw2100_test_notified;

static int ipw2100_test_notify(struct notifier_block *nb, unsigned long value,
			       void *data)
{
	WRITE_ONCE(ipw2100_test_notified, value);
	return NOTIFY_OK;
}

/*
 * Up returns with the constraint in effect: no CPU is left sleeping too
 * deep, and the notifiers have been told, before ipw2100_up() goes on.
 */
static void ipw2100_latency_up_in_effect_on_return(struct kunit *test)
{
	struct ipw2100_latency_test *ctx = test->priv;
	struct notifier_block nb = { .notifier_call = ipw2100_test_notify };

	KUNIT_ASSERT_EQ(test, ipw2100_latency_init(ctx->a, "kunit-a"), 0);
	KUNIT_ASSERT_EQ(test, register_latency_notifier(&nb), 0);
	WRITE_ONCE(ipw2100_test_notified, -1);

	ipw2100_latency_up(ctx->a);
	KUNIT_EXPECT_EQ(test, READ_ONCE(ipw2100_test_notified),
			IPW2100_TEST_USECS);

	unregister_latency_notifier(&nb);
	ipw2100_latency_exit(ctx->a);
	synchronize_acceptable_latency();
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), ctx->baseline);
}

/*
 * Two adapters, up and down interleaved: taking one down must not release
 * the constraint the other one still holds.
 */
static void ipw2100_latency_up_down_two_adapters(struct kunit *test)
{
	struct ipw2100_latency_test *ctx = test->priv;

	KUNIT_ASSERT_EQ(test, ipw2100_latency_init(ctx->a, "kunit-a"), 0);
	KUNIT_ASSERT_EQ(test, ipw2100_latency_init(ctx->b, "kunit-b"), 0);
	KUNIT_EXPECT_STRNEQ(test, ctx->a->latency_id, ctx->b->latency_id);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), ctx->baseline);

	ipw2100_latency_up(ctx->a);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), IPW2100_TEST_USECS);
	ipw2100_latency_up(ctx->b);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), IPW2100_TEST_USECS);
	ipw2100_latency_down(ctx->a);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), IPW2100_TEST_USECS);
	ipw2100_latency_down(ctx->b);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), ctx->baseline);

	ipw2100_latency_up(ctx->b);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), IPW2100_TEST_USECS);
	ipw2100_latency_up(ctx->a);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), IPW2100_TEST_USECS);
	ipw2100_latency_down(ctx->b);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), IPW2100_TEST_USECS);
	ipw2100_latency_down(ctx->a);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), ctx->baseline);

	ipw2100_latency_exit(ctx->a);
	ipw2100_latency_exit(ctx->b);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), ctx->baseline);
}

/* Removing an adapter that is up releases its constraint and its name. */
static void ipw2100_latency_exit_while_up(struct kunit *test)
{
	struct ipw2100_latency_test *ctx = test->priv;

	KUNIT_ASSERT_EQ(test, ipw2100_latency_init(ctx->a, "kunit-a"), 0);
	KUNIT_ASSERT_EQ(test, ipw2100_latency_init(ctx->b, "kunit-b"), 0);
	ipw2100_latency_up(ctx->a);
	ipw2100_latency_up(ctx->b);

	ipw2100_latency_exit(ctx->a);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), IPW2100_TEST_USECS);
	KUNIT_EXPECT_EQ(test, remove_acceptable_latency("ipw2100:kunit-a"),
			-ENOENT);
	ipw2100_latency_down(ctx->b);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), ctx->baseline);

	ipw2100_latency_exit(ctx->b);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), ctx->baseline);
}

/*
 * Module exit while both adapters are up: pci_unregister_driver() removes
 * them one after the other, and nothing of either stays in the registry.
 */
static void ipw2100_latency_exit_all_while_up(struct kunit *test)
{
	struct ipw2100_latency_test *ctx = test->priv;

	KUNIT_ASSERT_EQ(test, ipw2100_latency_init(ctx->a, "kunit-a"), 0);
	KUNIT_ASSERT_EQ(test, ipw2100_latency_init(ctx->b, "kunit-b"), 0);
	ipw2100_latency_up(ctx->a);
	ipw2100_latency_up(ctx->b);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), IPW2100_TEST_USECS);

	ipw2100_latency_exit(ctx->b);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), IPW2100_TEST_USECS);
	ipw2100_latency_exit(ctx->a);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), ctx->baseline);

	KUNIT_EXPECT_EQ(test, remove_acceptable_latency("ipw2100:kunit-a"),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, remove_acceptable_latency("ipw2100:kunit-b"),
			-ENOENT);
}

/* A name that does not fit fails the probe and registers nothing. */
static void ipw2100_latency_init_name_too_long(struct kunit *test)
{
	struct ipw2100_latency_test *ctx = test->priv;
	char bus_id[LATENCY_ID_MAX + 1];

	memset(bus_id, 'x', sizeof(bus_id) - 1);
	bus_id[sizeof(bus_id) - 1] = '\0';

	KUNIT_EXPECT_EQ(test, ipw2100_latency_init(ctx->a, bus_id),
			-ENAMETOOLONG);
	KUNIT_EXPECT_STREQ(test, ctx->a->latency_id, "");
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), ctx->baseline);

	/* The probe error path calls it: it must do nothing. */
	ipw2100_latency_exit(ctx->a);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), ctx->baseline);
}

static void ipw2100_test_free_adapter(void *data)
{
	struct ipw2100_priv *priv = data;

	ipw2100_latency_exit(priv);
	free_libipw(priv->net_dev, 0);
}

/*
 * An adapter as probe allocates it (ipw2100_alloc_device()), with a page of
 * RAM for its registers and no PCI device, and its constraint added as
 * probe adds it.  Nothing starts the hardware: the cases stub
 * ipw2100_start_adapter().
 */
static struct ipw2100_priv *ipw2100_test_adapter(struct kunit *test,
						 const char *bus_id)
{
	void *regs = kunit_kzalloc(test, SZ_4K, GFP_KERNEL);
	struct ipw2100_priv *priv;
	struct net_device *dev;

	KUNIT_ASSERT_NOT_NULL(test, regs);
	dev = ipw2100_alloc_device(NULL, (void __force __iomem *)regs);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	priv = libipw_priv(dev);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   ipw2100_test_free_adapter,
							   priv));
	/* The radio on, whatever the module parameter "disable" says. */
	priv->status &= ~STATUS_RF_KILL_SW;
	KUNIT_ASSERT_EQ(test, ipw2100_latency_init(priv, bus_id), 0);
	return priv;
}

/*
 * Instead of loading the firmware: note the system value the adapter
 * starts under, and fail as a missing firmware does, so that ipw2100_up()
 * goes no further into the hardware.
 */
static int ipw2100_test_start_adapter(struct ipw2100_priv *priv)
{
	struct ipw2100_latency_test *ctx = kunit_get_current_test()->priv;

	ctx->starts++;
	ctx->system_at_start = system_latency_constraint();
	return -EIO;
}

/*
 * ipw2100_up() holds the adapter's 175 usec, in effect before it starts
 * the hardware; removing the adapter's constraint by its name is what
 * gives the previous value back.
 */
static void ipw2100_latency_up_holds_175(struct kunit *test)
{
	struct ipw2100_latency_test *ctx = test->priv;
	struct ipw2100_priv *priv = ipw2100_test_adapter(test, "kunit-up");

	kunit_activate_static_stub(test, ipw2100_start_adapter,
				   ipw2100_test_start_adapter);
	KUNIT_EXPECT_EQ(test, ipw2100_up(priv, 1), -EIO);
	KUNIT_EXPECT_EQ(test, ctx->starts, 1);
	KUNIT_EXPECT_EQ(test, ctx->system_at_start, IPW2100_TEST_USECS);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), IPW2100_TEST_USECS);

	KUNIT_EXPECT_EQ(test, remove_acceptable_latency("ipw2100:kunit-up"), 0);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), ctx->baseline);
}

/* With the radio off by the software switch, up neither starts nor holds. */
static void ipw2100_latency_up_radio_off_holds_nothing(struct kunit *test)
{
	struct ipw2100_latency_test *ctx = test->priv;
	struct ipw2100_priv *priv = ipw2100_test_adapter(test, "kunit-off");

	kunit_activate_static_stub(test, ipw2100_start_adapter,
				   ipw2100_test_start_adapter);
	priv->status |= STATUS_RF_KILL_SW;
	KUNIT_EXPECT_EQ(test, ipw2100_up(priv, 1), 0);
	KUNIT_EXPECT_EQ(test, ctx->starts, 0);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), ctx->baseline);
}

/*
 * ipw2100_down() of an adapter that is up gives the previous value back
 * and keeps the constraint, relaxed, until the adapter is removed.
 */
static void ipw2100_latency_down_relaxes(struct kunit *test)
{
	struct ipw2100_latency_test *ctx = test->priv;
	struct ipw2100_priv *priv = ipw2100_test_adapter(test, "kunit-down");

	ipw2100_latency_up(priv);
	KUNIT_ASSERT_EQ(test, system_latency_constraint(), IPW2100_TEST_USECS);

	ipw2100_down(priv);
	KUNIT_EXPECT_EQ(test, system_latency_constraint(), ctx->baseline);
	KUNIT_EXPECT_EQ(test, modify_acceptable_latency("ipw2100:kunit-down",
							INFINITE_LATENCY), 0);
}

static struct kunit_case ipw2100_latency_test_cases[] = {
	KUNIT_CASE(ipw2100_latency_init_relaxed),
	KUNIT_CASE(ipw2100_latency_up_down_one_adapter),
	KUNIT_CASE(ipw2100_latency_up_in_effect_on_return),
	KUNIT_CASE(ipw2100_latency_up_down_two_adapters),
	KUNIT_CASE(ipw2100_latency_exit_while_up),
	KUNIT_CASE(ipw2100_latency_exit_all_while_up),
	KUNIT_CASE(ipw2100_latency_init_name_too_long),
	KUNIT_CASE(ipw2100_latency_up_holds_175),
	KUNIT_CASE(ipw2100_latency_up_radio_off_holds_nothing),
	KUNIT_CASE(ipw2100_latency_down_relaxes),
	{}
};

static struct kunit_suite ipw2100_latency_test_suite = {
	.name = "ipw2100_latency",
	.init = ipw2100_latency_test_init,
	.exit = ipw2100_latency_test_exit,
	.test_cases = ipw2100_latency_test_cases,
};

kunit_test_suite(ipw2100_latency_test_suite);

MODULE_DESCRIPTION("KUnit tests for the ipw2100 latency constraint");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
