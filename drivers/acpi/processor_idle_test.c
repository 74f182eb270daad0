// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the latency constraints in ACPI processor idle.
 *
 * acpi_idle_enter() demotes a state whose exit latency exceeds the system
 * latency constraint (<linux/latency.h>) with acpi_idle_latency_fit(); that
 * decision is tested here on synthetic state tables.  The cpuidle governors
 * read the same constraint through cpuidle_governor_latency_req(), which
 * must return the minimum of it and the PM QoS limits.
 */

#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/cpuidle.h>
#include <linux/latency.h>
#include <linux/pm_qos.h>

#include "processor_idle.h"

#define TEST_ID		"kunit:acpi_idle_latency"

/* Index 0 is the polling state, as on x86; C1 is index 1. */
#define FIRST		1

/* POLL, C1 (HLT), C2 and C3 with the latencies used in the QEMU harness. */
static const struct cpuidle_state std_states[] = {
	{ .name = "POLL", .exit_latency = 0 },
	{ .name = "C1", .exit_latency = 1 },
	{ .name = "C2", .exit_latency = 20 },
	{ .name = "C3", .exit_latency = 200 },
};

/* Usage of states none of which is disabled. */
static const struct cpuidle_state_usage enabled[CPUIDLE_STATE_MAX];

static void acpi_idle_latency_fit_below_keeps_state(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 3, acpi_idle_latency_fit(std_states, enabled, FIRST, 3, 201));
	KUNIT_EXPECT_EQ(test, 2, acpi_idle_latency_fit(std_states, enabled, FIRST, 2, 150));
}

static void acpi_idle_latency_fit_equal_keeps_state(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 3, acpi_idle_latency_fit(std_states, enabled, FIRST, 3, 200));
	KUNIT_EXPECT_EQ(test, 2, acpi_idle_latency_fit(std_states, enabled, FIRST, 2, 20));
}

static void acpi_idle_latency_fit_above_demotes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 2, acpi_idle_latency_fit(std_states, enabled, FIRST, 3, 199));
	KUNIT_EXPECT_EQ(test, 2, acpi_idle_latency_fit(std_states, enabled, FIRST, 3, 150));
	KUNIT_EXPECT_EQ(test, 2, acpi_idle_latency_fit(std_states, enabled, FIRST, 3, 20));
	KUNIT_EXPECT_EQ(test, 1, acpi_idle_latency_fit(std_states, enabled, FIRST, 3, 19));
	KUNIT_EXPECT_EQ(test, 1, acpi_idle_latency_fit(std_states, enabled, FIRST, 2, 19));
}

static void acpi_idle_latency_fit_picks_deepest_fitting(struct kunit *test)
{
	static const struct cpuidle_state states[] = {
		{ .name = "POLL", .exit_latency = 0 },
		{ .name = "C1", .exit_latency = 1 },
		{ .name = "C2", .exit_latency = 20 },
		{ .name = "C3", .exit_latency = 50 },
		{ .name = "C4", .exit_latency = 100 },
		{ .name = "C5", .exit_latency = 400 },
	};

	KUNIT_EXPECT_EQ(test, 4, acpi_idle_latency_fit(states, enabled, FIRST, 5, 399));
	KUNIT_EXPECT_EQ(test, 3, acpi_idle_latency_fit(states, enabled, FIRST, 5, 99));
	KUNIT_EXPECT_EQ(test, 3, acpi_idle_latency_fit(states, enabled, FIRST, 4, 50));
}

static void acpi_idle_latency_fit_zero_gives_c1(struct kunit *test)
{
	/* C1 is always allowed, even if its own latency is above the limit. */
	KUNIT_EXPECT_EQ(test, 1, acpi_idle_latency_fit(std_states, enabled, FIRST, 3, 0));
	KUNIT_EXPECT_EQ(test, 1, acpi_idle_latency_fit(std_states, enabled, FIRST, 2, 0));
	KUNIT_EXPECT_EQ(test, 1, acpi_idle_latency_fit(std_states, enabled, FIRST, 1, 0));
}

static void acpi_idle_latency_fit_infinite_keeps_state(struct kunit *test)
{
	static const struct cpuidle_state states[] = {
		{ .name = "POLL", .exit_latency = 0 },
		{ .name = "C1", .exit_latency = 1 },
		{ .name = "C2", .exit_latency = INFINITE_LATENCY + 1 },
	};

	KUNIT_EXPECT_EQ(test, 2, acpi_idle_latency_fit(states, enabled, FIRST, 2,
						       INFINITE_LATENCY));
	KUNIT_EXPECT_EQ(test, 2, acpi_idle_latency_fit(states, enabled, FIRST, 2,
						       INFINITE_LATENCY + 1));
	/* Just below "no constraint", the same state is too deep. */
	KUNIT_EXPECT_EQ(test, 1, acpi_idle_latency_fit(states, enabled, FIRST, 2,
						       INFINITE_LATENCY - 1));
}

static void acpi_idle_latency_fit_single_state(struct kunit *test)
{
	static const struct cpuidle_state states[] = {
		{ .name = "C1", .exit_latency = 10 },
	};

	KUNIT_EXPECT_EQ(test, 0, acpi_idle_latency_fit(states, enabled, 0, 0, 0));
	KUNIT_EXPECT_EQ(test, 0, acpi_idle_latency_fit(states, enabled, 0, 0, 10));
}

static void acpi_idle_latency_fit_rcu_idle_not_entered_twice(struct kunit *test)
{
	static const struct cpuidle_state states[] = {
		{ .name = "POLL", .exit_latency = 0 },
		{ .name = "C1", .exit_latency = 1 },
		{ .name = "C2", .exit_latency = 20 },
		{ .name = "C3", .exit_latency = 50,
		  .flags = CPUIDLE_FLAG_RCU_IDLE },
		{ .name = "C3b", .exit_latency = 100,
		  .flags = CPUIDLE_FLAG_RCU_IDLE },
		{ .name = "C2b", .exit_latency = 400 },
	};

	/* From a flagged state, any shallower state may be entered. */
	KUNIT_EXPECT_EQ(test, 3, acpi_idle_latency_fit(states, enabled, FIRST, 4, 60));
	KUNIT_EXPECT_EQ(test, 2, acpi_idle_latency_fit(states, enabled, FIRST, 4, 30));
	/* From an unflagged state, flagged ones are skipped. */
	KUNIT_EXPECT_EQ(test, 2, acpi_idle_latency_fit(states, enabled, FIRST, 5, 150));
}

static void acpi_idle_latency_fit_skips_disabled(struct kunit *test)
{
	struct cpuidle_state_usage usage[CPUIDLE_STATE_MAX] = {};

	/* C2 disabled in sysfs: demotion from C3 goes past it, to C1. */
	usage[2].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	KUNIT_EXPECT_EQ(test, 1, acpi_idle_latency_fit(std_states, usage, FIRST,
						       3, 150));
	/* Disabled by the driver: the same. */
	usage[2].disable = CPUIDLE_STATE_DISABLED_BY_DRIVER;
	KUNIT_EXPECT_EQ(test, 1, acpi_idle_latency_fit(std_states, usage, FIRST,
						       3, 150));
	/* A state that fits is kept: what the governor chose is its business. */
	KUNIT_EXPECT_EQ(test, 3, acpi_idle_latency_fit(std_states, usage, FIRST,
						       3, 200));
	/* C1 is the floor, even disabled, as it always is. */
	usage[1].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	KUNIT_EXPECT_EQ(test, 1, acpi_idle_latency_fit(std_states, usage, FIRST,
						       3, 150));
}

struct qos_test_ctx {
	struct pm_qos_request req;
	bool ours;
};

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

static void acpi_idle_latency_governor_req_min_both_ways(struct kunit *test)
{
	struct qos_test_ctx *ctx = qos_test_ctx_new(test);

	cpu_latency_qos_add_request(&ctx->req, 70);
	KUNIT_ASSERT_EQ(test, 0, set_acceptable_latency(TEST_ID, 30));
	ctx->ours = true;

	/* Ours is the lower one. */
	KUNIT_EXPECT_EQ(test, 30 * NSEC_PER_USEC,
			cpuidle_governor_latency_req(0));

	/* PM QoS is the lower one. */
	cpu_latency_qos_update_request(&ctx->req, 20);
	KUNIT_EXPECT_EQ(test, 20 * NSEC_PER_USEC,
			cpuidle_governor_latency_req(0));

	/* Ours lower again, through modify. */
	KUNIT_ASSERT_EQ(test, 0, modify_acceptable_latency(TEST_ID, 10));
	KUNIT_EXPECT_EQ(test, 10 * NSEC_PER_USEC,
			cpuidle_governor_latency_req(0));

	/* Releasing ours leaves PM QoS in charge. */
	KUNIT_ASSERT_EQ(test, 0, remove_acceptable_latency(TEST_ID));
	ctx->ours = false;
	KUNIT_EXPECT_EQ(test, 20 * NSEC_PER_USEC,
			cpuidle_governor_latency_req(0));
}

static void acpi_idle_latency_governor_req_zero(struct kunit *test)
{
	struct qos_test_ctx *ctx = qos_test_ctx_new(test);

	KUNIT_ASSERT_EQ(test, 0, set_acceptable_latency(TEST_ID, 0));
	ctx->ours = true;

	KUNIT_EXPECT_EQ(test, 0, cpuidle_governor_latency_req(0));
}

static void acpi_idle_latency_governor_req_infinite_ignored(struct kunit *test)
{
	struct qos_test_ctx *ctx = qos_test_ctx_new(test);
	s64 before = cpuidle_governor_latency_req(0);

	KUNIT_ASSERT_EQ(test, 0, set_acceptable_latency(TEST_ID,
							INFINITE_LATENCY));
	ctx->ours = true;

	KUNIT_EXPECT_EQ(test, before, cpuidle_governor_latency_req(0));
}

static struct kunit_case acpi_idle_latency_cases[] = {
	KUNIT_CASE(acpi_idle_latency_fit_below_keeps_state),
	KUNIT_CASE(acpi_idle_latency_fit_equal_keeps_state),
	KUNIT_CASE(acpi_idle_latency_fit_above_demotes),
	KUNIT_CASE(acpi_idle_latency_fit_picks_deepest_fitting),
	KUNIT_CASE(acpi_idle_latency_fit_zero_gives_c1),
	KUNIT_CASE(acpi_idle_latency_fit_infinite_keeps_state),
	KUNIT_CASE(acpi_idle_latency_fit_single_state),
	KUNIT_CASE(acpi_idle_latency_fit_rcu_idle_not_entered_twice),
	KUNIT_CASE(acpi_idle_latency_fit_skips_disabled),
	KUNIT_CASE(acpi_idle_latency_governor_req_min_both_ways),
	KUNIT_CASE(acpi_idle_latency_governor_req_zero),
	KUNIT_CASE(acpi_idle_latency_governor_req_infinite_ignored),
	{}
};

static struct kunit_suite acpi_idle_latency_suite = {
	.name = "acpi_idle_latency",
	.test_cases = acpi_idle_latency_cases,
};

kunit_test_suite(acpi_idle_latency_suite);

MODULE_DESCRIPTION("KUnit tests for ACPI processor idle latency constraints");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
