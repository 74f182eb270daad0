// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency_dev.c: user-space interfaces of the latency-constraint registry
 *
 * A driver states its latency constraint through set_acceptable_latency();
 * a user-space program (an audio server, a measurement tool) has no such
 * call, and needs one exactly as much.  This file gives it a misc device,
 * /dev/acceptable_latency.
 *
 * Every open for writing is a holder of its own, named "user:" and 16 hex
 * digits that are unique but count nothing (no pid either: the listing
 * shows the opener's only to a reader who may see it), and registered with
 * no constraint at open time, so that /proc/latency_constraints names it
 * with the pid and command of its opener from the start.  A write sets its
 * constraint, which is held for as long as the file stays open: close() and
 * the death of the last process that has it open both end in ->release(),
 * which removes it.  A write may name the CPUs the constraint applies to
 * ("20 cpus=2-15"); without a list it applies to all.  A read returns the
 * system value as decimal text.  An open for reading only holds nothing.
 *
 * Who may hold a constraint is decided by the mode of the device node alone
 * (0600, root), as for /dev/cpu_dma_latency: an administrator can hand the
 * node to a group (a udev rule) without granting any capability.  Nothing
 * a user writes can make the kernel log a line.
 *
 * The format is described in Documentation/latency.txt and in
 * Documentation/ABI/testing/dev-acceptable_latency.
 *
 * The rest of what user space sees of the registry is here too, apart from
 * the core: /proc/latency_constraints, the listing of every holder
 * (Documentation/ABI/testing/procfs-latency_constraints), and the command
 * line, latency.kernel= and latency.cpus=.
 */

#define pr_fmt(fmt) "latency: " fmt

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/cred.h>
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/latency.h>
#include <linux/miscdevice.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pid_namespace.h>
#include <linux/pm_qos.h>
#include <linux/proc_fs.h>
#include <linux/ptrace.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/string_helpers.h>
#include <linux/sysfs.h>
#include <linux/uaccess.h>
#include <kunit/visibility.h>

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
 * @id: the holder's identifier, "user:<token>"
 * @lock: serialises latency_dev_set() on one file (threads, a shared fd)
 * @usecs: what latency_dev_set() last gave it, "no constraint" at open
 * @r: the registry it holds in
 *
 * Identifier and owner are fixed at open time: a write through a file that
 * was inherited or passed on still changes the opener's holder.
 */
struct latency_dev_holder {
	char id[LATENCY_ID_MAX + 1];
	struct mutex lock;	/* see latency_dev_set() */
	int usecs;
	struct latency_registry *r;
};

/*
 * Counts every open for writing since boot, 64 bits wide so that an
 * identifier is never reused.  The identifier shows it through a keyed
 * permutation (four Feistel rounds of SipHash, random at boot), so that it
 * stays unique without telling a reader, in a container say, how many opens
 * the system has made.  The key is drawn after the first open waited for
 * the CRNG to be seeded: an unseeded one could let the key be guessed.
 */
static atomic64_t latency_dev_seq = ATOMIC64_INIT(0);
static siphash_key_t latency_dev_key;

static u64 latency_dev_token(u64 seq)
{
	u32 l = seq >> 32, r = seq, t;
	int i;

	get_random_once(&latency_dev_key, sizeof(latency_dev_key));
	for (i = 0; i < 4; i++) {
		t = r;
		r = l ^ (u32)siphash_2u64(r, i, &latency_dev_key);
		l = t;
	}
	return (u64)l << 32 | r;
}

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
	if (*some)
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
 * latency_kernel_name - whether a kernel caller may use a name
 * @id: the identifier
 * @create: whether the caller makes a new holder (set, a request's init)
 *
 * "user:" names the holders of the devices here: a kernel caller that
 * removed one would have the file's release remove its own constraint
 * later.  "boot:" names those of the command line, which a kernel caller
 * may change or remove, as documented, but not make.
 *
 * Context: Any context.
 * Return: 0, or -EINVAL for a reserved name (with a warning).
 */
int latency_kernel_name(const char *id, bool create)
{
	if (WARN_ONCE(id && (str_has_prefix(id, "user:") ||
			     (create && str_has_prefix(id, "boot:"))),
		      "latency: \"%s\" is reserved to user space\n", id))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_GPL(latency_kernel_name);

/**
 * latency_dev_hold - make an open file a holder of a registry
 * @file: the file, whose ->private_data becomes the holder
 * @r: latency_system, or latency_wakeup
 *
 * Registers "user:<token>" with no constraint, the opener as its owner.
 * /dev/acceptable_latency and /dev/cpu_dma_latency hold through this in
 * latency_system, /dev/cpu_wakeup_latency in latency_wakeup.
 *
 * Context: Process context (->open()); may sleep.
 * Return: 0, -ENOMEM, or -ERESTARTSYS when a signal came while it waited
 * for the random number generator, the first time only.
 */
int latency_dev_hold(struct file *file, struct latency_registry *r)
{
	struct latency_dev_holder *h;
	int ret;

	/* The tokens' key is drawn once, from a seeded generator. */
	ret = wait_for_random_bytes();
	if (ret)
		return ret;
	h = kzalloc(sizeof(*h), GFP_KERNEL_ACCOUNT);
	if (!h)
		return -ENOMEM;

	mutex_init(&h->lock);
	h->usecs = r->max;
	h->r = r;
	snprintf(h->id, sizeof(h->id), "user:%016llx",
		 latency_dev_token(atomic64_inc_return(&latency_dev_seq)));

	/* The registry records current, the opener, as the owner. */
	ret = latency_registry_set(r, h->id, r->max, current);
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
		latency_registry_remove(h->r, h->id);
		kfree(h);
		file->private_data = NULL;
	}
}

/**
 * latency_dev_set - set the constraint of an open file's holder
 * @file: the file, made a holder by latency_dev_hold()
 * @usecs: the constraint, 0 or more (its registry's maximum: none)
 *
 * set_acceptable_latency() semantics: when it returns, the new system value
 * is published and every notifier has run.  The value it already has
 * changes nothing, as in cpu_latency_qos_update_request().
 *
 * Context: Process context (->write()); may sleep.
 * Return: 0, 1 for the value it already has, or what latency_registry_set()
 * returns.
 */
int latency_dev_set(struct file *file, int usecs)
{
	struct latency_dev_holder *h = file->private_data;
	int ret = 1;

	/* The check and the change as one, as under 6.12's pm_qos_lock. */
	mutex_lock(&h->lock);
	if (usecs != h->usecs) {
		/* The holder exists since open: the owner it recorded stays. */
		ret = latency_registry_set(h->r, h->id, usecs, current);
		if (!ret)
			h->usecs = usecs;
	}
	mutex_unlock(&h->lock);
	return ret;
}

static int latency_dev_open(struct inode *inode, struct file *file)
{
	/* misc_open() left the miscdevice here; we never use it. */
	file->private_data = NULL;

	if (!(file->f_mode & FMODE_WRITE))
		return 0;
	return latency_dev_hold(file, &latency_system);
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

	if (!alloc_cpumask_var(&cpus, GFP_KERNEL_ACCOUNT))
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

/*
 * What the listing copies of a holder under the lock, to print it after
 * dropping the lock.  @pid holds a reference until then.
 */
struct latency_entry {
	int usecs;
	struct pid *pid;
	char comm[TASK_COMM_LEN];
	bool named;
	bool all;
	unsigned long caller;
	u64 serial;
	char identifier[LATENCY_ID_MAX + 1];
	struct cpumask cpus;
};

/* Holders copied per hold of the lock: what bounds a reader's irq-off time. */
#define LATENCY_SHOW_BATCH	16

static void latency_entry_copy(struct latency_entry *e,
			       const struct latency_request *req)
{
	const struct latency_constraint *c = NULL;

	if (req->allocated)
		c = container_of(req, struct latency_constraint, req);
	e->usecs = req->usecs;
	e->pid = c ? get_pid(c->pid) : NULL;
	strscpy(e->comm, c ? c->comm : "", sizeof(e->comm));
	e->named = req->identifier;
	/* In a union with the name's tree node: a request without a name. */
	e->caller = e->named ? 0 : req->caller;
	e->serial = e->named ? 0 : req->serial;
	strscpy(e->identifier, req->identifier ?: "", sizeof(e->identifier));
	e->all = !req->cpus;
	if (req->cpus)
		cpumask_copy(&e->cpus, &req->cpus->mask);
}

/*
 * Whether the reader may learn that the opener @pid holds its file: the
 * rule of /proc/PID/fd (proc_fd_access_allowed()), on any /proc mount, and
 * only while the opener's thread group lives, so that the pid of one that
 * exited (its fd inherited or passed on) never names another process.
 * The reader is whoever opened the listing (latency_proc_show()), and a
 * refusal is not audited: any user may read the file in a loop.
 */
static bool latency_may_see(struct pid *pid)
{
	struct task_struct *task = get_pid_task(pid, PIDTYPE_TGID);
	bool ok = task && ptrace_may_access(task, PTRACE_MODE_READ_FSCREDS |
						  PTRACE_MODE_NOAUDIT);

	if (task)
		put_task_struct(task);
	return ok;
}

/*
 * A holder's pid as the reader's pid namespace sees it; a holder outside
 * that namespace, or one the reader may not see (latency_may_see()), shows
 * neither pid nor comm.  The comm, which its task sets at will, is escaped as in
 * /proc/PID/status, so that it cannot add a line.
 */
static void latency_entry_show(struct seq_file *m, struct latency_entry *e,
			       struct pid_namespace *ns, const char *prefix)
{
	pid_t nr = e->pid && latency_may_see(e->pid) ? pid_nr_ns(e->pid, ns) : 0;
	char buf[LATENCY_NAME_LEN];

	seq_printf(m, "%s%s %d ", prefix,
		   latency_name(e->named ? e->identifier : NULL, e->caller, buf),
		   e->usecs);
	if (e->all)
		seq_puts(m, "all ");
	else
		seq_printf(m, "%*pbl ", cpumask_pr_args(&e->cpus));
	if (nr) {
		seq_printf(m, "%d ", nr);
		seq_escape_str(m, e->comm, ESCAPE_SPACE | ESCAPE_SPECIAL,
			       "\n\\");
		seq_putc(m, '\n');
	} else {
		seq_puts(m, "- -\n");
	}
	put_pid(e->pid);
}

/* The first holder of @root after @key in the listing's order, or NULL. */
static struct rb_node *latency_after(struct rb_root *root,
				     struct latency_request *key)
{
	struct rb_node *node = root->rb_node, *after = NULL;

	while (node) {
		if (latency_less(&key->rbnode, node)) {
			after = node;
			node = node->rb_left;
		} else {
			node = node->rb_right;
		}
	}
	return after;
}

/*
 * The holder a "# cpu", "# s2idle" or "# system" line names: the one that
 * sets a value below its registry's maximum, copied under the lock.
 */
struct latency_holder {
	bool named;
	unsigned long caller;
	char identifier[LATENCY_ID_MAX + 1];
};

static void latency_holder_copy(struct latency_holder *h,
				const struct latency_request *req)
{
	h->named = !req || req->identifier;
	h->caller = req ? req->caller : 0;
	strscpy(h->identifier, req && req->identifier ? req->identifier : "-",
		sizeof(h->identifier));
}

/* @label (@first < 0), or "# cpu" and the CPUs @first to @last. */
static void latency_holder_show(struct seq_file *m, const char *label,
				int first, int last, int value,
				struct latency_holder *h)
{
	char buf[LATENCY_NAME_LEN];

	if (first < 0)
		seq_puts(m, label);
	else if (first == last)
		seq_printf(m, "# cpu %d", first);
	else
		seq_printf(m, "# cpu %d-%d", first, last);
	seq_printf(m, " %d %s\n", value,
		   latency_name(h->named ? h->identifier : NULL, h->caller, buf));
}

static bool latency_holder_same(struct latency_holder *a,
				struct latency_holder *b)
{
	return a->named == b->named && (a->named ?
		!strcmp(a->identifier, b->identifier) : a->caller == b->caller);
}

/*
 * The holder that sets @cpu's limit: the first of its own tree or of the
 * system tree, NULL when nothing constrains it.
 */
static struct latency_request *latency_cpu_holder(struct latency_registry *r,
						  int cpu)
{
	struct rb_node *first = rb_first_cached(&r->all);
	struct latency_request *sys = first ?
		rb_entry(first, struct latency_request, rbnode) : NULL;
	struct latency_request *own = latency_cpu_first(r, cpu);

	if (own && (!sys || latency_less(&own->rbnode, &sys->rbnode)))
		sys = own;
	return sys && sys->usecs < r->max ? sys : NULL;
}

/* @r's system value and, in @h, the holder that sets it, under the lock. */
static int latency_show_value(struct latency_registry *r,
			      struct latency_holder *h)
{
	unsigned long flags;
	int value;

	raw_spin_lock_irqsave(&r->lock, flags);
	value = latency_registry_value(r);
	latency_holder_copy(h, value < r->max ?
			    rb_entry(rb_first_cached(&r->all),
				     struct latency_request, rbnode) : NULL);
	raw_spin_unlock_irqrestore(&r->lock, flags);
	return value;
}

/*
 * "# cpu N usecs holder" lines: the limit the governors apply on each
 * possible CPU (cpuidle_governor_latency_req()), which for the system
 * registry also counts the CPU's device resume latency, the one per-CPU
 * limit 6.12 has (its sysfs file, written by tuned, DPDK, cri-o).  A run
 * of consecutive CPUs with the same limit and holder is one line, "# cpu
 * 0-4095 ...", so that a large machine is not thousands of lines.
 */
static void latency_show_cpus(struct latency_registry *r, struct seq_file *m)
{
	struct latency_holder h, run, wakeup = {};
	int cpu, value, first = -1, last = -1, run_value = 0;
	/* The system wakeup limit caps runtime idle too. */
	int wakeup_value = IS_ENABLED(CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP) &&
			   r == &latency_system ?
			   latency_show_value(&latency_wakeup, &wakeup) : S32_MAX;
	unsigned long flags;

	for_each_possible_cpu(cpu) {
		struct device *dev = get_cpu_device(cpu);
		s32 resume = S32_MAX;

		/*
		 * Under the lock that dev_pm_qos_constraints_destroy() takes to
		 * retire dev->power.qos before freeing it (CPU device removal).
		 */
		if (dev && r == &latency_system) {
			spin_lock_irq(&dev->power.lock);
			resume = dev_pm_qos_raw_resume_latency(dev);
			spin_unlock_irq(&dev->power.lock);
		}
		raw_spin_lock_irqsave(&r->lock, flags);
		value = latency_registry_cpu_value(r, cpu);
		latency_holder_copy(&h, latency_cpu_holder(r, cpu));
		raw_spin_unlock_irqrestore(&r->lock, flags);
		if (resume < value) {
			value = resume;
			h.named = true;
			snprintf(h.identifier, sizeof(h.identifier),
				 "cpu%d/power/pm_qos_resume_latency_us", cpu);
		}
		if (wakeup_value < value) {
			value = wakeup_value;
			h = wakeup;
		}
		if (first >= 0 && cpu == last + 1 && value == run_value &&
		    latency_holder_same(&h, &run)) {
			last = cpu;
			continue;
		}
		if (first >= 0)
			latency_holder_show(m, NULL, first, last, run_value, &run);
		first = cpu;
		last = cpu;
		run_value = value;
		run = h;
	}
	if (first >= 0)
		latency_holder_show(m, NULL, first, last, run_value, &run);
}

/*
 * The holder lines of @r, each after @prefix, LATENCY_SHOW_BATCH holders
 * copied per hold of the lock, none printed under it.
 */
static int latency_show_holders(struct latency_registry *r, struct seq_file *m,
				const char *prefix)
{
	struct pid_namespace *ns = task_active_pid_ns(current);
	char key_id[LATENCY_ID_MAX + 1];
	struct latency_request key = { .identifier = key_id };
	struct rb_node *all, *some;
	struct latency_entry *e;
	unsigned long flags;
	bool start = true;
	int n, i;

	e = kvmalloc_array(LATENCY_SHOW_BATCH, sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	do {
		raw_spin_lock_irqsave(&r->lock, flags);
		/* Both trees at once, in the listing's order. */
		all = start ? rb_first_cached(&r->all) :
		      latency_after(&r->all.rb_root, &key);
		some = start ? rb_first(&r->some) :
		       latency_after(&r->some, &key);
		for (n = 0; (all || some) && n < LATENCY_SHOW_BATCH; n++) {
			struct rb_node **next;

			next = !some || (all && latency_less(all, some)) ?
			       &all : &some;
			latency_entry_copy(&e[n], rb_entry(*next, struct latency_request,
							   rbnode));
			*next = rb_next(*next);
		}
		raw_spin_unlock_irqrestore(&r->lock, flags);

		for (i = 0; i < n; i++)
			latency_entry_show(m, &e[i], ns, prefix);
		if (n) {
			key.usecs = e[n - 1].usecs;
			key.identifier = e[n - 1].named ? key_id : NULL;
			key.serial = e[n - 1].serial;
			strscpy(key_id, e[n - 1].identifier, sizeof(key_id));
		}
		start = false;
	} while (all || some);
	kvfree(e);
	return 0;
}

/**
 * latency_registry_show - print a registry in the listing format
 * @r: the registry
 * @m: where to print
 *
 * One line per holder, sorted by value then identifier, with the CPUs it
 * applies to; one line per possible CPU naming the limit in force there
 * and the holder that sets it; for latency_system with
 * CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP, the holders of the system wakeup class
 * as "# wakeup" lines and its limit as a "# s2idle" line; a last line
 * naming the system value and the holder that sets it.  The format is an
 * ABI: Documentation/ABI/testing/procfs-latency_constraints.
 *
 * The lock is held only to copy LATENCY_SHOW_BATCH holders, or one CPU's
 * line, at a time, never while printing: each line shows what it shows as
 * it was at some moment of the read, the last line the system value at the
 * end of it.
 *
 * Context: Process context; may sleep.
 * Return: 0, or -ENOMEM.
 */
int latency_registry_show(struct latency_registry *r, struct seq_file *m)
{
	bool wakeup = r == &latency_system &&
		      IS_ENABLED(CONFIG_PM_QOS_CPU_SYSTEM_WAKEUP);
	struct latency_holder holder;
	int value;

	seq_puts(m, "# identifier usecs cpus pid comm\n");
	if (latency_show_holders(r, m, ""))
		return -ENOMEM;
	latency_show_cpus(r, m);
	if (wakeup) {
		if (latency_show_holders(&latency_wakeup, m, "# wakeup "))
			return -ENOMEM;
		value = latency_show_value(&latency_wakeup, &holder);
		latency_holder_show(m, "# s2idle", -1, -1, value, &holder);
	}
	value = latency_show_value(r, &holder);
	latency_holder_show(m, "# system", -1, -1, value, &holder);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_show);

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
		pr_err("cannot register /dev/acceptable_latency: %d\n",
		       ret);
	return ret;
}
device_initcall(latency_dev_init);

/*
 * The built-in "kernel" constraint of the 2006 code: two timer ticks, since
 * a longer C-state exit lost timer ticks.  That still holds for a kernel
 * built without CONFIG_TICK_ONESHOT (neither NO_HZ_COMMON nor
 * HIGH_RES_TIMERS): its tick is tick_handle_periodic(), and tick_periodic()
 * advances jiffies by one per timer interrupt (do_timer(1)), so an
 * interrupt delayed past the next period costs a jiffy.  With TICK_ONESHOT
 * the tick is an hrtimer, stopped in idle under NO_HZ_IDLE, and
 * tick_do_update_jiffies64() counts the periods elapsed from the
 * clocksource: no exit latency loses a tick, and the holder would only
 * forbid states (intel_idle's 2.6 ms and 10 ms ones) that cost nothing in
 * time keeping.  "latency.kernel=<usecs>" forces a value, "off" drops it;
 * a kernel whose tick is periodic at run time (nohz=off highres=off) may
 * want the former.
 */
static int latency_kernel_usecs;	/* -1: no holder */
static bool latency_kernel_given;	/* latency.kernel= was on the command line */

/**
 * latency_kernel_default - the built-in constraint a kernel needs
 * @tick_counts_elapsed: whether the tick catches up the periods it missed
 *	(CONFIG_TICK_ONESHOT)
 *
 * Return: Two ticks in microseconds, or -1 for no holder at all.
 */
VISIBLE_IF_KUNIT int latency_kernel_default(bool tick_counts_elapsed)
{
	return tick_counts_elapsed ? -1 : 2 * USEC_PER_SEC / HZ;
}
EXPORT_SYMBOL_IF_KUNIT(latency_kernel_default);

VISIBLE_IF_KUNIT int latency_kernel_param_set(const char *val,
					      const struct kernel_param *kp)
{
	int usecs, ret;

	if (sysfs_streq(val, "off")) {
		usecs = -1;
	} else {
		ret = kstrtoint(val, 10, &usecs);
		if (ret || usecs < 0)
			return -EINVAL;
		usecs = min(usecs, INFINITE_LATENCY);
	}
	latency_kernel_usecs = usecs;
	latency_kernel_given = true;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(latency_kernel_param_set);

VISIBLE_IF_KUNIT int latency_kernel_param_get(char *buffer,
					      const struct kernel_param *kp)
{
	if (latency_kernel_usecs < 0)
		return sysfs_emit(buffer, "off\n");
	return sysfs_emit(buffer, "%d\n", latency_kernel_usecs);
}
EXPORT_SYMBOL_IF_KUNIT(latency_kernel_param_get);

/* The parameters are latency.*, as they were when this was in latency.c. */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "latency."

static const struct kernel_param_ops latency_kernel_param_ops = {
	.set = latency_kernel_param_set,
	.get = latency_kernel_param_get,
};
module_param_cb(kernel, &latency_kernel_param_ops, NULL, 0444);
MODULE_PARM_DESC(kernel, "built-in constraint in usecs, or \"off\"");

/*
 * latency.cpus=<cpulist>:<usecs>, up to LATENCY_BOOT_MAX times: constraints
 * for some CPUs that hold from the first initcall on, before user space
 * runs (the isolated CPUs of a real-time system, say).  Each is held as
 * "boot:<n>", n counting the parameters from 0 in the order given; any
 * caller may change or remove it by that name.  The list is parsed here,
 * checked against the possible CPUs at the initcall.
 */
#define LATENCY_BOOT_MAX	8

struct latency_boot {
	struct cpumask cpus;
	int usecs;
};

static struct latency_boot latency_boot[LATENCY_BOOT_MAX] __initdata;
static unsigned int latency_boot_count __initdata;

static int __init latency_cpus_setup(char *str)
{
	struct latency_boot *b = &latency_boot[latency_boot_count];
	char *colon = strrchr(str, ':');
	int ret;

	if (latency_boot_count == LATENCY_BOOT_MAX) {
		pr_err("latency.cpus=%s: more than %d, ignored\n", str,
		       LATENCY_BOOT_MAX);
		return 1;
	}
	if (!colon || kstrtoint(colon + 1, 10, &b->usecs) || b->usecs < 0)
		goto bad;
	*colon = '\0';
	ret = cpulist_parse(str, &b->cpus);
	*colon = ':';
	if (ret)
		goto bad;
	latency_boot_count++;
	return 1;
bad:
	pr_err("latency.cpus=%s: not <cpulist>:<usecs>, ignored\n", str);
	return 1;
}
__setup("latency.cpus=", latency_cpus_setup);

static void __init latency_boot_add(void)
{
	char id[16];
	unsigned int i;
	int ret;

	for (i = 0; i < latency_boot_count; i++) {
		struct latency_boot *b = &latency_boot[i];

		if (!cpumask_intersects(&b->cpus, cpu_possible_mask)) {
			pr_err("latency.cpus=%*pbl:%d: no possible CPU, ignored\n",
			       cpumask_pr_args(&b->cpus), b->usecs);
			continue;
		}
		snprintf(id, sizeof(id), "boot:%u", i);
		ret = latency_registry_set_cpus(&latency_system, id, b->usecs,
						&b->cpus, NULL);
		if (ret)
			pr_err("cannot add the \"%s\" constraint: %d\n", id, ret);
	}
}

/*
 * Readers of the listing, whoever they are, take the registry lock one at a
 * time: a change, which may come from a hard interrupt, then waits for one
 * reader's batch (LATENCY_SHOW_BATCH holders, or a CPU's line) at most, not
 * for every reader that loops on the file.
 */
static DEFINE_MUTEX(latency_show_lock);

static int __maybe_unused latency_proc_show(struct seq_file *m, void *v)
{
	const struct cred *cred;
	int ret;

	if (mutex_lock_killable(&latency_show_lock))
		return -EINTR;
	/* Judged as who opened it: an fd passed to another process is not. */
	cred = override_creds(m->file->f_cred);
	ret = latency_registry_show(&latency_system, m);
	revert_creds(cred);
	mutex_unlock(&latency_show_lock);
	return ret;
}

/*
 * The built-in "kernel" constraint, unless one exists: whatever was set
 * before the initcall stays.  Nothing else adds "kernel" this early.
 */
VISIBLE_IF_KUNIT int latency_registry_add_kernel(struct latency_registry *r,
						 int usecs)
{
	unsigned long flags;
	bool held;

	raw_spin_lock_irqsave(&r->lock, flags);
	held = latency_find(r, "kernel");
	raw_spin_unlock_irqrestore(&r->lock, flags);
	return held ? -EEXIST : latency_registry_set(r, "kernel", usecs, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(latency_registry_add_kernel);

/*
 * The listing and the holders of the command line, from the first
 * initcall on.
 */
static int __init latency_init(void)
{
	int ret;

	proc_create_single("latency_constraints", 0444, NULL, latency_proc_show);
	latency_boot_add();
	if (!latency_kernel_given)
		latency_kernel_usecs =
			latency_kernel_default(IS_ENABLED(CONFIG_TICK_ONESHOT));
	if (latency_kernel_usecs < 0)
		return 0;
	ret = latency_registry_add_kernel(&latency_system,
					  latency_kernel_usecs);
	if (ret && ret != -EEXIST)
		pr_err("cannot add the \"kernel\" constraint: %d\n", ret);
	return 0;
}
core_initcall(latency_init);
