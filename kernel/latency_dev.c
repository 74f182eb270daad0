// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency_dev.c: user-space interface of the latency-constraint registry
 *
 * A driver states its latency constraint through set_acceptable_latency();
 * a user-space program (an audio server, a measurement tool) has no such
 * call, and needs one exactly as much.  This file gives it a misc device,
 * /dev/acceptable_latency.
 *
 * Every open for writing is a holder of its own, named "user:<seq>" (no
 * pid: a pid is shown, in the listing, only to readers of its pid
 * namespace) and registered with no constraint at open time, so that
 * /proc/latency_constraints names it with the pid and command of its opener
 * from the start.  A write sets its constraint, which is held for as long
 * as the file stays open: close() and the death of the last process that
 * has it open both end in ->release(), which removes it.  A write may name
 * the CPUs the constraint applies to ("20 cpus=2-15"); without a list it
 * applies to all.  A read returns the system value as decimal text.  An
 * open for reading only holds nothing.
 *
 * Who may hold a constraint is decided by the mode of the device node alone
 * (0600, root), as for /dev/cpu_dma_latency: an administrator can hand the
 * node to a group (a udev rule) without granting any capability.  Nothing
 * a user writes can make the kernel log a line.
 *
 * The format is described in Documentation/latency.txt and in
 * Documentation/ABI/testing/dev-acceptable_latency.
 */

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/latency.h>
#include <linux/miscdevice.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "latency_internal.h"

/*
 * Longest value accepted, with its newline and NUL.  INT_MAX in decimal
 * plus a newline is 11 bytes; some room is left for leading zeros,
 * anything longer is not a number.
 */
#define LATENCY_DEV_VALUE_MAX	16

/*
 * Longest write accepted: a value and a CPU list of up to a page (a list
 * of every other CPU of a large machine is a few kilobytes long).
 */
#define LATENCY_DEV_WRITE_MAX	PAGE_SIZE

/**
 * struct latency_dev_holder - the constraint held by one open file
 * @id: the holder's identifier, "user:<seq>"
 *
 * Identifier and owner are fixed at open time: a write through a file that
 * was inherited or passed on still changes the opener's holder.
 */
struct latency_dev_holder {
	char id[LATENCY_ID_MAX + 1];
};

/*
 * Counts every open for writing since boot.  It is 64 bits wide so that an
 * identifier is never reused.
 */
static atomic64_t latency_dev_seq = ATOMIC64_INIT(0);

/*
 * Decode one write: decimal digits, optionally a blank and "cpus=" with a
 * CPU list in the kernel's list syntax ("2-15", "0,4-7"), then optionally a
 * newline, then optionally a NUL, as echo, printf and a C string written
 * with its terminator give them ("150", "150 cpus=2-3\n", "150\0",
 * "150\n\0").  Nothing else is a value: a binary int is refused, so that
 * no text (the 4 bytes of "100" and its NUL) can be taken for one.  Binary
 * writers have /dev/cpu_dma_latency.  A list must name a possible CPU; the
 * others it names are ignored.
 *
 * Return: 0, the value in *@usecs and whether a list was given in *@some,
 * the list in @cpus; -EFAULT, -ENOMEM, or -EINVAL for anything else;
 * never logs.
 */
static int latency_dev_parse(const char __user *ubuf, size_t count,
			     int *usecs, bool *some, struct cpumask *cpus)
{
	char *buf, *list;
	size_t len = count;
	size_t i;
	int ret = -EINVAL;

	if (!count || count > LATENCY_DEV_WRITE_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	if (buf[len - 1] == '\0')
		len--;
	if (len && buf[len - 1] == '\n')
		len--;
	buf[len] = '\0';
	if (strlen(buf) != len)		/* a NUL inside */
		goto out;
	for (i = 0; isdigit(buf[i]); i++)
		;
	list = buf + i;
	*some = *list;
	if (!i || i > LATENCY_DEV_VALUE_MAX ||
	    (!*some && count > LATENCY_DEV_VALUE_MAX) ||
	    (*some && !strstarts(list, " cpus=")))
		goto out;
	*list = '\0';
	list += strlen(" cpus=");

	/* Only digits are left: the one possible error is -ERANGE. */
	if (kstrtoint(buf, 10, usecs))
		goto out;
	/*
	 * cpulist_parse() takes "" for the empty set and skips blanks: the
	 * list is one word, as it is in the listing.
	 */
	if (*some && (!isdigit(*list) || strpbrk(list, " \t\n\v\f\r") ||
		      cpulist_parse(list, cpus) ||
		      !cpumask_intersects(cpus, cpu_possible_mask)))
		goto out;
	ret = 0;
out:
	kfree(buf);
	return ret;
}

/**
 * latency_dev_hold - make an open file a holder of the system registry
 * @file: the file, whose ->private_data becomes the holder
 *
 * Registers "user:<seq>" with no constraint, the opener as its owner.
 * /dev/acceptable_latency and /dev/cpu_dma_latency hold through this.
 *
 * Context: Process context (->open()); may sleep.
 * Return: 0, or -ENOMEM.
 */
int latency_dev_hold(struct file *file)
{
	struct latency_dev_holder *h;
	int ret;

	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;

	snprintf(h->id, sizeof(h->id), "user:%lld",
		 atomic64_inc_return(&latency_dev_seq));

	/* The registry records current, the opener, as the owner. */
	ret = latency_registry_set(&latency_system, h->id, INFINITE_LATENCY,
				   current);
	if (ret) {
		kfree(h);
		return ret;
	}

	file->private_data = h;
	return 0;
}

/**
 * latency_dev_unhold - remove the holder of an open file, if it has one
 * @file: the file
 *
 * Context: Process context (->release()).
 */
void latency_dev_unhold(struct file *file)
{
	struct latency_dev_holder *h = file->private_data;

	if (h) {
		remove_acceptable_latency(h->id);
		kfree(h);
		file->private_data = NULL;
	}
}

/**
 * latency_dev_set - set the constraint of an open file's holder
 * @file: the file, made a holder by latency_dev_hold()
 * @usecs: the constraint, 0 to INFINITE_LATENCY
 *
 * set_acceptable_latency() semantics: when it returns, the new system value
 * is published and every notifier has run.
 *
 * Context: Process context (->write()); may sleep.
 * Return: 0, or what latency_registry_set() returns.
 */
int latency_dev_set(struct file *file, int usecs)
{
	struct latency_dev_holder *h = file->private_data;

	/* The holder exists since open: the owner it recorded stays. */
	return latency_registry_set(&latency_system, h->id, usecs, current);
}

static int latency_dev_open(struct inode *inode, struct file *file)
{
	/* misc_open() left the miscdevice here; we never use it. */
	file->private_data = NULL;

	if (!(file->f_mode & FMODE_WRITE))
		return 0;
	return latency_dev_hold(file);
}

static int latency_dev_release(struct inode *inode, struct file *file)
{
	latency_dev_unhold(file);
	return 0;
}

/*
 * Set the holder's constraint and CPUs; when write() returns, every
 * notifier has run.  Values above INFINITE_LATENCY mean "no constraint",
 * as for a driver.
 */
static ssize_t latency_dev_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct latency_dev_holder *h = file->private_data;
	cpumask_var_t cpus;
	bool some;
	int usecs;
	int ret;

	if (!alloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	ret = latency_dev_parse(ubuf, count, &usecs, &some, cpus);
	if (!ret)
		ret = latency_registry_set_cpus(&latency_system, h->id,
						min(usecs, INFINITE_LATENCY),
						some ? cpus : NULL, current);
	free_cpumask_var(cpus);
	return ret ?: count;
}

/* The system value as decimal text; *ppos is honoured like a regular file. */
static ssize_t latency_dev_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char buf[16];
	int len;

	len = scnprintf(buf, sizeof(buf), "%d\n", system_latency_constraint());
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations latency_dev_fops = {
	.owner		= THIS_MODULE,
	.open		= latency_dev_open,
	.release	= latency_dev_release,
	.read		= latency_dev_read,
	.write		= latency_dev_write,
	.llseek		= default_llseek,
};

static struct miscdevice latency_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "acceptable_latency",
	.fops	= &latency_dev_fops,
	.mode	= 0600,
};

static int __init latency_dev_init(void)
{
	int ret;

	ret = misc_register(&latency_dev);
	if (ret)
		pr_err("latency: cannot register /dev/acceptable_latency: %d\n",
		       ret);
	return ret;
}
device_initcall(latency_dev_init);
