// SPDX-License-Identifier: GPL-2.0-only
/*
 * A kernel user of the CPU latency QoS, for the selftest
 * tools/testing/selftests/latency/pm_qos_module.sh.
 *
 * While loaded, the module holds one CPU latency QoS request of @usecs
 * microseconds, added by test_latency_qos_hold() as any driver adds one:
 * /proc/latency_constraints must name it by that function and this module,
 * and it must be gone when the module is.  An invalid value (negative,
 * other than PM_QOS_DEFAULT_VALUE) is ignored by the CPU latency QoS, as in
 * 6.12; the load then fails with -EINVAL.  With from_init=1 the request is
 * added by the __init function itself, whose text is gone once the module
 * is loaded: the listing must say "pm_qos:[-]", never an address.
 */

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pm_qos.h>

static int usecs = 77;
module_param(usecs, int, 0444);
MODULE_PARM_DESC(usecs, "the request's value in microseconds");
static bool from_init;
module_param(from_init, bool, 0444);
MODULE_PARM_DESC(from_init, "add the request from the module's __init code");

static struct pm_qos_request test_latency_qos_req;

/*
 * The listing names a request by the function that called
 * cpu_latency_qos_add_request(), resolved when listed: not an __init one,
 * whose symbols a module drops once loaded, and not as a tail call, which
 * would make test_latency_qos_init() the caller.
 */
static noinline void test_latency_qos_hold(void)
{
	cpu_latency_qos_add_request(&test_latency_qos_req, usecs);
	barrier();	/* no tail call */
}

static int __init test_latency_qos_init(void)
{
	if (from_init)
		cpu_latency_qos_add_request(&test_latency_qos_req, usecs);
	else
		test_latency_qos_hold();
	return cpu_latency_qos_request_active(&test_latency_qos_req) ?
		0 : -EINVAL;
}
module_init(test_latency_qos_init);

static void __exit test_latency_qos_exit(void)
{
	cpu_latency_qos_remove_request(&test_latency_qos_req);
}
module_exit(test_latency_qos_exit);

MODULE_DESCRIPTION("Test module: a CPU latency QoS request, named in the listing");
MODULE_LICENSE("GPL");
