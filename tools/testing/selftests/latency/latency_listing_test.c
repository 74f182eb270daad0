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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define DEV	"/dev/acceptable_latency"
#define LISTING	"/proc/latency_constraints"

/* The whole listing, NUL-terminated, in a buffer of @size. */
static int read_listing(char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	fd = open(LISTING, O_RDONLY);
	if (fd < 0)
		return -1;
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return n < 0 ? -1 : 0;
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

		if (*p != '#' && sscanf(p, "%79s %d %d", id, &u, &nr) == 3 &&
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
		 * its identifier either ("user:<seq>").
		 */
		snprintf(outside, sizeof(outside), " 90 - -\n");
		end = ok ? strstr(self->listing, outside) : NULL;
		for (start = end; start && start > self->listing &&
		     start[-1] != '\n'; start--)
			;
		ok = end && sscanf(start, "user:%*u%n", &n) == 0 &&
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

TEST_HARNESS_MAIN
