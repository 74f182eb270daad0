// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency_dev_test - user-space interfaces of the latency-constraint registry
 *
 * Exercises /dev/acceptable_latency and /proc/latency_constraints as a user
 * program sees them (Documentation/latency.txt): a holder per open file,
 * text and binary writes, rejected writes that change nothing and log
 * nothing, reads of the system value, release on close and on SIGKILL,
 * permissions, and many holders at once.  Must run as root.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"

#define DEV		"/dev/acceptable_latency"
#define LISTING		"/proc/latency_constraints"
#define HEADER		"# identifier usecs pid comm"
#define INFINITE_LATENCY 1000000
#define MAX_HOLDERS	4096
#define MANY		200
#define NOBODY		65534

struct holder {
	char id[64];
	int usecs;
	int pid;		/* -1 for "-" */
	char comm[32];
};

struct listing {
	bool ok;		/* header and system line found, all lines parsed */
	int n;
	struct holder h[MAX_HOLDERS];
	int system;
	char setter[64];
};

static struct listing base, cur;
static char comm[32];

/* Parse /proc/latency_constraints into @l; l->ok says whether it made sense. */
static void read_listing(struct listing *l)
{
	char *line = NULL;
	size_t cap = 0;
	bool header = false;
	bool done = false;
	FILE *f;

	memset(l, 0, sizeof(*l));
	l->system = -1;
	f = fopen(LISTING, "r");
	if (!f)
		return;

	l->ok = true;
	while (getline(&line, &cap, f) > 0) {
		struct holder *h;
		char pid[16];
		int pos = 0;

		line[strcspn(line, "\n")] = '\0';
		if (!header) {
			header = !strcmp(line, HEADER);
			if (!header)
				l->ok = false;
			continue;
		}
		if (done) {			/* nothing after the system line */
			l->ok = false;
			continue;
		}
		if (!strncmp(line, "# system ", 9)) {
			if (sscanf(line + 9, "%d %63s", &l->system, l->setter) != 2)
				l->ok = false;
			done = true;
			continue;
		}
		if (l->n == MAX_HOLDERS) {
			l->ok = false;
			continue;
		}
		h = &l->h[l->n++];
		if (sscanf(line, "%63s %d %15s %n", h->id, &h->usecs, pid, &pos) != 3 ||
		    !pos) {
			l->ok = false;
			continue;
		}
		h->pid = strcmp(pid, "-") ? atoi(pid) : -1;
		snprintf(h->comm, sizeof(h->comm), "%s", line + pos);
	}
	if (!header || !done)
		l->ok = false;
	free(line);
	fclose(f);
}

static struct holder *find(struct listing *l, const char *id)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->h[i].id, id))
			return &l->h[i];
	return NULL;
}

static int count_pid(struct listing *l, int pid)
{
	char prefix[32];
	int i, n = 0;

	snprintf(prefix, sizeof(prefix), "user:%d:", pid);
	for (i = 0; i < l->n; i++)
		if (!strncmp(l->h[i].id, prefix, strlen(prefix)))
			n++;
	return n;
}

/* The system value expected while a holder of @usecs is held. */
static int expect(int usecs)
{
	return usecs < base.system ? usecs : base.system;
}

/* The system value as /dev/acceptable_latency reads it, -1 on error. */
static int dev_value(void)
{
	char buf[32];
	ssize_t n;
	int fd;

	fd = open(DEV, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 1 || buf[n - 1] != '\n')
		return -1;
	buf[n] = '\0';
	return atoi(buf);
}

/*
 * Open the device for writing and find the holder it created: the one
 * identifier of our tgid that was not listed before.
 */
static int open_holder(char *id, size_t len)
{
	struct listing *before = malloc(sizeof(*before));
	char prefix[32];
	int fd, i;

	if (!before)
		return -1;
	read_listing(before);
	fd = open(DEV, O_WRONLY);
	if (fd < 0) {
		free(before);
		return -1;
	}
	read_listing(&cur);
	snprintf(prefix, sizeof(prefix), "user:%d:", getpid());
	id[0] = '\0';
	for (i = 0; i < cur.n; i++)
		if (!strncmp(cur.h[i].id, prefix, strlen(prefix)) &&
		    !find(before, cur.h[i].id))
			snprintf(id, len, "%s", cur.h[i].id);
	free(before);
	return fd;
}

static bool wr(int fd, const void *buf, size_t len)
{
	return write(fd, buf, len) == (ssize_t)len;
}

static bool wr_str(int fd, const char *s)
{
	return wr(fd, s, strlen(s));
}

/* Is @id held at @usecs, with the system value and the device agreeing? */
static bool holds(const char *id, int usecs)
{
	struct holder *h;

	read_listing(&cur);
	h = find(&cur, id);
	if (!cur.ok || !h) {
		ksft_print_msg("%s not listed\n", id);
		return false;
	}
	if (h->usecs != usecs || cur.system != expect(usecs) ||
	    dev_value() != cur.system) {
		ksft_print_msg("%s: usecs %d (want %d), system %d (want %d), device %d\n",
			       id, h->usecs, usecs, cur.system, expect(usecs),
			       dev_value());
		return false;
	}
	return true;
}

/* Is @id listed with @usecs?  Refreshes cur. */
static bool listed(const char *id, int usecs)
{
	struct holder *h;

	read_listing(&cur);
	h = find(&cur, id);
	if (!cur.ok || !h || h->usecs != usecs) {
		ksft_print_msg("%s: usecs %d, want %d\n", id, h ? h->usecs : -1,
			       usecs);
		return false;
	}
	return true;
}

/* Is the registry back where it was when the test started? */
static bool at_base(void)
{
	int i;

	read_listing(&cur);
	if (!cur.ok || cur.n != base.n || cur.system != base.system ||
	    dev_value() != base.system)
		goto differ;
	for (i = 0; i < cur.n; i++)
		if (strcmp(cur.h[i].id, base.h[i].id) ||
		    cur.h[i].usecs != base.h[i].usecs)
			goto differ;
	return true;
differ:
	ksft_print_msg("registry differs from the start: %d holders, system %d (was %d, %d)\n",
		       cur.n, cur.system, base.n, base.system);
	return false;
}

static void result(bool pass, const char *desc)
{
	ksft_test_result(pass, "- %s\n", desc);
}

static void test_device_node(void)
{
	struct stat st;
	bool pass = !stat(DEV, &st) && S_ISCHR(st.st_mode) &&
		    (st.st_mode & 07777) == 0600 && st.st_uid == 0;

	if (!pass)
		ksft_print_msg(DEV ": missing or wrong mode/owner\n");
	result(pass, DEV " is a character device, mode 0600, owned by root");
}

static void test_listing_format(void)
{
	bool pass = base.ok && base.system == dev_value();
	int i;

	for (i = 1; pass && i < base.n; i++) {
		struct holder *a = &base.h[i - 1], *b = &base.h[i];

		if (a->usecs > b->usecs ||
		    (a->usecs == b->usecs && strcmp(a->id, b->id) >= 0))
			pass = false;
	}
	if (pass && base.n) {
		pass = base.system == base.h[0].usecs;
		if (base.system < INFINITE_LATENCY)
			pass = pass && !strcmp(base.setter, base.h[0].id);
	}
	if (pass && !base.n)
		pass = base.system == INFINITE_LATENCY &&
		       !strcmp(base.setter, "-");
	if (!pass)
		ksft_print_msg("listing: ok %d, %d holders, system %d by %s\n",
			       base.ok, base.n, base.system, base.setter);
	result(pass, LISTING ": header, holders sorted by usecs and identifier, system line");
}

static void test_read_only_open(void)
{
	int fd = open(DEV, O_RDONLY);
	bool pass = fd >= 0 && at_base() && !count_pid(&cur, getpid());

	if (fd >= 0)
		close(fd);
	result(pass, "an open for reading only creates no holder");
}

static void test_hold_release(void)
{
	char id[64], want[32];
	struct holder *h;
	bool pass;
	int fd;

	fd = open_holder(id, sizeof(id));
	snprintf(want, sizeof(want), "user:%d:", getpid());
	h = find(&cur, id);
	pass = fd >= 0 && h && !strncmp(id, want, strlen(want)) &&
	       atoi(id + strlen(want)) > 0 && h->usecs == INFINITE_LATENCY &&
	       h->pid == getpid() && !strcmp(h->comm, comm) &&
	       cur.system == base.system;
	if (!pass)
		ksft_print_msg("holder '%s' pid %d comm '%s' usecs %d\n", id,
			       h ? h->pid : 0, h ? h->comm : "", h ? h->usecs : 0);
	result(pass, "an open for writing registers user:<tgid>:<seq> with no constraint");

	pass = fd >= 0 && wr_str(fd, "150\n") && holds(id, 150);
	if (pass && 150 < base.system)
		pass = !strcmp(cur.setter, id) && cur.h[0].usecs == 150;
	result(pass, "writing \"150\\n\" holds 150 us and names the holder as setter");

	pass = fd >= 0 && wr_str(fd, "300") && holds(id, 300);
	result(pass, "a later write \"300\" changes the same holder");

	if (fd >= 0)
		close(fd);
	pass = fd >= 0 && at_base() && !find(&cur, id);
	result(pass, "close releases the holder and restores the system value");
}

static void test_two_holders(void)
{
	char a[64], b[64];
	int fa, fb;
	bool pass;

	fa = open_holder(a, sizeof(a));
	fb = open_holder(b, sizeof(b));
	pass = fa >= 0 && fb >= 0 && strcmp(a, b) &&
	       wr_str(fa, "400\n") && wr_str(fb, "200\n") &&
	       listed(a, 400) && holds(b, 200);
	if (fb >= 0)
		close(fb);
	pass = pass && holds(a, 400) && !find(&cur, b);
	if (fa >= 0)
		close(fa);
	pass = pass && at_base();
	result(pass, "two holders: the lower sets the system value, each close releases its own");
}

static void test_values(void)
{
	int bin = 175, big = 0x00ffffff;
	char id[64];
	int fd;

	fd = open_holder(id, sizeof(id));
	result(fd >= 0 && wr(fd, &bin, 4) && holds(id, 175),
	       "a 4-byte binary int 175 is accepted");
	result(fd >= 0 && wr_str(fd, "1234") && holds(id, 1234),
	       "a 4-byte write \"1234\" (4th byte not 0) is text");
	result(fd >= 0 && wr_str(fd, "2000000\n") && holds(id, INFINITE_LATENCY) &&
	       wr_str(fd, "0\n") && holds(id, 0) &&
	       wr(fd, &big, 4) && holds(id, INFINITE_LATENCY),
	       "values above INFINITE_LATENCY mean no constraint, 0 is accepted");
	result(fd >= 0 && wr_str(fd, "0000150\n") && holds(id, 150),
	       "leading zeros are decimal, not octal");
	if (fd >= 0)
		close(fd);
}

struct bad_write {
	const char *desc;
	const char *buf;
	size_t len;
};

static char long_buf[4096];
static const int minus_one = -1, minus_150 = -150, int_min = INT_MIN;

static const struct bad_write bad[] = {
	{ "an empty write", "", 0 },
	{ "\"\\n\"", "\n", 1 },
	{ "\"abc\"", "abc", 3 },
	{ "\"-1\\n\"", "-1\n", 3 },
	{ "\"-1\"", "-1", 2 },
	{ "\"+150\"", "+150", 4 },
	{ "\" 150\"", " 150", 4 },
	{ "\"150 \"", "150 ", 4 },
	{ "\"15 0\\n\"", "15 0\n", 5 },
	{ "\"150\\n\\n\"", "150\n\n", 5 },
	{ "\"0x96\"", "0x96", 4 },
	{ "\"2147483648\\n\" (overflows int)", "2147483648\n", 11 },
	{ "\"4294967446\" (150 modulo 2^32)", "4294967446", 10 },
	{ "\"00000000000000150\\n\" (over-long)", "00000000000000150\n", 18 },
	{ "4096 bytes of digits", long_buf, sizeof(long_buf) },
	{ "3 binary bytes 96 00 00", "\x96\0\0", 3 },
	{ "2 bytes \"1\\0\"", "1\0", 2 },
	{ "binary -1", (const char *)&minus_one, 4 },
	{ "binary -150", (const char *)&minus_150, 4 },
	{ "binary INT_MIN", (const char *)&int_min, 4 },
};

#define NR_BAD ARRAY_SIZE(bad)

/*
 * Records the kernel logged since kmsg_start(), counting only the kernel
 * facility (user space may log through /dev/kmsg meanwhile).  -1: no kmsg.
 */
static int kmsg_fd = -1;

static void kmsg_start(void)
{
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
}

static int kmsg_new_records(void)
{
	char rec[8192];
	int n = 0;

	if (kmsg_fd < 0)
		return -1;
	for (;;) {
		ssize_t len = read(kmsg_fd, rec, sizeof(rec) - 1);

		if (len < 0 && errno == EPIPE)
			continue;
		if (len <= 0)
			break;
		rec[len] = '\0';
		if (atoi(rec) < 8) {		/* facility 0: the kernel */
			ksft_print_msg("kernel logged: %s", rec);
			n++;
		}
	}
	close(kmsg_fd);
	kmsg_fd = -1;
	return n;
}

static void test_bad_writes(void)
{
	char id[64], desc[128];
	unsigned int i;
	int fd, logged;

	memset(long_buf, '1', sizeof(long_buf));
	kmsg_start();
	fd = open_holder(id, sizeof(id));
	if (fd < 0 || !wr_str(fd, "321\n"))
		ksft_print_msg("cannot set up a holder at 321 us\n");

	for (i = 0; i < NR_BAD; i++) {
		ssize_t ret = write(fd, bad[i].buf, bad[i].len);
		int err = errno;
		bool pass = ret == -1 && err == EINVAL && holds(id, 321);

		if (ret != -1 || err != EINVAL)
			ksft_print_msg("write returned %zd, errno %d\n", ret, err);
		snprintf(desc, sizeof(desc),
			 "malformed write %s: EINVAL, nothing changes",
			 bad[i].desc);
		result(pass, desc);
	}
	if (fd >= 0)
		close(fd);

	logged = kmsg_new_records();
	if (logged < 0)
		ksft_test_result_skip("- rejected writes log nothing: no /dev/kmsg\n");
	else
		result(!logged && at_base(), "rejected writes log nothing to the kernel log");
}

static void test_reads(void)
{
	char full[32], piece[32], tail[32];
	ssize_t n, len = 0;
	bool pass;
	int fd;

	fd = open(DEV, O_RDONLY);
	n = fd >= 0 ? read(fd, full, sizeof(full) - 1) : -1;
	if (n > 0)
		full[n] = '\0';
	pass = n > 1 && full[n - 1] == '\n' &&
	       strspn(full, "0123456789") == (size_t)n - 1 &&
	       atoi(full) == base.system;
	result(pass, "read returns the system value as decimal text and a newline");

	pass = pass && read(fd, piece, sizeof(piece)) == 0 &&
	       lseek(fd, 0, SEEK_SET) == 0;
	while (pass && len < (ssize_t)sizeof(piece) - 1) {
		ssize_t r = read(fd, piece + len, 1);

		if (r < 0)
			pass = false;
		if (r <= 0)
			break;
		len += r;
	}
	pass = pass && len == n && !memcmp(piece, full, n);
	result(pass, "1-byte reads return the text piece by piece, then EOF");

	pass = n > 1 && lseek(fd, 1, SEEK_SET) == 1 &&
	       read(fd, tail, sizeof(tail)) == n - 1 && !memcmp(tail, full + 1, n - 1) &&
	       pread(fd, tail, 2, 0) == 2 && !memcmp(tail, full, 2);
	result(pass, "lseek and pread read from the requested offset");
	if (fd >= 0)
		close(fd);
}

static void test_inherited(void)
{
	char id[64];
	bool pass;
	pid_t pid;
	int fd, status;

	fd = open_holder(id, sizeof(id));
	pass = fd >= 0 && wr_str(fd, "250\n");
	pid = fork();
	if (!pid) {
		/* The child's write changes the opener's holder, then it exits. */
		_exit(wr_str(fd, "260\n") ? 0 : 1);
	}
	pass = pass && pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && !WEXITSTATUS(status) && holds(id, 260) &&
	       find(&cur, id)->pid == getpid();
	if (fd >= 0)
		close(fd);
	pass = pass && at_base();
	result(pass, "a forked child shares the holder; it lasts until the last close");
}

static void test_sigkill(void)
{
	int ready[2], status = 0;
	char id[64], c;
	bool pass;
	pid_t pid;

	if (pipe(ready)) {
		result(false, "SIGKILL of a holding process releases its constraint");
		return;
	}
	pid = fork();
	if (!pid) {
		int fd = open(DEV, O_WRONLY);

		c = fd >= 0 && wr_str(fd, "120\n") ? 'y' : 'n';
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	pass = pid > 0 && read(ready[0], &c, 1) == 1 && c == 'y';
	close(ready[0]);
	read_listing(&cur);
	snprintf(id, sizeof(id), "user:%d:", pid);
	pass = pass && count_pid(&cur, pid) == 1;
	for (int i = 0; pass && i < cur.n; i++)
		if (!strncmp(cur.h[i].id, id, strlen(id)))
			pass = cur.h[i].usecs == 120 && cur.h[i].pid == pid &&
			       cur.system == expect(120);
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	pass = pass && WIFSIGNALED(status) && at_base();
	result(pass, "SIGKILL of a holding process releases its constraint");
}

/* Run @fn as user nobody in a child; true if it returned 0. */
static bool as_nobody(int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(100);
		_exit(fn(arg));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return false;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		ksft_print_msg("unprivileged child: status %#x\n", status);
	return WIFEXITED(status) && !WEXITSTATUS(status);
}

static int nobody_open(void *unused)
{
	int bad = 0;

	(void)unused;

	if (open(DEV, O_WRONLY) >= 0 || errno != EACCES)
		bad |= 1;
	if (open(DEV, O_RDWR) >= 0 || errno != EACCES)
		bad |= 2;
	return bad;
}

/*
 * Try to reach root's holder by reopening it through root's /proc fd link
 * or through our own (the child inherited the descriptor, but a reopen is
 * a new open of the 0600 node), or to write the listing.
 */
static int nobody_change(void *arg)
{
	const char *const *paths = arg;
	int bad = 0, fd, i;

	for (i = 0; i < 3; i++) {
		fd = open(paths[i], O_WRONLY);
		if (fd >= 0) {
			bad |= 1 << i;
			if (write(fd, "5\n", 2) == 2)
				bad |= 8 << i;
			close(fd);
		}
	}
	return bad;
}

static void test_unprivileged(void)
{
	char id[64], theirs[64], ours[64];
	const char *paths[3] = { theirs, ours, LISTING };
	bool pass;
	int fd;

	result(as_nobody(nobody_open, NULL) && at_base(),
	       "an unprivileged user cannot open the device for writing");

	fd = open_holder(id, sizeof(id));
	snprintf(theirs, sizeof(theirs), "/proc/%d/fd/%d", getpid(), fd);
	snprintf(ours, sizeof(ours), "/proc/self/fd/%d", fd);
	pass = fd >= 0 && wr_str(fd, "500\n") &&
	       as_nobody(nobody_change, paths) && holds(id, 500);
	if (fd >= 0)
		close(fd);
	pass = pass && at_base();
	result(pass, "an unprivileged user cannot change root's constraint");
}

static void test_many(void)
{
	char val[16];
	int fds[MANY], i, j;
	bool pass = true;

	for (i = 0; i < MANY; i++)
		fds[i] = -1;
	for (i = 0; i < MANY; i++) {
		fds[i] = open(DEV, O_WRONLY);
		if (fds[i] < 0) {
			ksft_perror("open");
			pass = false;
			break;
		}
		snprintf(val, sizeof(val), "%d\n", 1000 + i);
		if (!wr_str(fds[i], val))
			pass = false;
	}
	read_listing(&cur);
	pass = pass && cur.ok && count_pid(&cur, getpid()) == MANY &&
	       cur.system == expect(1000);
	/* Every identifier is different. */
	for (i = 0; pass && i < cur.n; i++)
		for (j = i + 1; j < cur.n; j++)
			if (!strcmp(cur.h[i].id, cur.h[j].id))
				pass = false;
	/* Release the odd ones first: the system value must not move. */
	for (i = 1; i < MANY; i += 2)
		if (fds[i] >= 0)
			close(fds[i]);
	read_listing(&cur);
	pass = pass && count_pid(&cur, getpid()) == (MANY + 1) / 2 &&
	       cur.system == expect(1000);
	for (i = 0; i < MANY; i += 2)
		if (fds[i] >= 0)
			close(fds[i]);
	pass = pass && at_base();
	result(pass, "200 holders at once, each with its own identifier, all released");
}

static void test_concurrent(void)
{
	const int procs = 8, loops = 100;
	pid_t pids[8];
	bool pass = true;
	int i, status;

	for (i = 0; i < procs; i++) {
		pids[i] = fork();
		if (!pids[i]) {
			char buf[16];
			int n;

			for (n = 0; n < loops; n++) {
				int fd = open(DEV, O_RDWR);

				snprintf(buf, sizeof(buf), "%d\n", 600 + n);
				if (fd < 0 || !wr_str(fd, buf) ||
				    read(fd, buf, sizeof(buf)) <= 0)
					_exit(1);
				close(fd);
			}
			_exit(0);
		}
		if (pids[i] < 0)
			pass = false;
	}
	for (i = 0; i < procs; i++) {
		if (pids[i] <= 0)
			continue;
		if (waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			pass = false;
	}
	pass = pass && at_base();
	result(pass, "8 processes opening, writing and closing at once leave nothing behind");
}

int main(void)
{
	FILE *f;

	ksft_print_header();
	/* One line per result() below; test_bad_writes() has NR_BAD + 1. */
	ksft_set_plan(3 + 4 + 1 + 4 + NR_BAD + 1 + 3 + 1 + 1 + 2 + 1 + 1 + 1);

	f = fopen("/proc/self/comm", "r");
	if (!f || !fgets(comm, sizeof(comm), f))
		ksft_exit_fail_msg("cannot read /proc/self/comm\n");
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	if (geteuid())
		ksft_exit_fail_msg("must run as root\n");

	read_listing(&base);
	ksft_print_msg("start: %d holders, system %d us\n", base.n, base.system);

	test_device_node();
	test_listing_format();
	if (access(DEV, F_OK) || access(LISTING, F_OK))
		ksft_exit_fail_msg("no " DEV " or " LISTING "\n");
	test_read_only_open();
	test_hold_release();		/* 4 */
	test_two_holders();
	test_values();			/* 4 */
	test_bad_writes();		/* NR_BAD + 1 */
	test_reads();			/* 3 */
	test_inherited();
	test_sigkill();
	test_unprivileged();		/* 2 */
	test_many();
	test_concurrent();

	result(at_base(), "the registry ends as it started");
	ksft_finished();
}
