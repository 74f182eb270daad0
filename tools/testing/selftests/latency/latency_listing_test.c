// SPDX-License-Identifier: GPL-2.0-only
/*
 * What an unprivileged or hostile process can do to /proc/latency_constraints
 * and /dev/acceptable_latency:
 *
 *  - name itself "x\n# system 0 ..." (prctl(PR_SET_NAME)): its comm is
 *    escaped, so it cannot add a line that a parser takes for the system
 *    value;
 *  - read the listing from another PID namespace: a holder outside it shows
 *    no pid and no comm, one inside shows the pid that namespace knows;
 *  - read it as another user, on the default /proc: a holder whose
 *    opener's /proc/PID/fd it may not read shows no pid and no comm, nor
 *    does one whose opener has exited; identifiers count nothing;
 *  - write text the way C programs do, with its NUL ("100" and sizeof):
 *    that is 100 us, never a binary int; a binary int is refused.
 *
 * kselftest_harness.h tests of one fixture, which opens the holder each
 * test writes through; they skip when the kernel has no CONFIG_LATENCY.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define DEV	"/dev/acceptable_latency"
#define LISTING	"/proc/latency_constraints"

/* The whole listing at @path, NUL-terminated, in a buffer of @size. */
static int read_listing_at(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return n < 0 ? -1 : 0;
}

static int read_listing(char *buf, size_t size)
{
	return read_listing_at(LISTING, buf, size);
}

/*
 * The line of the holder whose pid column is @pid, copied to @line; its
 * value in *@usecs.  Returns 0, or -1 when no line has that pid.
 */
static int find_holder(const char *listing, int pid, char *line, size_t size,
		       int *usecs)
{
	const char *p = listing;

	while (*p) {
		const char *end = strchrnul(p, '\n');
		char id[80];
		int u, nr;

		if (*p != '#' && sscanf(p, "%79s %d %*s %d", id, &u, &nr) == 3 &&
		    nr == pid) {
			snprintf(line, size, "%.*s", (int)(end - p), p);
			*usecs = u;
			return 0;
		}
		p = *end ? end + 1 : end;
	}
	return -1;
}

/* The number of lines of @listing that start with @prefix. */
static int count_lines(const char *listing, const char *prefix)
{
	const char *p = listing;
	int n = 0;

	while (*p) {
		if (!strncmp(p, prefix, strlen(prefix)))
			n++;
		p = strchrnul(p, '\n');
		if (*p)
			p++;
	}
	return n;
}

FIXTURE(holder) {
	int fd;
	char listing[65536];
};

FIXTURE_SETUP(holder)
{
	if (access(DEV, F_OK) || access(LISTING, F_OK))
		SKIP(return, "no " DEV " or " LISTING " (CONFIG_LATENCY)");
	self->fd = open(DEV, O_RDWR);
	ASSERT_LE(0, self->fd) TH_LOG("open " DEV ": %s", strerror(errno));
}

FIXTURE_TEARDOWN(holder)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(holder, comm_with_newline_cannot_forge_a_line)
{
	char line[256];
	int usecs;

	/* Set after open: the listing shows the comm the holder has now. */
	ASSERT_EQ(0, prctl(PR_SET_NAME, "x\n# system 0 forged"));
	close(self->fd);
	self->fd = open(DEV, O_RDWR);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(4, write(self->fd, "150\n", 4));

	ASSERT_EQ(0, read_listing(self->listing, sizeof(self->listing)));
	EXPECT_EQ(1, count_lines(self->listing, "# system "));
	EXPECT_EQ(0, count_lines(self->listing, "# system 0 "));
	ASSERT_EQ(0, find_holder(self->listing, getpid(), line, sizeof(line),
				 &usecs)) TH_LOG("%s", self->listing);
	EXPECT_EQ(150, usecs);
	/* "x\n# system 0 f" (15 characters), the newline escaped. */
	EXPECT_NE(NULL, strstr(line, " x\\n# system 0 f")) TH_LOG("%s", line);
}

TEST_F(holder, text_with_its_nul_is_text)
{
	char line[256];
	int usecs;

	/* 4 bytes, a NUL last: once taken as the binary int 3158065. */
	ASSERT_EQ(4, write(self->fd, "100", sizeof("100")));
	ASSERT_EQ(0, read_listing(self->listing, sizeof(self->listing)));
	ASSERT_EQ(0, find_holder(self->listing, getpid(), line, sizeof(line),
				 &usecs));
	EXPECT_EQ(100, usecs);

	ASSERT_EQ(4, write(self->fd, "50\n", sizeof("50\n")));
	ASSERT_EQ(0, read_listing(self->listing, sizeof(self->listing)));
	ASSERT_EQ(0, find_holder(self->listing, getpid(), line, sizeof(line),
				 &usecs));
	EXPECT_EQ(50, usecs);
}

TEST_F(holder, binary_int_is_refused)
{
	const int values[] = { 100, 0, 1000000 };
	char line[256];
	unsigned int i;
	int usecs;

	ASSERT_EQ(2, write(self->fd, "70", 2));
	for (i = 0; i < ARRAY_SIZE(values); i++) {
		errno = 0;
		EXPECT_EQ(-1, write(self->fd, &values[i], sizeof(values[i])));
		EXPECT_EQ(EINVAL, errno);
	}
	/* Nothing changed. */
	ASSERT_EQ(0, read_listing(self->listing, sizeof(self->listing)));
	ASSERT_EQ(0, find_holder(self->listing, getpid(), line, sizeof(line),
				 &usecs));
	EXPECT_EQ(70, usecs);
}

/*
 * The fixture's holder is outside the child's new PID namespace; the
 * child's own holder is inside, as pid 1.
 */
TEST_F(holder, pid_as_the_readers_namespace_sees_it)
{
	int status, pipefd[2];
	pid_t child;

	ASSERT_EQ(3, write(self->fd, "90\n", 3));
	if (unshare(CLONE_NEWPID))
		SKIP(return, "unshare(CLONE_NEWPID): %s", strerror(errno));
	ASSERT_EQ(0, pipe(pipefd));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		char line[256], outside[256], *start, *end;
		int fd, usecs, ok, n = -1;

		fd = open(DEV, O_RDWR);
		ok = fd >= 0 && write(fd, "91\n", 3) == 3 &&
		     !read_listing(self->listing, sizeof(self->listing));
		/* Inside: itself as pid 1, with its comm. */
		ok = ok && !find_holder(self->listing, 1, line, sizeof(line),
					&usecs) && usecs == 91;
		/*
		 * Outside: the parent's holder, 90 us, "- -", and no pid in
		 * its identifier either ("user:<token>").
		 */
		snprintf(outside, sizeof(outside), " 90 all - -\n");
		end = ok ? strstr(self->listing, outside) : NULL;
		for (start = end; start && start > self->listing &&
		     start[-1] != '\n'; start--)
			;
		ok = end && sscanf(start, "user:%*16[0-9a-f]%n", &n) == 0 &&
		     start + n == end;
		if (!ok && write(pipefd[1], self->listing,
				 strlen(self->listing)) < 0)
			ok = 0;
		_exit(ok ? 0 : 1);
	}
	close(pipefd[1]);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		ssize_t n = read(pipefd[0], self->listing,
				 sizeof(self->listing) - 1);

		self->listing[n > 0 ? n : 0] = '\0';
		TH_LOG("listing seen from the child:\n%s", self->listing);
	}
	close(pipefd[0]);
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * On the default /proc (hidepid=off), a user who may not read root's
 * /proc/PID/fd does not learn from the listing which process holds what:
 * root's holder shows its value, no pid and no comm.  Root still does.
 */
TEST_F(holder, a_user_does_not_see_who_holds)
{
	char line[256];
	int status, usecs;
	pid_t child;

	ASSERT_EQ(5, write(self->fd, "3001\n", 5));
	ASSERT_EQ(0, read_listing(self->listing, sizeof(self->listing)));
	EXPECT_EQ(0, find_holder(self->listing, getpid(), line, sizeof(line),
				 &usecs)) TH_LOG("root sees its holder:\n%s", self->listing);
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		int ok = !setgid(65534) && !setuid(65534) &&
			 !read_listing(self->listing, sizeof(self->listing));

		/* The value is there, the holder's pid and comm are not. */
		ok = ok && strstr(self->listing, " 3001 all - -\n") &&
		     find_holder(self->listing, getppid(), line, sizeof(line),
				 &usecs);
		if (!ok)
			fprintf(stderr, "# seen by uid 65534:\n%s", self->listing);
		_exit(ok ? 0 : 1);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * A holder whose opener has exited, its file inherited by a child that
 * lives on, shows no pid (which may name another process by now) and no
 * comm; the constraint stays held.
 */
TEST_F(holder, opener_gone_shows_no_pid)
{
	int sync[2], status, tries = 0;
	pid_t opener;
	char c;

	ASSERT_EQ(0, pipe(sync));
	opener = fork();
	ASSERT_LE(0, opener);
	if (!opener) {
		int fd = open(DEV, O_WRONLY);

		if (fd < 0 || write(fd, "3003\n", 5) != 5)
			_exit(1);
		if (!fork()) {	/* the heir: holds fd until sync is closed */
			close(sync[1]);
			while (read(sync[0], &c, 1) > 0)
				;
			_exit(0);
		}
		_exit(0);
	}
	close(sync[0]);
	ASSERT_EQ(opener, waitpid(opener, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, read_listing(self->listing, sizeof(self->listing)));
	EXPECT_NE(NULL, strstr(self->listing, " 3003 all - -\n"))
		TH_LOG("opener %d exited:\n%s", opener, self->listing);
	close(sync[1]);		/* the heir exits, the holder goes */
	while (tries++ < 200 && !read_listing(self->listing, sizeof(self->listing)) &&
	       strstr(self->listing, " 3003 all "))
		usleep(10000);
	EXPECT_EQ(NULL, strstr(self->listing, " 3003 all ")) TH_LOG("%s", self->listing);
}

/*
 * Two opens in a row get identifiers that are unique and count nothing:
 * "user:" and 16 hex digits, not consecutive numbers (2^-63 odds that two
 * tokens of the permutation are).
 */
TEST_F(holder, identifier_counts_nothing)
{
	unsigned long long token[2];
	char id[2][64];
	int fd2, i;

	fd2 = open(DEV, O_WRONLY);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(5, write(self->fd, "3004\n", 5));
	ASSERT_EQ(5, write(fd2, "3005\n", 5));
	ASSERT_EQ(0, read_listing(self->listing, sizeof(self->listing)));
	close(fd2);
	for (i = 0; i < 2; i++) {
		const char *end = strstr(self->listing, i ? " 3005 all " : " 3004 all ");
		const char *start = end;
		int n = -1, matched;

		ASSERT_NE(NULL, end) TH_LOG("%s", self->listing);
		while (start > self->listing && start[-1] != '\n')
			start--;
		snprintf(id[i], sizeof(id[i]), "%.*s", (int)(end - start), start);
		matched = sscanf(id[i], "user:%*16[0-9a-f]%n", &n);
		EXPECT_EQ(0, matched);
		EXPECT_EQ(21, n) TH_LOG("identifier %s", id[i]);
		token[i] = strtoull(id[i] + 5, NULL, 16);
	}
	EXPECT_STRNE(id[0], id[1]);
	EXPECT_NE(1ULL, token[0] > token[1] ? token[0] - token[1] :
					      token[1] - token[0])
		TH_LOG("%s and %s are consecutive", id[0], id[1]);
}

/*
 * /dev/cpu_dma_latency, the CPU latency QoS device that tuned and
 * cyclictest hold: its format is the one it always had (a 4-byte s32, or
 * hexadecimal text; a read gives the s32 limit), and its holder is listed
 * like one of DEV, with the pid and command of its opener.
 */
#define QOS_DEV	"/dev/cpu_dma_latency"

FIXTURE(cpu_dma) {
	int fd;
	char listing[65536];
};

FIXTURE_SETUP(cpu_dma)
{
	if (access(QOS_DEV, F_OK) || access(LISTING, F_OK))
		SKIP(return, "no " QOS_DEV " or " LISTING " (CONFIG_LATENCY)");
	self->fd = open(QOS_DEV, O_RDWR);
	ASSERT_LE(0, self->fd) TH_LOG("open " QOS_DEV ": %s", strerror(errno));
}

FIXTURE_TEARDOWN(cpu_dma)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* The value of our holder in the listing, or -1 when it has no line. */
static int our_value(char *listing, size_t size)
{
	char line[256];
	int usecs;

	if (read_listing(listing, size) ||
	    find_holder(listing, getpid(), line, sizeof(line), &usecs))
		return -1;
	return usecs;
}

TEST_F(cpu_dma, holder_listed_from_open_with_pid_and_comm)
{
	char line[256], comm[32] = "";
	int usecs;

	ASSERT_EQ(0, prctl(PR_GET_NAME, comm));
	ASSERT_EQ(0, read_listing(self->listing, sizeof(self->listing)));
	ASSERT_EQ(0, find_holder(self->listing, getpid(), line, sizeof(line),
				 &usecs)) TH_LOG("%s", self->listing);
	/* Held with no constraint until the first write. */
	EXPECT_EQ(1000000, usecs);
	EXPECT_EQ(0, strncmp(line, "user:", 5)) TH_LOG("%s", line);
	EXPECT_NE(NULL, strstr(line, comm)) TH_LOG("%s, comm %s", line, comm);
}

TEST_F(cpu_dma, binary_s32_held_and_read_back)
{
	int32_t v = 100, got = 0;

	ASSERT_EQ(4, write(self->fd, &v, sizeof(v)));
	EXPECT_EQ(100, our_value(self->listing, sizeof(self->listing)));
	ASSERT_EQ(4, read(self->fd, &got, sizeof(got)));
	/* The limit in force, which no other holder of the test guest lowers. */
	EXPECT_EQ(100, got);
}

TEST_F(cpu_dma, hex_text_held)
{
	/* "50" is hexadecimal: 80 us, as it always was. */
	ASSERT_EQ(2, write(self->fd, "50", 2));
	EXPECT_EQ(80, our_value(self->listing, sizeof(self->listing)));
	ASSERT_EQ(3, write(self->fd, "1f\n", 3));
	EXPECT_EQ(31, our_value(self->listing, sizeof(self->listing)));
}

TEST_F(cpu_dma, default_value_releases_and_invalid_is_ignored)
{
	int32_t v = 40, dflt = -1, bad = -5;

	ASSERT_EQ(4, write(self->fd, &v, sizeof(v)));
	EXPECT_EQ(40, our_value(self->listing, sizeof(self->listing)));
	/* An invalid value is accepted and ignored, as by PM QoS. */
	ASSERT_EQ(4, write(self->fd, &bad, sizeof(bad)));
	EXPECT_EQ(40, our_value(self->listing, sizeof(self->listing)));
	/* PM_QOS_DEFAULT_VALUE: no constraint any more, still a holder. */
	ASSERT_EQ(4, write(self->fd, &dflt, sizeof(dflt)));
	EXPECT_EQ(1000000, our_value(self->listing, sizeof(self->listing)));
}

TEST_F(cpu_dma, released_on_close)
{
	int32_t v = 60, before = 0, got = 0;
	int fd2;

	/* The limit in force before: our holder asks for nothing yet. */
	ASSERT_EQ(4, read(self->fd, &before, sizeof(before)));
	ASSERT_LT(v, before) TH_LOG("another holder asks for %d us", before);
	ASSERT_EQ(4, write(self->fd, &v, sizeof(v)));
	ASSERT_EQ(60, our_value(self->listing, sizeof(self->listing)));
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(-1, our_value(self->listing, sizeof(self->listing)))
		TH_LOG("%s", self->listing);
	/* A read-only open holds nothing below the limit, which is back. */
	fd2 = open(QOS_DEV, O_RDONLY);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(4, read(fd2, &got, sizeof(got)));
	EXPECT_EQ(before, got);
	close(fd2);
}

TEST_HARNESS_MAIN
