// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency_dev_test - user-space interfaces of the latency-constraint registry
 *
 * Exercises /dev/acceptable_latency and /proc/latency_constraints as a user
 * program sees them (Documentation/latency.txt): a holder per open file,
 * release on close and on SIGKILL, permissions, many holders at once, and
 * bad input for every entry, none of which may log a line.  Must run as
 * root; the permission cases run as user nobody in a child.
 *
 * Every test runs in a process of its own and compares the registry with
 * the listing it read when it started, so that no test depends on another
 * or on their order.  The fixtures:
 *
 *   latency  one test per behaviour: the node, the listing's format,
 *            holders, inheritance, SIGKILL, permissions, 200 holders and
 *            600 opens at once, concurrent openers, the reads particular
 *            to each file, and bad_input_logs_nothing, which runs the tests
 *            of bad input again in a child and checks that the kernel
 *            logged nothing meanwhile
 *   holder   one holder through its life: open, write, rewrite, close
 *   write    the table of writes, one variant per write, each naming its
 *            result: decimal text accepted, with a newline or a NUL after
 *            it; binary, malformed, huge and unreadable values rejected
 *            without a change; no write at all to the other entries
 *   read     short reads, seeks and pread() of each file, one variant per
 *            file
 *   last     the registry ends as the program found it
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
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kmsg.h"

#define DEV		"/dev/acceptable_latency"
#define LISTING		"/proc/latency_constraints"
#define HEADER		"# identifier usecs cpus pid comm"
#define INFINITE_LATENCY 1000000
#define MAX_HOLDERS	4096
#define MANY		200
#define NOBODY		65534
#define LISTING_MAX	65536
#define KIB4		4096
#define MIB		(1024 * 1024)

struct holder {
	char id[64];
	int usecs;
	char cpus[64];		/* "all" or a CPU list */
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

/* What each test reads the registry into; every fixture has one. */
struct state {
	struct listing *base;	/* as the test found it */
	struct listing *cur;	/* as last read */
	char comm[32];		/* ours, as the listing shows it */
	void *unreadable;	/* a PROT_NONE page */
};

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
		/* A CPU's limit, the wakeup class: comment lines. */
		if (!strncmp(line, "# ", 2) && strncmp(line, "# system ", 9))
			continue;
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
		if (sscanf(line, "%63s %d %63s %15s %n", h->id, &h->usecs, h->cpus,
			   pid, &pos) != 4 ||
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

/* A user-space holder: "user:<token>", its token 16 hex digits. */
static bool user_holder(const struct holder *h)
{
	return !strncmp(h->id, "user:", 5) && strlen(h->id + 5) == 16 &&
	       strspn(h->id + 5, "0123456789abcdef") == 16;
}

static int count_pid(struct listing *l, int pid)
{
	int i, n = 0;

	for (i = 0; i < l->n; i++)
		if (user_holder(&l->h[i]) && l->h[i].pid == pid)
			n++;
	return n;
}

/* The system value expected while a holder of @usecs is held. */
static int expect(struct state *st, int usecs)
{
	return usecs < st->base->system ? usecs : st->base->system;
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
 * user-space holder with our pid that was not listed before.  Leaves @id
 * empty when there is none.
 */
static int open_holder(struct state *st, char *id, size_t len)
{
	struct listing *before = malloc(sizeof(*before));
	int fd, i;

	id[0] = '\0';
	if (!before)
		return -1;
	read_listing(before);
	fd = open(DEV, O_WRONLY);
	if (fd < 0) {
		free(before);
		return -1;
	}
	read_listing(st->cur);
	for (i = 0; i < st->cur->n; i++)
		if (user_holder(&st->cur->h[i]) && st->cur->h[i].pid == getpid() &&
		    !find(before, st->cur->h[i].id))
			snprintf(id, len, "%s", st->cur->h[i].id);
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
static bool holds(struct __test_metadata *_metadata, struct state *st,
		  const char *id, int usecs)
{
	struct holder *h;
	int dev;

	read_listing(st->cur);
	h = find(st->cur, id);
	if (!st->cur->ok || !h) {
		TH_LOG("%s not listed", id);
		return false;
	}
	dev = dev_value();
	if (h->usecs != usecs || st->cur->system != expect(st, usecs) ||
	    dev != st->cur->system) {
		TH_LOG("%s: usecs %d (want %d), system %d (want %d), device %d",
		       id, h->usecs, usecs, st->cur->system, expect(st, usecs),
		       dev);
		return false;
	}
	return true;
}

/* Is @id listed with @usecs?  Refreshes st->cur. */
static bool listed(struct __test_metadata *_metadata, struct state *st,
		   const char *id, int usecs)
{
	struct holder *h;

	read_listing(st->cur);
	h = find(st->cur, id);
	if (!st->cur->ok || !h || h->usecs != usecs) {
		TH_LOG("%s: usecs %d, want %d", id, h ? h->usecs : -1, usecs);
		return false;
	}
	return true;
}

/* Is the registry as @ref shows it, and the device too?  Refreshes st->cur. */
static bool unchanged(struct __test_metadata *_metadata, struct state *st,
		      const struct listing *ref)
{
	struct listing *cur = st->cur;
	int i;

	read_listing(cur);
	if (!cur->ok || cur->n != ref->n || cur->system != ref->system ||
	    dev_value() != ref->system)
		goto differ;
	for (i = 0; i < cur->n; i++)
		if (strcmp(cur->h[i].id, ref->h[i].id) ||
		    cur->h[i].usecs != ref->h[i].usecs)
			goto differ;
	return true;
differ:
	TH_LOG("registry differs: %d holders, system %d (was %d, %d)",
	       cur->n, cur->system, ref->n, ref->system);
	return false;
}

/* Is the registry back where it was when the test started? */
static bool at_base(struct __test_metadata *_metadata, struct state *st)
{
	return unchanged(_metadata, st, st->base);
}

static void state_setup(struct __test_metadata *_metadata, struct state *st)
{
	FILE *f;

	ASSERT_EQ(0, geteuid()) TH_LOG("must run as root");
	ASSERT_EQ(0, access(DEV, F_OK)) TH_LOG("no " DEV);
	ASSERT_EQ(0, access(LISTING, F_OK)) TH_LOG("no " LISTING);

	st->base = malloc(sizeof(*st->base));
	st->cur = malloc(sizeof(*st->cur));
	ASSERT_NE(NULL, st->base);
	ASSERT_NE(NULL, st->cur);
	st->unreadable = mmap(NULL, KIB4, PROT_NONE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, st->unreadable);

	f = fopen("/proc/self/comm", "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(st->comm, sizeof(st->comm), f));
	fclose(f);
	st->comm[strcspn(st->comm, "\n")] = '\0';

	read_listing(st->base);
}

static void state_teardown(struct state *st)
{
	munmap(st->unreadable, KIB4);
	free(st->cur);
	free(st->base);
}

/* The registry as the program found it, for the last test. */
static struct listing *start;

static void __attribute__((constructor)) read_start(void)
{
	start = malloc(sizeof(*start));
	if (start)
		read_listing(start);
}

/* One read(2) of the whole of @path: the reference for the other reads. */
static ssize_t read_once(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size);

	if (n >= 0 && read(fd, buf + n, size - n) != 0)
		n = -1;			/* more than one read's worth */
	if (fd >= 0)
		close(fd);
	return n;
}

/*
 * Read @fd from its position to EOF in pieces of at most @piece bytes; the
 * byte count, or -1 on an error or when it does not fit in @size - 1 bytes.
 */
static ssize_t read_pieces(int fd, char *buf, size_t size, size_t piece)
{
	size_t len = 0;

	while (len < size - 1) {
		size_t want = size - 1 - len < piece ? size - 1 - len : piece;
		ssize_t r = read(fd, buf + len, want);

		if (r < 0)
			return -1;
		if (!r)
			return len;
		len += r;
	}
	return -1;
}

/* Run @fn as user nobody in a child: its exit status, -1 if it did not exit. */
static int as_nobody(struct __test_metadata *_metadata, int (*fn)(void *),
		     void *arg)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(100);
		_exit(fn(arg));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		TH_LOG("fork or wait: %s", strerror(errno));
		return -1;
	}
	if (!WIFEXITED(status)) {
		TH_LOG("unprivileged child: status %#x", status);
		return -1;
	}
	if (WEXITSTATUS(status) == 100)
		TH_LOG("cannot become uid %d", NOBODY);
	return WEXITSTATUS(status);
}

FIXTURE(latency) {
	struct state st;
};

FIXTURE_SETUP(latency)
{
	state_setup(_metadata, &self->st);
}

FIXTURE_TEARDOWN(latency)
{
	state_teardown(&self->st);
}

TEST_F(latency, device_node)
{
	struct stat st;

	ASSERT_EQ(0, stat(DEV, &st)) TH_LOG(DEV ": %s", strerror(errno));
	EXPECT_TRUE(S_ISCHR(st.st_mode)) TH_LOG(DEV ": mode %#o", st.st_mode);
	EXPECT_EQ(0600, st.st_mode & 07777);
	EXPECT_EQ(0, st.st_uid);
}

/* A header, holders sorted by usecs and identifier, the system line. */
TEST_F(latency, listing_format)
{
	struct listing *l = self->st.base;
	int i, unsorted = 0;

	ASSERT_TRUE(l->ok) TH_LOG(LISTING ": %d holders, system %d by %s",
				  l->n, l->system, l->setter);
	EXPECT_EQ(dev_value(), l->system);
	for (i = 1; i < l->n; i++) {
		struct holder *a = &l->h[i - 1], *b = &l->h[i];

		if (a->usecs > b->usecs ||
		    (a->usecs == b->usecs && strcmp(a->id, b->id) >= 0)) {
			TH_LOG("%s %d listed before %s %d", a->id, a->usecs,
			       b->id, b->usecs);
			unsorted++;
		}
	}
	EXPECT_EQ(0, unsorted);
	if (l->n) {
		EXPECT_EQ(l->h[0].usecs, l->system);
		if (l->system < INFINITE_LATENCY)
			EXPECT_STREQ(l->h[0].id, l->setter);
	} else {
		EXPECT_EQ(INFINITE_LATENCY, l->system);
		EXPECT_STREQ("-", l->setter);
	}
}

TEST_F(latency, read_only_open_holds_nothing)
{
	int fd = open(DEV, O_RDONLY);

	ASSERT_LE(0, fd) TH_LOG(DEV ": %s", strerror(errno));
	EXPECT_TRUE(at_base(_metadata, &self->st));
	EXPECT_EQ(0, count_pid(self->st.cur, getpid()));
	close(fd);
}

/* The lower of two holders sets the system value; each close releases its own. */
TEST_F(latency, two_holders)
{
	struct state *st = &self->st;
	char a[64], b[64];
	int fa, fb;

	fa = open_holder(st, a, sizeof(a));
	ASSERT_LE(0, fa);
	fb = open_holder(st, b, sizeof(b));
	ASSERT_LE(0, fb);
	ASSERT_NE(0, a[0]);
	ASSERT_NE(0, b[0]);
	ASSERT_STRNE(a, b);
	ASSERT_TRUE(wr_str(fa, "400\n"));
	ASSERT_TRUE(wr_str(fb, "200\n"));
	EXPECT_TRUE(listed(_metadata, st, a, 400));
	EXPECT_TRUE(holds(_metadata, st, b, 200));

	close(fb);
	EXPECT_TRUE(holds(_metadata, st, a, 400));
	EXPECT_NULL(find(st->cur, b));
	close(fa);
	EXPECT_TRUE(at_base(_metadata, st));
}

/* A read of the device returns the system value as decimal text and a newline. */
TEST_F(latency, device_read_is_text)
{
	char full[32];
	ssize_t n;

	n = read_once(DEV, full, sizeof(full) - 1);
	ASSERT_LT(1, n);
	full[n] = '\0';
	EXPECT_EQ('\n', full[n - 1]);
	EXPECT_EQ(n - 1, strspn(full, "0123456789")) TH_LOG("read \"%s\"", full);
	EXPECT_EQ(self->st.base->system, atoi(full));
}

/* Reads of 0 bytes give 0, into a PROT_NONE page EFAULT; the position stays. */
TEST_F(latency, device_read_efault)
{
	char full[32], buf[32];
	ssize_t n, ret;
	int fd, err;

	n = read_once(DEV, full, sizeof(full));
	ASSERT_LT(0, n);
	fd = open(DEV, O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, read(fd, buf, 0));
	ret = read(fd, self->st.unreadable, 4);
	err = errno;
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EFAULT, err);
	EXPECT_EQ(n, read(fd, buf, sizeof(buf)));
	close(fd);
}

/* One read of the listing gives it whole: header to system line, then EOF. */
TEST_F(latency, listing_read_is_whole)
{
	char full[LISTING_MAX], *last;
	ssize_t n;

	n = read_once(LISTING, full, sizeof(full) - 1);
	ASSERT_LT(0, n);
	full[n] = '\0';
	EXPECT_EQ(0, strncmp(full, HEADER "\n", strlen(HEADER) + 1));
	ASSERT_EQ('\n', full[n - 1]);
	last = memrchr(full, '\n', n - 1);
	ASSERT_NE(NULL, last);
	EXPECT_EQ(0, strncmp(last + 1, "# system ", 9)) TH_LOG("last line %s", last + 1);
	EXPECT_TRUE(at_base(_metadata, &self->st));
}

/* A read of the listing into a PROT_NONE page is EFAULT; the position stays. */
TEST_F(latency, listing_read_efault)
{
	char full[LISTING_MAX];
	ssize_t n, ret;
	int fd, err;

	n = read_once(LISTING, full, sizeof(full) - 1);
	ASSERT_LT(0, n);
	fd = open(LISTING, O_RDONLY);
	ASSERT_LE(0, fd);
	ret = read(fd, self->st.unreadable, 4);
	err = errno;
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EFAULT, err);
	EXPECT_EQ(n, read_pieces(fd, full, sizeof(full), sizeof(full)));
	close(fd);
}

/* 200 holders at once, each with its own identifier, all released. */
TEST_F(latency, many_holders)
{
	struct state *st = &self->st;
	struct listing *cur = st->cur;
	int fds[MANY], i, j, same = 0;
	char val[16];

	for (i = 0; i < MANY; i++) {
		fds[i] = open(DEV, O_WRONLY);
		ASSERT_LE(0, fds[i]) TH_LOG("open %d: %s", i, strerror(errno));
		snprintf(val, sizeof(val), "%d\n", 1000 + i);
		ASSERT_TRUE(wr_str(fds[i], val));
	}
	read_listing(cur);
	ASSERT_TRUE(cur->ok);
	EXPECT_EQ(MANY, count_pid(cur, getpid()));
	EXPECT_EQ(expect(st, 1000), cur->system);
	for (i = 0; i < cur->n; i++)
		for (j = i + 1; j < cur->n; j++)
			if (!strcmp(cur->h[i].id, cur->h[j].id))
				same++;
	EXPECT_EQ(0, same) TH_LOG("identifiers listed twice");

	/* Release the odd ones first: the system value must not move. */
	for (i = 1; i < MANY; i += 2)
		close(fds[i]);
	read_listing(cur);
	EXPECT_EQ((MANY + 1) / 2, count_pid(cur, getpid()));
	EXPECT_EQ(expect(st, 1000), cur->system);
	for (i = 0; i < MANY; i += 2)
		close(fds[i]);
	EXPECT_TRUE(at_base(_metadata, st));
}

/*
 * 200 writers that never write, 200 readers of the device and 200 of the
 * listing, all open at once: the writers are listed with no constraint and
 * move nothing, the readers hold nothing, every listing reads whole.  Not
 * the harness's 30 s: under KCSAN in QEMU without KVM, on a loaded host,
 * it took longer once.
 */
TEST_F_TIMEOUT(latency, many_open, 120)
{
	struct state *st = &self->st;
	struct listing *cur = st->cur;
	int w[MANY], r[MANY], l[MANY], i, n = 0;
	char *buf = malloc(LISTING_MAX);

	ASSERT_NE(NULL, buf);
	for (i = 0; i < MANY; i++) {
		w[i] = open(DEV, O_WRONLY);
		r[i] = open(DEV, O_RDONLY);
		l[i] = open(LISTING, O_RDONLY);
		ASSERT_TRUE(w[i] >= 0 && r[i] >= 0 && l[i] >= 0)
			TH_LOG("open %d: %s", i, strerror(errno));
	}
	read_listing(cur);
	for (i = 0; i < cur->n; i++)
		if (cur->h[i].pid == getpid() && cur->h[i].usecs == INFINITE_LATENCY)
			n++;
	ASSERT_TRUE(cur->ok);
	EXPECT_EQ(MANY, n);
	EXPECT_EQ(MANY, count_pid(cur, getpid()));
	EXPECT_EQ(st->base->n + MANY, cur->n);
	EXPECT_EQ(st->base->system, cur->system);
	for (i = 0; i < MANY; i++) {
		ssize_t len = read_pieces(l[i], buf, LISTING_MAX, 7);

		ASSERT_LT(0, len) TH_LOG("listing %d", i);
		EXPECT_EQ(st->base->system, dev_value());
		buf[len] = '\0';
		ASSERT_NE(NULL, strstr(buf, "\n# system ")) TH_LOG("listing %d", i);
	}
	for (i = 0; i < MANY; i++) {
		close(w[i]);
		close(r[i]);
		close(l[i]);
	}
	free(buf);
	EXPECT_TRUE(at_base(_metadata, st));
}

/*
 * None of the bad input (writes, reads, seeks and pread()s, many opens)
 * makes the kernel log a line.  The tests that give it run again, this
 * program run in a child with their names and its output discarded, and
 * the kernel must have logged nothing meanwhile.  A test that fails there
 * fails on its own as well, with its diagnostics.  The timeout is that of
 * the whole program (settings).
 */
TEST_F_TIMEOUT(latency, bad_input_logs_nothing, 300)
{
	static char *const argv[] = {
		"latency_dev_test",
		"-f", "write", "-f", "read",
		"-t", "device_read_is_text", "-t", "device_read_efault",
		"-t", "listing_read_is_whole", "-t", "listing_read_efault",
		"-t", "many_holders", "-t", "many_open",
		NULL
	};
	char path[PATH_MAX];
	int status, logged;
	ssize_t len;
	pid_t pid;

	/* By its own path: through /proc/self/exe its comm would be "exe". */
	len = readlink("/proc/self/exe", path, sizeof(path) - 1);
	ASSERT_LT(0, len);
	path[len] = '\0';

	kmsg_start();
	if (kmsg_fd < 0)
		SKIP(return, "no /dev/kmsg");

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		if (null < 0 || dup2(null, STDOUT_FILENO) < 0 ||
		    dup2(null, STDERR_FILENO) < 0)
			_exit(1);
		execv(path, argv);
		_exit(1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	logged = kmsg_new_records(INT_MAX);
	fflush(stdout);
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("the tests of bad input failed again: status %#x", status);
	EXPECT_EQ(0, logged);
	EXPECT_TRUE(at_base(_metadata, &self->st));
}

/* A forked child shares the holder; it lasts until the last close. */
TEST_F(latency, inherited_holder)
{
	struct state *st = &self->st;
	int fd, status;
	char id[64];
	pid_t pid;

	fd = open_holder(st, id, sizeof(id));
	ASSERT_LE(0, fd);
	ASSERT_TRUE(wr_str(fd, "250\n"));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* The child's write changes the opener's holder, then it exits. */
		_exit(wr_str(fd, "260\n") ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_TRUE(holds(_metadata, st, id, 260));
	EXPECT_EQ(getpid(), find(st->cur, id)->pid);
	close(fd);
	EXPECT_TRUE(at_base(_metadata, st));
}

/* SIGKILL of a holding process releases its constraint. */
TEST_F(latency, sigkill_releases)
{
	struct state *st = &self->st;
	int ready[2], status = 0, i;
	bool held;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = open(DEV, O_WRONLY);

		c = fd >= 0 && wr_str(fd, "120\n") ? 'y' : 'n';
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}

	/* No ASSERT until the child is killed: it would outlive the test. */
	close(ready[1]);
	held = read(ready[0], &c, 1) == 1 && c == 'y';
	close(ready[0]);
	EXPECT_TRUE(held) TH_LOG("the child could not hold 120 us");
	read_listing(st->cur);
	EXPECT_EQ(1, count_pid(st->cur, pid));
	for (i = 0; i < st->cur->n; i++) {
		if (!user_holder(&st->cur->h[i]) || st->cur->h[i].pid != pid)
			continue;
		EXPECT_EQ(120, st->cur->h[i].usecs);
		EXPECT_EQ(expect(st, 120), st->cur->system);
	}
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_TRUE(at_base(_metadata, st));
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

/* An unprivileged user cannot open the device for writing. */
TEST_F(latency, nobody_cannot_open)
{
	EXPECT_EQ(0, as_nobody(_metadata, nobody_open, NULL))
		TH_LOG("1: O_WRONLY, 2: O_RDWR was not EACCES");
	EXPECT_TRUE(at_base(_metadata, &self->st));
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

/* An unprivileged user cannot change root's constraint. */
TEST_F(latency, nobody_cannot_change_root_holder)
{
	struct state *st = &self->st;
	char id[64], theirs[64], ours[64];
	const char *paths[3] = { theirs, ours, LISTING };
	int fd;

	fd = open_holder(st, id, sizeof(id));
	ASSERT_LE(0, fd);
	snprintf(theirs, sizeof(theirs), "/proc/%d/fd/%d", getpid(), fd);
	snprintf(ours, sizeof(ours), "/proc/self/fd/%d", fd);
	ASSERT_TRUE(wr_str(fd, "500\n"));
	EXPECT_EQ(0, as_nobody(_metadata, nobody_change, paths))
		TH_LOG("opened (1, 2, 4) or wrote (8, 16, 32): %s, %s, %s",
		       paths[0], paths[1], paths[2]);
	EXPECT_TRUE(holds(_metadata, st, id, 500));
	close(fd);
	EXPECT_TRUE(at_base(_metadata, st));
}

/* 8 processes opening, writing and closing at once leave nothing behind. */
TEST_F(latency, concurrent_holders)
{
	const int procs = 8, loops = 100;
	int i, status, failed = 0;
	pid_t pids[8];

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
			failed++;
	}
	for (i = 0; i < procs; i++) {
		if (pids[i] <= 0)
			continue;
		if (waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	}
	EXPECT_EQ(0, failed) TH_LOG("processes that failed to fork or to hold");
	EXPECT_TRUE(at_base(_metadata, &self->st));
}

/* A freshly opened holder, at no constraint yet. */
FIXTURE(holder) {
	struct state st;
	char id[64];
	int fd;
};

FIXTURE_SETUP(holder)
{
	state_setup(_metadata, &self->st);
	self->fd = open_holder(&self->st, self->id, sizeof(self->id));
	ASSERT_LE(0, self->fd) TH_LOG(DEV ": %s", strerror(errno));
	ASSERT_NE(0, self->id[0]) TH_LOG("no new holder of ours listed");
}

FIXTURE_TEARDOWN(holder)
{
	if (self->fd >= 0)
		close(self->fd);
	state_teardown(&self->st);
}

/* An open for writing registers user:<seq>, ours, with no constraint. */
TEST_F(holder, registered_unconstrained)
{
	struct state *st = &self->st;
	struct holder *h;

	read_listing(st->cur);
	h = find(st->cur, self->id);
	ASSERT_NE(NULL, h);
	EXPECT_TRUE(user_holder(h)) TH_LOG("identifier %s", h->id);
	EXPECT_EQ(INFINITE_LATENCY, h->usecs);
	EXPECT_EQ(getpid(), h->pid);
	EXPECT_STREQ(st->comm, h->comm);
	EXPECT_EQ(st->base->system, st->cur->system);
}

/* Writing "150\n" holds 150 us and names the holder as setter. */
TEST_F(holder, write_holds)
{
	struct state *st = &self->st;

	ASSERT_TRUE(wr_str(self->fd, "150\n"));
	ASSERT_TRUE(holds(_metadata, st, self->id, 150));
	if (st->base->system > 150) {
		EXPECT_STREQ(self->id, st->cur->setter);
		EXPECT_EQ(150, st->cur->h[0].usecs);
	}
}

/* A later write "300" changes the same holder. */
TEST_F(holder, rewrite_changes_it)
{
	struct state *st = &self->st;

	ASSERT_TRUE(wr_str(self->fd, "150\n"));
	ASSERT_TRUE(holds(_metadata, st, self->id, 150));
	ASSERT_TRUE(wr_str(self->fd, "300"));
	EXPECT_TRUE(holds(_metadata, st, self->id, 300));
}

/* Close releases the holder and restores the system value. */
TEST_F(holder, close_releases_it)
{
	struct state *st = &self->st;

	ASSERT_TRUE(wr_str(self->fd, "150\n"));
	ASSERT_TRUE(holds(_metadata, st, self->id, 150));
	close(self->fd);
	self->fd = -1;
	EXPECT_TRUE(at_base(_metadata, st));
	EXPECT_NULL(find(st->cur, self->id));
}

/*
 * Bad input for every user-space entry.  Each variant is one write to a
 * file of its own target, and names the result Documentation/latency.txt
 * promises for it: @err, with the holder and the listing unchanged, or,
 * when @err is 0, success and @usecs held.  Our holder holds HELD before
 * each write.
 */
enum target {
	HOLDER,		/* an open of DEV for writing, holding HELD */
	READER,		/* an open of DEV for reading only */
	PROC,		/* LISTING, opened for writing by root */
};

static const char *const target_name[] = {
	[HOLDER]	= "",
	[READER]	= " to an O_RDONLY open of " DEV,
	[PROC]		= " to " LISTING,
};

#define HELD		321

static char digits_4k[KIB4], digits_1m[MIB];
static const int bin_175 = 175, bin_0, bin_inf = INFINITE_LATENCY;
static const int bin_ffffff = 0x00ffffff, bin_high = 0x01000096;
static const int bin_minus_one = -1, bin_minus_150 = -150, bin_int_min = INT_MIN;
static const int bin_two[2] = { 150, 150 };

static const char *errno_name(int err)
{
	switch (err) {
	case 0:		return "no error";
	case EINVAL:	return "EINVAL";
	case EFAULT:	return "EFAULT";
	case EBADF:	return "EBADF";
	case EIO:	return "EIO";
	case EACCES:	return "EACCES";
	case ENOMEM:	return "ENOMEM";
	}
	return "another errno";
}

/* The input as C text when it is short text, else its length or bytes. */
static void show_input(const void *buf, size_t len, char *out, size_t size)
{
	const unsigned char *p = buf;
	bool text = true;
	size_t i, n = 0;

	if (!p) {
		snprintf(out, size, "%zu bytes from a PROT_NONE page", len);
		return;
	}
	for (i = 0; i < len; i++)
		if (!p[i] || p[i] >= 0x7f)
			text = false;
	if (len > 24) {
		snprintf(out, size, "%zu bytes", len);
	} else if (text) {
		n = snprintf(out, size, "\"");
		for (i = 0; i < len && n < size; i++) {
			if (p[i] == '\n')
				n += snprintf(out + n, size - n, "\\n");
			else if (p[i] == '\r')
				n += snprintf(out + n, size - n, "\\r");
			else if (p[i] == '\t')
				n += snprintf(out + n, size - n, "\\t");
			else
				n += snprintf(out + n, size - n, "%c", p[i]);
		}
		if (n < size)
			snprintf(out + n, size - n, "\"");
	} else {
		n = snprintf(out, size, "%zu bytes", len);
		for (i = 0; i < len && n < size; i++)
			n += snprintf(out + n, size - n, " %02x", p[i]);
	}
}

FIXTURE(write) {
	struct state st;
	char id[64];		/* our holder */
	int fd[3];		/* by enum target */
};

FIXTURE_VARIANT(write) {
	const void *buf;	/* NULL: a PROT_NONE page */
	size_t len;		/* 0: strlen(buf) */
	int err;		/* 0: accepted */
	int usecs;		/* held once accepted */
	const char *cpus;	/* its CPUs once accepted, NULL for "all" */
	enum target target;
};

FIXTURE_SETUP(write)
{
	state_setup(_metadata, &self->st);
	memset(digits_4k, '1', sizeof(digits_4k));
	memset(digits_1m, '1', sizeof(digits_1m));
	self->fd[HOLDER] = open_holder(&self->st, self->id, sizeof(self->id));
	ASSERT_LE(0, self->fd[HOLDER]) TH_LOG(DEV ": %s", strerror(errno));
	ASSERT_NE(0, self->id[0]) TH_LOG("no new holder of ours listed");
	self->fd[READER] = open(DEV, O_RDONLY);
	ASSERT_LE(0, self->fd[READER]) TH_LOG(DEV ": %s", strerror(errno));
	self->fd[PROC] = open(LISTING, O_WRONLY);
	ASSERT_LE(0, self->fd[PROC]) TH_LOG(LISTING ": %s", strerror(errno));
}

FIXTURE_TEARDOWN(write)
{
	close(self->fd[HOLDER]);
	close(self->fd[READER]);
	close(self->fd[PROC]);
	state_teardown(&self->st);
}

/* Accepted: decimal text. */
FIXTURE_VARIANT_ADD(write, text_and_newline) {
	.buf = "150\n", .usecs = 150,
};

FIXTURE_VARIANT_ADD(write, text_without_newline) {
	.buf = "150", .usecs = 150,
};

/* Decimal, not octal. */
FIXTURE_VARIANT_ADD(write, leading_zeros) {
	.buf = "0000150\n", .usecs = 150,
};

FIXTURE_VARIANT_ADD(write, zero) {
	.buf = "0\n", .usecs = 0,
};

FIXTURE_VARIANT_ADD(write, one_digit) {
	.buf = "7", .usecs = 7,
};

FIXTURE_VARIANT_ADD(write, infinite_latency) {
	.buf = "1000000\n", .usecs = INFINITE_LATENCY,
};

FIXTURE_VARIANT_ADD(write, infinite_latency_plus_1_clamped) {
	.buf = "1000001\n", .usecs = INFINITE_LATENCY,
};

FIXTURE_VARIANT_ADD(write, int_max_clamped) {
	.buf = "2147483647\n", .usecs = INFINITE_LATENCY,
};

/* The longest write accepted. */
FIXTURE_VARIANT_ADD(write, 16_bytes_with_newline) {
	.buf = "000000000000150\n", .usecs = 150,
};

FIXTURE_VARIANT_ADD(write, 16_digits) {
	.buf = "0000000000000150", .usecs = 150,
};

/* 4 bytes whose 4th is not 0: text. */
FIXTURE_VARIANT_ADD(write, 4_digits) {
	.buf = "1234", .usecs = 1234,
};

/* Accepted: a C string written with its NUL is still text. */
FIXTURE_VARIANT_ADD(write, text_150_and_nul_not_binary_3159345) {
	.buf = "150", .len = 4, .usecs = 150,
};

FIXTURE_VARIANT_ADD(write, text_100_and_nul_not_binary_3158065) {
	.buf = "100", .len = 4, .usecs = 100,
};

FIXTURE_VARIANT_ADD(write, text_newline_and_nul) {
	.buf = "150\n", .len = 5, .usecs = 150,
};

FIXTURE_VARIANT_ADD(write, digit_and_nul) {
	.buf = "1", .len = 2, .usecs = 1,
};

/* Rejected: not a decimal number. */
FIXTURE_VARIANT_ADD(write, empty) {
	.buf = "", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, newline_only) {
	.buf = "\n", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, letters) {
	.buf = "abc", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, sign) {
	.buf = "-1", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, sign_and_newline) {
	.buf = "-1\n", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, minus_zero) {
	.buf = "-0", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, plus_sign) {
	.buf = "+150", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, leading_blank) {
	.buf = " 12", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, trailing_blank) {
	.buf = "12 ", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, two_numbers) {
	.buf = "12 34", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, blank_inside) {
	.buf = "15 0\n", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, two_newlines) {
	.buf = "150\n\n", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, leading_newline) {
	.buf = "\n150", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, cr_lf) {
	.buf = "150\r\n", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, tab) {
	.buf = "150\t", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, hex) {
	.buf = "0x10", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, hex_150) {
	.buf = "0x96", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, exponent) {
	.buf = "1e3", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, decimal_point) {
	.buf = "1.5", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, arabic_indic_digits_150) {
	.buf = "\xd9\xa1\xd9\xa5\xd9\xa0", .err = EINVAL,
};

/* Rejected: out of range or too long. */
FIXTURE_VARIANT_ADD(write, int_max_plus_1) {
	.buf = "2147483648\n", .err = EINVAL,
};

/* 2^32 + 150: 150 if it wrapped. */
FIXTURE_VARIANT_ADD(write, 2_pow_32_plus_150) {
	.buf = "4294967446", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, 17_digits) {
	.buf = "00000000000000150", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, 17_bytes_with_newline) {
	.buf = "0000000000000150\n", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, 4_kib_of_digits) {
	.buf = digits_4k, .len = KIB4, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, 1_mib_of_digits) {
	.buf = digits_1m, .len = MIB, .err = EINVAL,
};

/* Rejected: binary, of any size (binary writers use cpu_dma_latency). */
FIXTURE_VARIANT_ADD(write, binary_175) {
	.buf = &bin_175, .len = 4, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, binary_0) {
	.buf = &bin_0, .len = 4, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, binary_infinite_latency) {
	.buf = &bin_inf, .len = 4, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, binary_0x00ffffff) {
	.buf = &bin_ffffff, .len = 4, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, binary_150_in_3_bytes) {
	.buf = "\x96\0", .len = 3, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, binary_150_in_5_bytes) {
	.buf = "\x96\0\0\0", .len = 5, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, two_binary_ints) {
	.buf = bin_two, .len = 8, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, binary_minus_1) {
	.buf = &bin_minus_one, .len = 4, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, binary_minus_150) {
	.buf = &bin_minus_150, .len = 4, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, binary_int_min) {
	.buf = &bin_int_min, .len = 4, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, binary_high_byte_set) {
	.buf = &bin_high, .len = 4, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, 4_bytes_with_a_nul_inside) {
	.buf = "15\0\n", .len = 4, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, two_nuls) {
	.buf = "150\0", .len = 5, .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, nul_before_the_newline) {
	.buf = "150\0\n", .len = 5, .err = EINVAL,
};

/* Rejected: a buffer the kernel cannot read. */
FIXTURE_VARIANT_ADD(write, unreadable_4_bytes) {
	.len = 4, .err = EFAULT,
};

FIXTURE_VARIANT_ADD(write, unreadable_3_bytes) {
	.len = 3, .err = EFAULT,
};

/* Long enough for a value and a CPU list: read, and unreadable. */
FIXTURE_VARIANT_ADD(write, unreadable_17_bytes) {
	.len = 17, .err = EFAULT,
};

/* A CPU list: after one blank, "cpus=" and the kernel's list syntax. */
FIXTURE_VARIANT_ADD(write, cpu_list) {
	.buf = "15 cpus=0", .usecs = 15, .cpus = "0",
};

FIXTURE_VARIANT_ADD(write, cpu_list_with_newline) {
	.buf = "15 cpus=0\n", .usecs = 15, .cpus = "0",
};

FIXTURE_VARIANT_ADD(write, cpu_list_of_ranges) {
	.buf = "15 cpus=0-0,0\n", .usecs = 15, .cpus = "0",
};

FIXTURE_VARIANT_ADD(write, cpu_list_empty) {
	.buf = "15 cpus=\n", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, cpu_list_not_a_list) {
	.buf = "15 cpus=abc\n", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, cpu_list_no_possible_cpu) {
	.buf = "15 cpus=9999\n", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, cpu_list_range_backwards) {
	.buf = "15 cpus=3-1\n", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, cpu_list_negative) {
	.buf = "15 cpus=-1\n", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, cpu_list_misspelt) {
	.buf = "15 cpu=0\n", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, cpu_list_without_blank) {
	.buf = "15cpus=0\n", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, cpu_list_two_blanks) {
	.buf = "15  cpus=0\n", .err = EINVAL,
};

FIXTURE_VARIANT_ADD(write, cpu_list_trailing_blank) {
	.buf = "15 cpus=0\x20\n", .err = EINVAL,	/* a blank after the list */
};

FIXTURE_VARIANT_ADD(write, cpu_list_without_value) {
	.buf = "cpus=0\n", .err = EINVAL,
};

/* The other entries take no write at all. */
FIXTURE_VARIANT_ADD(write, value_to_read_only_open) {
	.buf = "150\n", .err = EBADF, .target = READER,
};

FIXTURE_VARIANT_ADD(write, value_to_listing) {
	.buf = "150\n", .err = EIO, .target = PROC,
};

FIXTURE_VARIANT_ADD(write, listing_line_to_listing) {
	.buf = "user:1 5 1 init\n", .err = EIO, .target = PROC,
};

FIXTURE_VARIANT_ADD(write, 1_mib_to_listing) {
	.buf = digits_1m, .len = MIB, .err = EIO, .target = PROC,
};

TEST_F(write, result)
{
	struct state *st = &self->st;
	size_t len = variant->len ?: strlen(variant->buf);
	const void *buf = variant->buf ?: st->unreadable;
	const char *to = target_name[variant->target];
	char input[96];
	ssize_t ret;
	int err;

	show_input(variant->buf, len, input, sizeof(input));
	ASSERT_TRUE(wr_str(self->fd[HOLDER], "321\n"));	/* HELD */
	errno = 0;
	ret = write(self->fd[variant->target], buf, len);
	err = errno;
	if (variant->err) {
		ASSERT_EQ(-1, ret)
			TH_LOG("write %s%s: want %s", input, to,
			       errno_name(variant->err));
		ASSERT_EQ(variant->err, err)
			TH_LOG("write %s%s: %s, want %s", input, to,
			       errno_name(err), errno_name(variant->err));
		/* Nothing changed: our holder alone added, still at HELD. */
		EXPECT_TRUE(holds(_metadata, st, self->id, HELD))
			TH_LOG("write %s%s", input, to);
	} else if (variant->cpus) {
		struct holder *h;

		ASSERT_EQ((ssize_t)len, ret)
			TH_LOG("write %s%s: %s, want it accepted", input, to,
			       errno_name(err));
		/* Held for those CPUs: the system value as it was. */
		read_listing(st->cur);
		h = find(st->cur, self->id);
		ASSERT_NE(NULL, h) TH_LOG("%s not listed", self->id);
		EXPECT_EQ(variant->usecs, h->usecs);
		EXPECT_STREQ(variant->cpus, h->cpus);
		EXPECT_EQ(st->base->system, st->cur->system);
	} else {
		ASSERT_EQ((ssize_t)len, ret)
			TH_LOG("write %s%s: %s, want it accepted", input, to,
			       errno_name(err));
		EXPECT_TRUE(holds(_metadata, st, self->id, variant->usecs))
			TH_LOG("write %s%s", input, to);
	}
	EXPECT_EQ(st->base->n + 1, st->cur->n);
}

/*
 * Short reads, seeks and pread() of each file, whose whole content a single
 * read returns: every way must give exactly a piece of it.
 */
FIXTURE(read) {
	struct state st;
	char full[LISTING_MAX];	/* the file as one read returns it */
	ssize_t n;
};

FIXTURE_VARIANT(read) {
	const char *path;
};

FIXTURE_VARIANT_ADD(read, device) {
	.path = DEV,
};

FIXTURE_VARIANT_ADD(read, listing) {
	.path = LISTING,
};

FIXTURE_SETUP(read)
{
	state_setup(_metadata, &self->st);
	self->n = read_once(variant->path, self->full, sizeof(self->full) - 1);
	ASSERT_LT(0, self->n) TH_LOG("%s: %s", variant->path, strerror(errno));
}

FIXTURE_TEARDOWN(read)
{
	state_teardown(&self->st);
}

/* Reads in pieces of 1, 2, 7, 100 bytes give exactly one whole read, then EOF. */
TEST_F(read, in_pieces)
{
	static const size_t pieces[] = { 1, 2, 7, 100 };
	char buf[LISTING_MAX];
	unsigned int i;
	ssize_t len;
	int fd;

	fd = open(variant->path, O_RDONLY);
	ASSERT_LE(0, fd);
	for (i = 0; i < ARRAY_SIZE(pieces); i++) {
		ASSERT_EQ(0, lseek(fd, 0, SEEK_SET));
		len = read_pieces(fd, buf, sizeof(buf), pieces[i]);
		ASSERT_EQ(self->n, len) TH_LOG("%zu-byte reads", pieces[i]);
		ASSERT_EQ(0, memcmp(buf, self->full, len))
			TH_LOG("%zu-byte reads", pieces[i]);
	}
	close(fd);
}

/* lseek SEEK_SET, SEEK_CUR and pread() at every offset read the rest. */
TEST_F(read, at_every_offset)
{
	const char *full = self->full;
	char buf[LISTING_MAX];
	ssize_t off, n = self->n;
	int fd;

	fd = open(variant->path, O_RDONLY);
	ASSERT_LE(0, fd);
	for (off = 0; off <= n; off++) {
		ASSERT_EQ(off, lseek(fd, off, SEEK_SET));
		ASSERT_EQ(n - off, read_pieces(fd, buf, sizeof(buf), sizeof(buf)))
			TH_LOG("read at offset %zd", off);
		ASSERT_EQ(0, memcmp(buf, full + off, n - off))
			TH_LOG("read at offset %zd", off);
		ASSERT_EQ(n - off, pread(fd, buf, sizeof(buf), off))
			TH_LOG("pread at offset %zd", off);
		ASSERT_EQ(0, memcmp(buf, full + off, n - off))
			TH_LOG("pread at offset %zd", off);
		if (off == n)
			break;
		ASSERT_EQ(off, lseek(fd, off, SEEK_SET));
		ASSERT_EQ(1, read(fd, buf, 1)) TH_LOG("offset %zd", off);
		ASSERT_EQ(full[off], buf[0]) TH_LOG("offset %zd", off);
		ASSERT_EQ(off + 1, lseek(fd, 0, SEEK_CUR)) TH_LOG("offset %zd", off);
	}
	close(fd);
}

/* A read past the end is EOF; lseek to -1 is EINVAL. */
TEST_F(read, past_the_end)
{
	ssize_t n = self->n;
	char buf[16];
	off_t ret;
	int fd, err;

	fd = open(variant->path, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(n + 100, lseek(fd, n + 100, SEEK_SET));
	EXPECT_EQ(0, read(fd, buf, sizeof(buf)));
	EXPECT_EQ(0, pread(fd, buf, sizeof(buf), n + 5));
	errno = 0;
	ret = lseek(fd, -1, SEEK_SET);
	err = errno;
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EINVAL, err);
	close(fd);
}

/*
 * Each test checks that it left the registry as it found it; this one,
 * run last, that the whole program did (no process of a test outlived it).
 */
FIXTURE(last) {
	struct state st;
};

FIXTURE_SETUP(last)
{
	state_setup(_metadata, &self->st);
}

FIXTURE_TEARDOWN(last)
{
	state_teardown(&self->st);
}

TEST_F(last, registry_ends_as_it_started)
{
	ASSERT_NE(NULL, start);
	EXPECT_TRUE(unchanged(_metadata, &self->st, start))
		TH_LOG("at the start: %d holders, system %d us", start->n,
		       start->system);
}

TEST_HARNESS_MAIN
