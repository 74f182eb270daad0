// SPDX-License-Identifier: GPL-2.0-only
/*
 * A kernel user of the CPU latency QoS, for the selftests
 * tools/testing/selftests/latency/pm_qos_module.sh, async_wake.sh and
 * wake_ipis.sh.
 *
 * While loaded, the module holds one CPU latency QoS request of @usecs
 * microseconds, added by test_latency_qos_hold() as any driver adds one:
 * /proc/latency_constraints must name it by that function and this module,
 * and it must be gone when the module is.  An invalid value (negative,
 * other than PM_QOS_DEFAULT_VALUE) is ignored by the CPU latency QoS, as in
 * 6.12; the load then fails with -EINVAL.  With from_init=1 the request is
 * added by the __init function itself, whose text is gone once the module
 * is loaded: the listing must say "pm_qos:[-]", never an address.
 *
 * A write of @usecs while loaded updates the request with
 * cpu_latency_qos_update_request(), which returns without waiting for the
 * idle CPUs, as a driver's update does: the asynchronous tightening the
 * registry must still bring to the CPUs idle too deep.  An invalid value
 * is refused (-EINVAL) and changes nothing.  The default, PM_QOS_DEFAULT_VALUE,
 * constrains nothing: built in, the module holds no constraint until
 * written.
 */

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pm_qos.h>

static struct pm_qos_request test_latency_qos_req;

static int usecs = PM_QOS_DEFAULT_VALUE;

static int test_latency_qos_set_usecs(const char *val,
				      const struct kernel_param *kp)
{
	int value, ret;

	ret = kstrtoint(val, 0, &value);
	if (ret)
		return ret;
	/* Before the load (the command line, modprobe): the init checks it. */
	if (!cpu_latency_qos_request_active(&test_latency_qos_req)) {
		usecs = value;
		return 0;
	}
	if (value < 0 && value != PM_QOS_DEFAULT_VALUE)
		return -EINVAL;
	usecs = value;
	cpu_latency_qos_update_request(&test_latency_qos_req, value);
	return 0;
}

static const struct kernel_param_ops test_latency_qos_usecs_ops = {
	.set = test_latency_qos_set_usecs,
	.get = param_get_int,
};
module_param_cb(usecs, &test_latency_qos_usecs_ops, &usecs, 0644);
MODULE_PARM_DESC(usecs,
		 "the request's value in microseconds (-1: none); a write updates it without waiting");
static bool from_init;
module_param(from_init, bool, 0444);
MODULE_PARM_DESC(from_init, "add the request from the module's __init code");

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

/* Under the parameters' lock: a write of usecs sees the request or not. */
static int __init test_latency_qos_init(void)
{
	bool active;

	kernel_param_lock(THIS_MODULE);
	if (from_init)
		cpu_latency_qos_add_request(&test_latency_qos_req, usecs);
	else
		test_latency_qos_hold();
	active = cpu_latency_qos_request_active(&test_latency_qos_req);
	kernel_param_unlock(THIS_MODULE);
	return active ? 0 : -EINVAL;
}
module_init(test_latency_qos_init);

static void __exit test_latency_qos_exit(void)
{
	kernel_param_lock(THIS_MODULE);
	cpu_latency_qos_remove_request(&test_latency_qos_req);
	kernel_param_unlock(THIS_MODULE);
}
module_exit(test_latency_qos_exit);

MODULE_DESCRIPTION("Test module: a CPU latency QoS request, named in the listing");
MODULE_LICENSE("GPL");
